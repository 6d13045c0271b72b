"""GEPA-style metrics: ``(gold, pred, trace, pred_name, pred_trace) -> dspy.Prediction(score,
feedback)``, scoring a written spec on a *training* task's cases with a registered objective
(``adequacy_optimizers.objectives``: ``adequacy``, ``vr``, ``verified_adequacy``, a plugin's).

A metric is built for one set of training tasks. Asked about any other task it raises
``HeldOutTask``: validation and test tasks are never scored inside the optimizer's loop, so no
case of theirs can reach feedback (docs/optimize.md). Feedback names the failing buckets and up
to ``max_cases`` failing cases (input, output, what the spec said, the engine's reason), or the
spec's compile or parse error with its line, or the prover's summary.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import dspy

from adequacy.errors import AdequacyError, HeldOutTask, LenientReward, MetricUnavailable
from adequacy.extensions.backend import Limits
from adequacy.extensions.objectives import Evaluation, Objective
from adequacy.extensions.registry import registry
from adequacy.model.task import Task
from adequacy.model.thresholds import HARNESS_T
from adequacy.scoring.cache import VerdictCache

from .extract import ExtractionError, spec_from_answer
from .objectives import LENIENT_UNSAFE, ObjectiveSettings, Option
from .verifier import prover_for, why_no_prover


def objective(name: str) -> Objective:
    """The registered objective ``name`` (an error listing the registered ones otherwise)."""
    found = registry().objectives
    if name not in found:
        raise AdequacyError(f"metric {name!r}: expected one of {', '.join(found)}")
    return found[name]


class SpecMetric:
    """Callable GEPA metric over a fixed set of training tasks."""

    def __init__(self, tasks: Iterable[Task], kind: str = "adequacy", option: Option = "mean",
                 harness_t: float = HARNESS_T, max_cases: int = 3,
                 engines: Sequence[str] | None = None,
                 cache: VerdictCache | None = None, limits: Limits | None = None,
                 language: str | None = None, strict: bool = True,
                 allow_lenient: bool = False) -> None:
        if not strict and not allow_lenient:
            raise LenientReward(f"a GEPA metric with lenient scoring: refused ({LENIENT_UNSAFE}"
                                "); pass allow_lenient=True to mean it")
        self.objective = objective(kind)
        if option not in ("mean", "all4", "post"):
            raise AdequacyError(f"option={option!r}: expected mean, all4 or post")
        self.tasks = {t.id: t for t in tasks}
        self.kind, self.option = kind, option
        self.settings = ObjectiveSettings(
            option=option, harness_t=harness_t, max_cases=max_cases, engines=engines,
            cache=cache, limits=limits or Limits(case_seconds=5.0, spec_seconds=60.0),
            strict=strict, allow_lenient=allow_lenient)
        if self.objective.needs_prover:
            langs = {language} if language else {t.language for t in self.tasks.values()}
            for lang in langs:
                if prover_for(lang) is None:
                    raise MetricUnavailable(f"metric {kind}: {why_no_prover(lang)}")

    def task(self, task_id: str) -> Task:
        if task_id not in self.tasks:
            raise HeldOutTask(f"task {task_id!r} is not in this metric's training split")
        return self.tasks[task_id]

    def spec_text(self, task: Task, pred: Any) -> str:
        """The spec file from a prediction (``spec_text`` as is, else ``spec`` extracted)."""
        text = getattr(pred, "spec_text", None)
        if isinstance(text, str) and text.strip():
            return text
        return spec_from_answer(task, str(getattr(pred, "spec", "") or ""))

    def evaluate(self, task: Task, text: str) -> Evaluation:
        return self.objective.evaluate(task, text, self.settings)

    def __call__(self, gold: Any, pred: Any, trace: Any = None, pred_name: str | None = None,
                 pred_trace: Any = None) -> dspy.Prediction:
        task = self.task(str(gold.task_id))
        try:
            text = self.spec_text(task, pred)
        except ExtractionError as e:
            return dspy.Prediction(score=0.0, feedback=f"No spec could be read from the answer: "
                                   f"{e}")
        score, feedback, _ = self.evaluate(task, text)
        return dspy.Prediction(score=score, feedback=feedback)
