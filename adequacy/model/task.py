"""The task data model: what a loaded task holds (the loader is ``adequacy.taskdirs.load``).

Kept apart from the loader so that the plugin contract (``adequacy.extensions.backend``), which speaks of
tasks and cases, depends on data only: the loader asks the plugin registry which files a
language's tasks hold, and the model never does.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from adequacy.errors import TaskError
from adequacy.model.textfiles import read_text
from adequacy.model.types import Type
from adequacy.model.verdicts import BUCKETS, Bucket


class TaskFiles(BaseModel):
    """What a language's backend declares about its task folders; core knows no language."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    skeleton: str
    """File name of the skeleton the spec is written into (``skeleton.rs``)."""
    spec_file: str | None = None
    """File name a spec writer (an agent) completes, when not the skeleton's own name."""
    settings: tuple[str, ...] = ()
    """Keys allowed in the ``[<language>]`` table of task.toml. A typo there would silently
    change what a spec means (``[jml] clas`` falls back to the default class), so any other key
    is an error."""
    empty_skeleton: str = "the spec is written into it"
    """Why an empty skeleton is an error (said after "<file> is empty")."""


class Case(BaseModel):
    """One test case of one bucket; pre buckets carry no output."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    bucket: Bucket
    input: dict[str, Any]
    """Argument name -> JSON value."""
    output: dict[str, Any] | None = None
    """Output field name -> JSON value (an unnamed return value is the field ``result``)."""
    origin: str = "official"
    seed: int | None = None
    """The generator seed of a generated case (``adequacy cases generate --seed``), so the
    case can be made again; None for cases nobody generated."""
    visible: bool = False
    """May be shown to a spec writer; hidden cases are for evaluation only."""
    made_by: tuple[str, ...] = ()
    """The mutants this case distinguishes, when mutants made it (``adequacy mutate
    --programs``, ``adequacy task strength --add``): the program mutants whose wrong output it
    is (``arith.swap@reference/reference.py:7``), or the spec mutant whose blind spot it
    closes (``spec cmp.weaken@21``). A program mutant's kill by a spec is read from here."""
    note: str = ""
    """Why the case is in its bucket when its source said otherwise, with the evidence (a
    recorded valid input on which the checked reference overflows is ``pre_sound``)."""
    line: int | None = Field(default=None, exclude=True)
    """Line in the bucket's JSONL file (for error messages; not part of the case's identity)."""

    @property
    def key(self) -> str:
        """``bucket/id``: unique within a task (ids are unique per bucket file)."""
        return f"{self.bucket.value}/{self.id}"


class Param(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, arbitrary_types_allowed=True)

    name: str
    type: Type
    type_text: str


class Task(BaseModel):
    """A loaded task; ``root`` is the folder it came from."""

    model_config = ConfigDict(extra="forbid", arbitrary_types_allowed=True)

    id: str
    language: str
    title: str = ""
    provenance: str = ""
    tags: list[str] = []
    difficulty: str | None = None
    every_input_valid: bool = False
    """The function is total: no input is invalid, so ``pre_sound`` is empty by design and a
    spec can pass without it (any precondition beyond the types is a completeness failure)."""
    every_input_valid_reason: str = ""
    """Who said so and on what evidence (``inferred: the reference is total on N inputs``,
    ``importer: ...``); empty when the task's author said so."""
    thin_invalid_domain: bool = False
    """The task's invalid inputs are few by nature (a null argument, ``MIN_VALUE`` only), so
    ``pre_sound`` holds fewer cases than usual and that is not a shortfall of the cases."""
    thin_invalid_domain_reason: str = ""
    """The evidence (``inferred: the only invalid inputs any oracle found are ...``)."""
    inputs: list[Param]
    outputs: list[Param]
    structs: dict[str, dict[str, str]] = {}
    constraints: dict[str, Any] = {}
    settings: dict[str, Any] = {}
    """The backend-specific table (``[verus]`` or ``[jml]``) of task.toml."""
    statement: str = ""
    root: Path
    cases: dict[Bucket, list[Case]]
    files: TaskFiles | None = None
    """The task files its language's owner backend declares, resolved by the loader
    (``adequacy.taskdirs.load.load_task``); None for a task of a language no backend serves."""

    def declared_files(self) -> TaskFiles:
        """``files``, or TaskError for a task of a language no installed backend serves."""
        if self.files is None:
            raise TaskError(f"task {self.id!r}: no installed backend declares the task files "
                            f"of language {self.language!r}", file=str(self.root / "task.toml"))
        return self.files

    @property
    def skeleton_path(self) -> Path:
        return self.root / self.declared_files().skeleton

    @property
    def skeleton(self) -> str:
        path = self.skeleton_path
        return read_text(path, path.name)

    @property
    def reference_dir(self) -> Path:
        return self.root / "reference"

    def input_type(self, name: str) -> Type:
        return next(p.type for p in self.inputs if p.name == name)

    def all_cases(self) -> list[Case]:
        return [c for b in BUCKETS for c in self.cases.get(b, [])]
