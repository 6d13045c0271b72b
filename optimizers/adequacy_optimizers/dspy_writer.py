"""The DSPy writer: a spec-writing program (a family seed or an optimized program) run on a task.

Each sample is one run of the program with its own ``rollout_id`` so that samples at a
non-zero temperature are distinct calls rather than cache hits. The answer goes through
``extract.spec_from_answer``; an answer with no usable spec, or a call that failed after
litellm's retries, becomes a ``WrittenSpec`` with the reason in ``error`` (scored 0.0), never
an exception that stops a batch.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import dspy

from adequacy.errors import AdequacyError
from adequacy.extensions.writers import WrittenSpec
from adequacy.model.task import Task

from .demos import default_pool, demos_from
from .extract import ExtractionError, spec_from_answer
from .lm import call_records, usage_of
from .programs import SHOTS, SpecWriterProgram, task_inputs


def build_program(task: Task, family: str, pool: Sequence[Task] = (),
                  program_path: Path | None = None) -> SpecWriterProgram:
    """The family's program for the task's language, demos from ``pool`` minus the task."""
    k = SHOTS.get(family, 0)
    demos = demos_from(default_pool(task.language, pool), exclude=[task.id], k=k) if k else []
    program = SpecWriterProgram(task.language, family, demos)
    if program_path is not None:
        try:
            program.load(str(program_path))
        except Exception as e:  # noqa: BLE001 - a foreign JSON file is a user error
            raise AdequacyError(f"{program_path}: not a saved {family} program for "
                                f"{task.language} tasks ({type(e).__name__}: {e})") from None
    return program


class DSPyWriter:
    def __init__(self, lm: Any, family: str = "zs", pool: Sequence[Task] = (),
                 program_path: Path | None = None) -> None:
        self.lm, self.family, self.pool, self.program_path = lm, family, list(pool), program_path
        self.name = f"dspy:{family}" + (":optimized" if program_path else "")
        self.calls: list[dict[str, Any]] = []
        """Every LM call made through this writer (model, tokens, cost, time)."""

    def write(self, task: Task, samples: int = 1) -> list[WrittenSpec]:
        program = build_program(task, self.family, self.pool, self.program_path)
        return [self.one(program, task, i) for i in range(samples)]

    def one(self, program: dspy.Module, task: Task, i: int) -> WrittenSpec:
        lm = self.lm.copy(rollout_id=i) if i else self.lm.copy()
        start = time.monotonic()
        rec = WrittenSpec(task_id=task.id, writer=self.name, sample=i,
                          model=str(getattr(lm, "model", "")))
        try:
            with dspy.context(lm=lm):
                pred = program(**task_inputs(task))
            rec.answer = str(getattr(pred, "spec", "") or "")
            rec.text = spec_from_answer(task, rec.answer)
        except ExtractionError as e:
            rec.error = f"unparseable answer: {e}"
        except Exception as e:  # noqa: BLE001 - a failed call is data, not a crash
            rec.error = f"{type(e).__name__}: {str(e)[:500]}"
        rec.usage = usage_of(lm.history)
        self.calls += call_records(lm)
        rec.seconds = time.monotonic() - start
        return rec
