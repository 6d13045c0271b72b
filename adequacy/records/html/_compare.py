"""Two result sets side by side, with how sure we are that one beats the other.

Specs of two approaches are different files, so the unit of pairing is the **task**: each task
present in both gets a per-task pass@1 (share of its specs passing every case) on each side,
and per-bucket mean pass fractions. Two statistics on the paired differences:
- an exact two-sided **sign test** (how many tasks got better vs worse; ties dropped), which
  assumes nothing about the size of differences;
- a seeded percentile **bootstrap CI** of the mean difference over tasks.
Specs with the same file name in both sets (the same writer sample, a re-run) are also paired
one to one, so a reader can see which specs flipped.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence
from math import comb
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from adequacy.extensions.registry import registry
from adequacy.model.verdicts import BUCKETS
from adequacy.records.html._load import Record


class Delta(BaseModel):
    model_config = ConfigDict(extra="forbid")

    measure: str
    tasks: int
    mean_a: float | None
    mean_b: float | None
    mean_diff: float | None
    ci_low: float | None
    ci_high: float | None
    better: int
    worse: int
    same: int
    sign_p: float | None
    """Exact two-sided sign-test p-value (ties dropped); None without untied tasks."""


class TaskChange(BaseModel):
    model_config = ConfigDict(extra="forbid")

    task_id: str
    a: float
    b: float


class SpecChange(BaseModel):
    model_config = ConfigDict(extra="forbid")

    task_id: str
    spec: str
    a: str
    b: str
    """Outcome on each side: passed / failed / invalid / error."""


class Comparison(BaseModel):
    model_config = ConfigDict(extra="forbid")

    a: str
    b: str
    only_a: int
    only_b: int
    deltas: list[Delta]
    """Pass@1 first, then one per bucket."""
    improved: list[TaskChange]
    worsened: list[TaskChange]
    specs_flipped: list[SpecChange]
    records_a: int = 0
    records_b: int = 0
    unverified_a: int = 0
    """Records of A not sealed by this installation's grader (typed, edited, from elsewhere)."""
    unverified_b: int = 0
    lenient_a: int = 0
    """Specs of A scored leniently (unknown left out)."""
    lenient_b: int = 0

    def trust_notes(self) -> list[str]:
        """What a reader must know before believing the difference."""
        notes = []
        for side, n, total in ((self.a, self.unverified_a, self.records_a),
                               (self.b, self.unverified_b, self.records_b)):
            if n:
                notes.append(f"NOT VERIFIED: {n} of {total} records of {side} were not sealed "
                             "by this installation's grader (typed or edited by hand, or "
                             "written elsewhere); their figures are claims (--verified-only "
                             "drops them)")
        for side, n, total in ((self.a, self.lenient_a, self.records_a),
                               (self.b, self.lenient_b, self.records_b)):
            if n:
                notes.append(f"LENIENT: {n} of {total} specs of {side} were scored leniently "
                             "(unknown left out): not comparable with strict figures")
        return notes


def compare(a: Sequence[Record], b: Sequence[Record], name_a: str = "A", name_b: str = "B",
            resamples: int = 10_000, seed: int = 0) -> Comparison:
    ta, tb = _per_task(a), _per_task(b)
    common = sorted(set(ta) & set(tb))
    rng = random.Random(seed)
    deltas = [_delta("Pass@1", [(ta[t]["pass"], tb[t]["pass"]) for t in common], rng, resamples)]
    for bk in BUCKETS:
        pairs = [(ta[t][bk.value], tb[t][bk.value]) for t in common
                 if ta[t].get(bk.value) is not None and tb[t].get(bk.value) is not None]
        deltas.append(_delta(f"{bk.value} ({registry().metric_of(bk).label})", pairs, rng, resamples))
    improved = [TaskChange(task_id=t, a=ta[t]["pass"], b=tb[t]["pass"]) for t in common
                if tb[t]["pass"] > ta[t]["pass"]]
    worsened = [TaskChange(task_id=t, a=ta[t]["pass"], b=tb[t]["pass"]) for t in common
                if tb[t]["pass"] < ta[t]["pass"]]
    return Comparison(a=name_a, b=name_b, only_a=len(set(ta) - set(tb)),
                      only_b=len(set(tb) - set(ta)), deltas=deltas, improved=improved,
                      worsened=worsened, specs_flipped=_flips(a, b), records_a=len(a),
                      records_b=len(b), unverified_a=sum(1 for r in a if not r.sealed),
                      unverified_b=sum(1 for r in b if not r.sealed),
                      lenient_a=sum(1 for r in a if not r.report.strict),
                      lenient_b=sum(1 for r in b if not r.report.strict))


def _per_task(records: Sequence[Record]) -> dict[str, dict[str, float]]:
    by: dict[str, list[Record]] = defaultdict(list)
    for r in records:
        by[r.report.task_id].append(r)
    out: dict[str, dict[str, float]] = {}
    for t, recs in by.items():
        row = {"pass": sum(r.report.passed_all for r in recs) / len(recs)}
        for bk in BUCKETS:
            fr = [f for r in recs if r.report.status == "scored"
                  for f in [r.report.buckets[bk].fraction(r.report.strict)
                            if bk in r.report.buckets else None] if f is not None]
            if fr:
                row[bk.value] = sum(fr) / len(fr)
        out[t] = row
    return out


def _delta(measure: str, pairs: list[tuple[float, float]], rng: random.Random,
           resamples: int) -> Delta:
    n = len(pairs)
    if n == 0:
        return Delta(measure=measure, tasks=0, mean_a=None, mean_b=None, mean_diff=None,
                     ci_low=None, ci_high=None, better=0, worse=0, same=0, sign_p=None)
    diffs = [y - x for x, y in pairs]
    better = sum(d > 0 for d in diffs)
    worse = sum(d < 0 for d in diffs)
    boots = sorted(sum(diffs[rng.randrange(n)] for _ in range(n)) / n for _ in range(resamples))
    return Delta(measure=measure, tasks=n, mean_a=sum(x for x, _ in pairs) / n,
                 mean_b=sum(y for _, y in pairs) / n, mean_diff=sum(diffs) / n,
                 ci_low=boots[int(0.025 * (resamples - 1))],
                 ci_high=boots[int(0.975 * (resamples - 1))], better=better, worse=worse,
                 same=n - better - worse, sign_p=sign_test(better, worse))


def sign_test(better: int, worse: int) -> float | None:
    """Exact two-sided binomial test of better vs worse under p = 1/2."""
    n = better + worse
    if n == 0:
        return None
    tail = sum(comb(n, i) for i in range(min(better, worse) + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def _flips(a: Sequence[Record], b: Sequence[Record]) -> list[SpecChange]:
    def state(r: Record) -> str:
        rep = r.report
        return rep.status if rep.status != "scored" else ("passed" if rep.passed_all
                                                          else "failed")

    def key(r: Record) -> tuple[str, str]:
        return r.report.task_id, Path(r.report.spec_path or "").name

    ia = {key(r): r for r in a}
    out = []
    for r in b:
        k = key(r)
        if k in ia and state(ia[k]) != state(r):
            out.append(SpecChange(task_id=k[0], spec=k[1], a=state(ia[k]), b=state(r)))
    return sorted(out, key=lambda c: (c.task_id, c.spec))
