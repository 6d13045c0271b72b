"""Judges: who says whether a made-up input is valid and an output right.

Counterexample search (``adequacy explore``, ``diff``) and the benchmark audit compare two
judges on the same inputs and outputs. A judge is a spec (``adequacy.search.oracles.SpecJudge``)
or a task's own evidence; a plugin offers more through ``adequacy_judges`` (a ``JudgeKind``:
``explore --oracle NAME`` builds one from the task). What a judge can do beyond its two words is
declared in ``capabilities``, never probed.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict

from adequacy.model.task import Task

__all__ = ["Judge", "JudgeCapabilities", "JudgeKind", "Pair", "Word"]

Pair = tuple[dict[str, Any], dict[str, Any]]


@dataclass(frozen=True)
class Word:
    """A judge's word on one input (valid?) or one (input, output) pair (right?): ``True``,
    ``False``, or ``None`` (cannot say, with the reason); only decided words on both sides make
    a disagreement."""

    value: bool | None
    reason: str = ""


class JudgeCapabilities(BaseModel):
    """What a judge does besides its words, declared by its class."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    deadline: bool = False
    """It honours ``set_deadline``: its engine runs get only the time left in a search."""
    reference_outputs: bool = False
    """It gives the task's reference outputs (``reference``), which a search mutates into
    candidate outputs."""


class Judge(ABC):
    """Two three-valued words: on inputs and on (input, output) pairs, in batches."""

    name: str
    describe: str = ""
    """What it consults, for messages (``validator, reference``); "" when nothing to add."""
    capabilities: JudgeCapabilities = JudgeCapabilities()
    """Declared by the class, or by the instance where it depends on the task (a task's
    oracles give reference outputs only when the task has a reference)."""

    @abstractmethod
    def inputs(self, inputs: Sequence[dict[str, Any]]) -> list[Word]:
        """Valid? One word per input."""

    @abstractmethod
    def outputs(self, pairs: Sequence[Pair]) -> list[Word]:
        """Right? One word per (input, output) pair."""

    def set_deadline(self, deadline: float) -> None:
        """Stop spending time at ``deadline`` (``time.monotonic()``); capability ``deadline``."""
        raise NotImplementedError(f"judge {self.name!r} does not take a deadline")

    def reference(self, inputs: Sequence[dict[str, Any]]) -> list[dict[str, Any] | str]:
        """The reference's output per input, or why it gave none; capability
        ``reference_outputs``."""
        raise NotImplementedError(f"judge {self.name!r} has no reference outputs")


@dataclass(frozen=True)
class JudgeKind:
    """A judge a plugin offers: ``make`` builds it for one task (``AdequacyError`` when the
    task gives it nothing to judge by)."""

    name: str
    description: str
    make: Callable[[Task], Judge]
