"""The manifest that ties a gym folder to its source task.

The folder holds no hidden case, so the grader must go back to the source task; the manifest
says where it was and what its content hashed to when the folder was made. A source task that
changed since (a case relabelled, added or removed) no longer matches, and the grader refuses
it rather than grading against cases the folder was not made from.
"""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from adequacy.errors import TaskError
from adequacy.tasks import Task
from adequacy.values import content_hash

MANIFEST = "gym.json"
"""At the top of each gym folder (an agent may read it: it holds no case)."""
PRIVATE = ".gym"
"""Folder of the gym's own files: the visible-only task copy, state, logs."""
FORMAT = 1


class GymManifest(BaseModel):
    """What a gym folder is made from; written by ``gym make``, read by check and submit."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    format: int = FORMAT
    task_id: str
    language: str
    task_hash: str
    """``task_content_hash`` of the source task when the folder was made."""
    source: str
    """Absolute path of the source task folder (the grader reads hidden cases there)."""
    spec_file: str
    """The file the agent completes, relative to the folder."""
    visible: list[str]
    """``bucket/id`` of the cases copied into the folder."""
    seed: int
    example_task: str | None = None
    """Id of the task the worked example comes from (never this one)."""


def task_content_hash(task: Task) -> str:
    """Hash of everything the grade depends on, independent of where the task folder lives:
    header, statement, skeleton and every case's bucket, id and values."""
    cases = "\n".join(c.model_dump_json(exclude={"line", "origin", "seed"}) for c in task.all_cases())
    header = (task.root / "task.toml").read_text(encoding="utf-8")
    return content_hash(task.id, task.language, header, task.statement, task.skeleton, cases)


def read_manifest(folder: Path) -> GymManifest:
    path = folder / MANIFEST
    if not path.is_file():
        raise TaskError(f"not a gym folder (no {MANIFEST}); make one with `adequacy gym make`",
                        file=str(folder))
    try:
        return GymManifest.model_validate_json(path.read_text(encoding="utf-8"))
    except (ValidationError, ValueError) as e:
        first = str(e).splitlines()[0] if str(e) else type(e).__name__
        raise TaskError(f"malformed gym manifest: {first}", file=str(path)) from None


def write_manifest(folder: Path, m: GymManifest) -> None:
    (folder / MANIFEST).write_text(json.dumps(m.model_dump(), indent=2) + "\n", encoding="utf-8")
