"""Score a spec-writing program on a split: run it on every task, score every spec on all of
its task's cases (hidden ones too: this is evaluation, not feedback), and aggregate."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import dspy
from pydantic import BaseModel

from adequacy.extensions.backend import Limits
from adequacy.extensions.registry import registry
from adequacy.model.task import Task
from adequacy.model.thresholds import HARNESS_T
from adequacy.scoring.runner import score_spec
from adequacy.scoring.spec_report import SpecReport

from .dspy_writer import DSPyWriter
from .objectives import adequacy_score, vr_score
from .verifier import prove, prover_for


class TaskScore(BaseModel):
    task_id: str
    status: str
    """scored | invalid | error | writer failed (the LM's answer held no spec)"""
    adequacy: float
    metrics: dict[str, float | None] = {}
    harness: bool | None = None
    vr: float | None = None
    error: str | None = None


class SplitScore(BaseModel):
    """Means over the split's tasks; an invalid or missing spec counts 0 in ``adequacy`` and is
    left out of the per-metric means only where the bucket is empty (N/A)."""

    tasks: int
    adequacy: float
    metrics: dict[str, float | None] = {}
    """Every registered metric (``PostCorr``... by its name ``post_corr``...), by name."""
    harness_at_t: float
    harness_t: float
    vr: float | None
    invalid: int
    """Specs not scored: invalid, an error of ours, or ``writer_failed``."""
    writer_failed: int = 0
    """Tasks whose answer held no spec (counted 0 in ``adequacy``, and in ``invalid``)."""
    per_task: list[TaskScore]


def _mean(xs: list[float]) -> float | None:
    return sum(xs) / len(xs) if xs else None


class _Scored(dspy.Prediction):
    """One task's outcome, carried through ``dspy.Evaluate`` (which keeps devset order)."""


class _ScoreTask(dspy.Module):
    """Writes one task's spec with ``program`` and scores it on every case: the unit
    ``dspy.Evaluate`` runs, one per thread. Never raises: an exception of ours becomes an
    ``error`` row (``Evaluate`` would turn it into a silent failure score)."""

    def __init__(self, program: dspy.Module, tasks: Sequence[Task], lm: Any,
                 harness_t: float, with_vr: bool, limits: Limits | None) -> None:
        super().__init__()
        self.program, self.tasks, self.lm = program, list(tasks), lm
        self.harness_t, self.with_vr, self.limits = harness_t, with_vr, limits

    def forward(self, index: int) -> _Scored:
        t = self.tasks[index]
        writer = DSPyWriter(self.lm)  # one per task: its calls are kept in task order
        try:
            row, rep = self._score(writer, t)
        except Exception as e:  # noqa: BLE001 - a bug of ours must not end the split
            row, rep = TaskScore(task_id=t.id, status="error", adequacy=0.0,
                                 error=f"{type(e).__name__}: {str(e)[:300]}"), None
        return _Scored(row=row, report=rep, calls=writer.calls)

    def _score(self, writer: DSPyWriter, t: Task) -> tuple[TaskScore, SpecReport | None]:
        w = writer.one(self.program, t, 0)
        if w.text is None:
            return TaskScore(task_id=t.id, status="writer failed", adequacy=0.0, error=w.error,
                             vr=0.0 if self.with_vr else None), None
        rep = score_spec(t, w.text, limits=self.limits)
        m = ({x.name: x.value(rep.buckets, rep.strict) for x in registry().metrics.values()}
             if rep.metrics else {})
        vr = None
        if self.with_vr and prover_for(t.language) is not None:
            vr = vr_score(prove(t, w.text, self.limits))
        return TaskScore(task_id=t.id, status=rep.status, adequacy=adequacy_score(rep),
                         metrics=m, vr=vr,
                         harness=rep.metrics.harness_at(self.harness_t) if rep.metrics
                         else False,
                         error=rep.invalid.render() if rep.invalid else rep.error), rep


def evaluate(program: dspy.Module, tasks: Sequence[Task], lm: Any,
             harness_t: float = HARNESS_T,
             with_vr: bool = False, limits: Limits | None = None,
             calls: list[dict[str, Any]] | None = None,
             on_report: Callable[[SpecReport], None] | None = None,
             num_threads: int = 1) -> SplitScore:
    """``calls`` collects a record of every LM call made (the LM is copied per spec);
    ``on_report`` sees every spec's report (``optimize`` appends them to its results log), in
    task order whatever ``num_threads``: the split runs through ``dspy.Evaluate``, and its
    results (kept in devset order) are the same as a sequential run's."""
    rows: list[TaskScore] = []
    if tasks:
        devset = [dspy.Example(index=i).with_inputs("index") for i in range(len(tasks))]
        run = dspy.Evaluate(devset=devset, num_threads=num_threads, display_progress=False,
                            display_table=False, max_errors=len(devset) + 1)
        result = run(_ScoreTask(program, tasks, lm, harness_t, with_vr, limits),
                     metric=lambda _ex, pred, _trace=None: pred.row.adequacy)
        for t, (_, pred, _) in zip(tasks, result.results, strict=True):
            row = getattr(pred, "row", None)
            if row is None:  # Evaluate swallowed an exception (forward never raises)
                row = TaskScore(task_id=t.id, status="error", adequacy=0.0,
                                error="the evaluation of this task failed")
            rows.append(row)
            if on_report is not None and getattr(pred, "report", None) is not None:
                on_report(pred.report)
            if calls is not None:
                calls += getattr(pred, "calls", [])
    n = len(rows)

    def metric(name: str) -> float | None:
        vals = [r.metrics[name] if r.status == "scored" else 0.0 for r in rows
                if r.status != "scored" or r.metrics.get(name) is not None]
        return _mean([v for v in vals if v is not None])

    vrs = [r.vr for r in rows if r.vr is not None]
    return SplitScore(tasks=n, adequacy=_mean([r.adequacy for r in rows]) or 0.0,
                      metrics={name: metric(name) for name in registry().metrics},
                      harness_at_t=(sum(1 for r in rows if r.harness) / n) if n else 0.0,
                      harness_t=harness_t, vr=_mean(vrs) if vrs else None,
                      invalid=sum(1 for r in rows if r.status != "scored"),
                      writer_failed=sum(1 for r in rows if r.status == "writer failed"),
                      per_task=rows)
