"""Benchmark QA: how strong each task's cases are, and the benchmark's spread.

Rows come from ``adequacy task strength --out FILE`` (one report per task, read by
``adequacy.search.strength.read_strength``); the report and ``task audit`` show them per task
and in one table per measure: tasks measured, median, 10th percentile, mean and the worst
tasks, so a benchmark builder sees which tasks are thin.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence

from pydantic import BaseModel, ConfigDict

__all__ = ["MEASURES", "BenchmarkQA", "MeasureSummary", "StrengthRow", "percentile", "qa_of"]


class StrengthRow(BaseModel):
    """One task's two strengths, before and after the cases its mutants found."""

    model_config = ConfigDict(extra="forbid")

    task: str
    spec: float | None = None
    spec_after: float | None = None
    program: float | None = None
    program_after: float | None = None
    spec_mutants: int = 0
    killed: int = 0
    blind_spots: int = 0
    closed: int = 0
    equivalent: dict[str, int] = {}
    unknown: int = 0
    invalid: int = 0
    program_mutants: int = 0
    wrong_programs: int = 0
    note: str = ""
    """Why a figure is missing (no gold spec, no program to mutate, an error)."""


class MeasureSummary(BaseModel):
    model_config = ConfigDict(extra="forbid")

    measure: str
    tasks: int
    median: float | None
    p10: float | None
    mean: float | None
    worst: list[str]


class BenchmarkQA(BaseModel):
    model_config = ConfigDict(extra="forbid")

    rows: list[StrengthRow]
    summary: list[MeasureSummary]


MEASURES: tuple[tuple[str, str], ...] = (
    ("spec", "spec-mutant strength"), ("spec_after", "spec-mutant strength after --add"),
    ("program", "program-mutant strength"),
    ("program_after", "program-mutant strength after --add"))


def percentile(values: Sequence[float], q: float) -> float | None:
    """The ``q`` quantile (0..1) by linear interpolation between order statistics."""
    xs = sorted(values)
    if not xs:
        return None
    pos = (len(xs) - 1) * q
    lo = int(pos)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


def summarize(rows: Sequence[StrengthRow], name: str, get: Callable[[StrengthRow], float | None],
              worst: int = 5) -> MeasureSummary:
    vals = [(r.task, v) for r in rows if (v := get(r)) is not None]
    xs = [v for _, v in vals]
    return MeasureSummary(measure=name, tasks=len(xs),
                          median=statistics.median(xs) if xs else None,
                          p10=percentile(xs, 0.10),
                          mean=statistics.fmean(xs) if xs else None,
                          worst=[t for t, _ in sorted(vals, key=lambda tv: (tv[1], tv[0]))
                                 [:worst]])


def qa_of(rows: Sequence[StrengthRow], worst: int = 5) -> BenchmarkQA:
    return BenchmarkQA(rows=list(rows), summary=[
        summarize(rows, label, lambda r, k=key: getattr(r, k), worst)  # type: ignore[misc]
        for key, label in MEASURES])
