"""Spec writers: the interface every writer offers, the record of what it wrote, and what a
plugin returns from ``adequacy_writers`` to offer one (``WriterKind``).

A writer sees the statement, the skeleton or Java method and the task's *visible* cases only
(docs/optimize.md); hidden cases stay with the scorer. A writer never raises for a bad answer:
an answer with no usable spec becomes a ``WrittenSpec`` with ``text=None`` and the reason in
``error``, which the metrics score 0.0 with the reason as feedback.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict

from adequacy.model.task import Case, Task


class Usage(BaseModel):
    """Tokens and cost of the language-model calls behind one spec (zero for classical writers)."""

    model_config = ConfigDict(extra="forbid")

    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float = 0.0
    """US dollars as litellm prices the model; 0.0 when the model has no price (local models)."""


class WrittenSpec(BaseModel):
    """One spec a writer produced for one task (one sample)."""

    model_config = ConfigDict(extra="forbid")

    task_id: str
    writer: str
    """Writer name and options, e.g. ``templates`` or ``dspy:fs-cot``."""
    sample: int = 0
    text: str | None = None
    """The whole spec file; None when the writer could not produce one."""
    error: str | None = None
    """Why there is no spec (an unparseable answer, a failed call)."""
    answer: str | None = None
    """The model's raw answer, kept for debugging extraction."""
    model: str | None = None
    usage: Usage = Usage()
    seconds: float = 0.0
    notes: list[str] = []
    """What the writer did (clauses kept and dropped, proofs tried)."""


@runtime_checkable
class Writer(Protocol):
    name: str

    def write(self, task: Task, samples: int = 1) -> list[WrittenSpec]:
        """``samples`` specs for ``task`` (a deterministic writer may return fewer)."""
        ...


def visible_cases(task: Task) -> list[Case]:
    """The only cases a writer may look at."""
    return [c for c in task.all_cases() if c.visible]


class WriterOptions(BaseModel):
    """Everything a writer may be made with; each writer reads the fields it needs."""

    model_config = ConfigDict(extra="forbid", arbitrary_types_allowed=True)

    lm: Any = None
    """The language model object (a ``dspy.LM``), made by the caller from ``model``."""
    model: str | None = None
    """Its litellm model string, as provenance names it."""
    temperature: float | None = None
    family: str = "zs"
    """The prompt family (``zs``, ``fs-cot``, ...)."""
    program: Path | None = None
    """An optimized program file (``adequacy optimize``'s output)."""
    demo_tasks: list[Task] = []
    """Training tasks whose gold specs may be few-shot examples."""


@dataclass(frozen=True)
class WriterKind:
    """One writer a plugin offers: ``adequacy synthesize --writer NAME`` and studies make it
    through ``make``; its specs' records name it with the options in ``params``."""

    name: str
    description: str
    needs_model: bool
    """It asks a language model: ``make`` gets ``WriterOptions.lm`` set, or is not called."""
    make: Callable[[WriterOptions], Writer]
    params: tuple[str, ...] = ()
    """The ``WriterOptions`` fields that shape what it writes (``family``, ``model``,
    ``temperature``, ``program``): recorded with every spec it wrote, so two settings of one
    writer are told apart in reports."""
