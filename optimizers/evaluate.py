"""Score a spec-writing program on a split: run it on every task, score every spec on all of
its task's cases (hidden ones too: this is evaluation, not feedback), and aggregate."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import dspy
from pydantic import BaseModel

from adequacy.backend import Limits
from adequacy.results import SpecReport
from adequacy.runner import score_spec
from adequacy.tasks import Task

from .dspy_writer import DSPyWriter
from .metrics import adequacy_score, vr_score
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
    post_corr: float | None
    post_comp: float | None
    pre_corr: float | None
    pre_comp: float | None
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


def evaluate(program: dspy.Module, tasks: Sequence[Task], lm: Any, harness_t: float = 1.0,
             with_vr: bool = False, limits: Limits | None = None,
             calls: list[dict[str, Any]] | None = None,
             on_report: Callable[[SpecReport], None] | None = None) -> SplitScore:
    """``calls`` collects a record of every LM call made (the LM is copied per spec);
    ``on_report`` sees every spec's report (``optimize`` appends them to its results log)."""
    writer = DSPyWriter(lm)
    rows: list[TaskScore] = []
    for t in tasks:
        w = writer.one(program, t, 0)
        if w.text is None:
            rows.append(TaskScore(task_id=t.id, status="writer failed", adequacy=0.0, error=w.error,
                                  vr=0.0 if with_vr else None))
            continue
        rep = score_spec(t, w.text, limits=limits)
        if on_report is not None:
            on_report(rep)
        m = rep.metrics.model_dump() if rep.metrics else {}
        vr = None
        if with_vr and prover_for(t.language) is not None:
            vr = vr_score(prove(t, w.text, limits))
        rows.append(TaskScore(task_id=t.id, status=rep.status, adequacy=adequacy_score(rep),
                              metrics=m, vr=vr,
                              harness=rep.metrics.harness_at(harness_t) if rep.metrics else False,
                              error=rep.invalid.render() if rep.invalid else rep.error))
    if calls is not None:
        calls += writer.calls
    n = len(rows)

    def metric(name: str) -> float | None:
        vals = [r.metrics[name] if r.status == "scored" else 0.0 for r in rows
                if r.status != "scored" or r.metrics.get(name) is not None]
        return _mean([v for v in vals if v is not None])

    vrs = [r.vr for r in rows if r.vr is not None]
    return SplitScore(tasks=n, adequacy=_mean([r.adequacy for r in rows]) or 0.0,
                      post_corr=metric("post_corr"), post_comp=metric("post_comp"),
                      pre_corr=metric("pre_corr"), pre_comp=metric("pre_comp"),
                      harness_at_t=(sum(1 for r in rows if r.harness) / n) if n else 0.0,
                      harness_t=harness_t, vr=_mean(vrs) if vrs else None,
                      invalid=sum(1 for r in rows if r.status != "scored"),
                      writer_failed=sum(1 for r in rows if r.status == "writer failed"),
                      per_task=rows)
