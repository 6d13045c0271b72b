"""Optimizer objectives: what ``adequacy optimize --metric NAME`` climbs.

An objective turns one written spec of one training task into a number in [0, 1] and the
feedback GEPA reflects on. The optimizer calls ``evaluate`` with its settings (an
``adequacy_optimizers.objectives.ObjectiveSettings``: adequacy option, Harness@t threshold,
engines, limits, cache, strictness); the built-in objectives (``adequacy``, ``vr``,
``verified_adequacy``) register through ``adequacy_objectives`` like a plugin's.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from adequacy.model.task import Task

__all__ = ["Evaluation", "Objective"]

Evaluation = tuple[float, str, Any]
"""(score in [0, 1], feedback, the spec's report or None)."""


@dataclass(frozen=True)
class Objective:
    name: str
    description: str
    evaluate: Callable[[Task, str, Any], Evaluation]
    """``(task, spec text, settings) -> (score, feedback, report or None)``."""
    needs_prover: bool = False
    """It proves the spec against the method body: refused up front for a language whose
    backend has no prover (rather than scoring every spec 0)."""
