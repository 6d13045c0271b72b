"""Per-approach figures of a study: what the two source papers publish, from records."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from adequacy.model.metrics import HARNESS_T, KS, SampleSummary, pass_at_k, pass_hat_k, summarize
from adequacy.model.verdicts import BUCKETS
from adequacy.records.html._intervals import Interval, bootstrap
from adequacy.records.html._load import Record
from adequacy.records.html._outcomes import SpecOutcome, outcome

THRESHOLDS = [round(i / 20, 2) for i in range(21)]
"""Harness@t is drawn for t = 0, 0.05, ..., 1 (and at the study's ``harness_t``)."""


class TaskInfo(BaseModel):
    """What a report needs to know about a task beyond its id."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    tags: tuple[str, ...] = ()
    difficulty: str | None = None


class ApproachStats(BaseModel):
    """Every figure of one approach; ``None`` where nothing could be measured."""

    model_config = ConfigDict(extra="forbid")

    name: str
    summary: SampleSummary
    ks: list[int]
    harness_at: dict[str, float | None]
    """t (as text) -> fraction of scored specs with all four metrics >= t."""
    post_harness_at: dict[str, float | None]
    vr: float | None
    """Fraction of specs that verified against the method body, where measured."""
    vr_measured: int
    outcomes: dict[str, int]
    by_tag: dict[str, float | None]
    """Pass@1 per task tag (and ``difficulty:...``)."""
    intervals: dict[str, Interval | None] = {}
    """Bootstrap 95% interval per headline figure (``Pass@1``, ``pass@K``, ``pass^K``, each
    bucket, ``Harness@T``, ``PostHarness@T`` at the study's threshold, ``VR``), tasks
    resampled."""
    writer: str | None = None
    model: str | None = None
    family: str | None = None
    """Who wrote the specs, as recorded (when every record of the approach agrees)."""
    determined: float | None = None
    """Share of valid inputs on which the postcondition determines the output (the solver
    proved no other output), over every input of every spec measured (``--symbolic``)."""
    determined_inputs: int = 0
    second_outputs: int = 0
    """Valid inputs with a second output the spec accepts (confirmed concretely)."""
    pre_admits: float | None = None
    """Share of specs whose precondition accepts an input the gold spec refuses (confirmed),
    among those where the solver decided it either way."""
    pre_measured: int = 0
    cost: float | None = None
    """Dollars spent writing the specs, where producers recorded it (``extra.cost``)."""
    cost_measured: int = 0
    seconds: float = 0.0
    """Scoring time of every spec, summed."""
    unverified: int = 0
    """Records not sealed by this installation's grader: their figures are claims."""
    lenient: int = 0
    """Specs scored leniently (unknown left out): a spec can raise such a score by being
    undecided where it would fail, so these figures are not strict ones."""


def approach_stats(name: str, records: Sequence[Record],
                   tasks: dict[str, TaskInfo], harness_t: float = HARNESS_T) -> ApproachStats:
    reps = [r.report for r in records]
    # pass@k counts a writer's samples only: a folder's gold and flawed specs are not k draws
    sampled = [r.producer.sample is not None for r in records]
    per_task = Counter(r.task_id for r, s in zip(reps, sampled, strict=True) if s)
    max_k = max(per_task.values(), default=1)
    ks = [k for k in KS if k <= max_k]
    strict = all(r.strict for r in reps)
    summ = summarize([(r.task_id, r.passed_all, r.buckets if r.status == "scored" else None)
                      for r in reps], ks=ks, strict=strict, sampled=sampled)
    # a spec its writer failed to write is counted as not passed, but it is not invalid
    unwritten = sum(1 for r in reps if r.status == "writer failed")
    summ = summ.model_copy(update={"invalid": summ.invalid - unwritten})
    ks = sorted(summ.pass_at_k)
    metrics = [r.metrics for r in reps if r.metrics is not None]

    def frac_true(values: list[bool | None]) -> float | None:
        decided = [v for v in values if v is not None]
        return sum(decided) / len(decided) if decided else None

    ts = sorted({*THRESHOLDS, harness_t})
    harness = {f"{t:g}": frac_true([m.harness_at(t) for m in metrics]) for t in ts}
    post = {f"{t:g}": frac_true([m.post_harness_at(t) for m in metrics]) for t in ts}
    verified = [r.verified for r in records if r.verified is not None]
    outcomes = Counter(outcome(r).value for r in reps)
    groups: dict[str, list[bool]] = defaultdict(list)
    for r in reps:
        info = tasks.get(r.task_path) or TaskInfo()
        keys = list(info.tags) + ([f"difficulty:{info.difficulty}"] if info.difficulty else [])
        for k in keys:
            groups[k].append(r.passed_all)
    key = f"{harness_t:g}"
    costs = [c for r in records for c in [r.extra.get("cost")]
             if isinstance(c, int | float) and not isinstance(c, bool)]
    outs = [r.report.symbolic.output for r in records
            if r.report.symbolic is not None and r.report.symbolic.output is not None]
    n_in = sum(o.inputs for o in outs)
    pres = [r.report.symbolic.pre for r in records
            if r.report.symbolic is not None and r.report.symbolic.pre is not None
            and r.report.symbolic.pre.status != "unknown"]
    return ApproachStats(
        determined=(sum(o.pinned for o in outs) / n_in) if n_in else None,
        determined_inputs=n_in, second_outputs=sum(o.second_output for o in outs),
        pre_admits=(sum(p.status == "found" for p in pres) / len(pres)) if pres else None,
        pre_measured=len(pres),
        name=name, summary=summ, ks=ks, harness_at=harness, post_harness_at=post,
        vr=(sum(verified) / len(verified)) if verified else None, vr_measured=len(verified),
        outcomes={o.value: outcomes.get(o.value, 0) for o in SpecOutcome},
        by_tag={k: sum(v) / len(v) for k, v in sorted(groups.items())},
        intervals=bootstrap(contributions(records, summ, key, strict)),
        writer=_agreed(r.producer.writer for r in records),
        model=_agreed(r.producer.model for r in records),
        family=_agreed(r.producer.family for r in records),
        cost=float(sum(costs)) if costs else None, cost_measured=len(costs),
        seconds=sum(r.report.seconds for r in records),
        unverified=sum(1 for r in records if not r.sealed),
        lenient=sum(1 for r in reps if not r.strict))


def contributions(records: Sequence[Record], summ: SampleSummary, key: str,
                  strict: bool = True) -> dict[str, dict[str, tuple[float, float]]]:
    """What each task adds to each headline figure, as (numerator, denominator): the input of
    the bootstrap, and (summed over every task) exactly the figure the report prints."""
    by_task: dict[str, list[Record]] = defaultdict(list)
    for r in records:
        by_task[r.report.task_id].append(r)
    kmax = max(summ.pass_at_k, default=0)
    t = float(key)
    out: dict[str, dict[str, tuple[float, float]]] = {}
    for tid, recs in by_task.items():
        reps = [r.report for r in recs]
        n, c = len(reps), sum(r.passed_all for r in reps)
        fig: dict[str, tuple[float, float]] = {"Pass@1": (c / n, 1.0)}
        drawn = [r.report.passed_all for r in recs if r.producer.sample is not None]
        ns, cs = len(drawn), sum(drawn)
        if kmax and ns >= kmax:
            for k in summ.pass_at_k:
                fig[f"pass@{k}"] = (pass_at_k(ns, cs, k), 1.0)
                fig[f"pass^{k}"] = (pass_hat_k(ns, cs, k), 1.0)
        for b in BUCKETS:
            fr = [f for r in reps if r.status == "scored"
                  for s in [r.buckets.get(b)] if s is not None
                  for f in [s.fraction(strict)] if f is not None]
            fig[b.value] = (sum(fr), float(len(fr)))
        ms = [r.metrics for r in reps if r.metrics is not None]
        h = [v for m in ms for v in [m.harness_at(t)] if v is not None]
        ph = [v for m in ms for v in [m.post_harness_at(t)] if v is not None]
        fig[f"Harness@{key}"] = (float(sum(h)), float(len(h)))
        fig[f"PostHarness@{key}"] = (float(sum(ph)), float(len(ph)))
        vr = [v for r in recs for v in [r.verified] if v is not None]
        fig["VR"] = (float(sum(vr)), float(len(vr)))
        out[tid] = fig
    return out


def _agreed(values: Iterable[str | None]) -> str | None:
    seen = set(values)
    return seen.pop() if len(seen) == 1 else None


def task_infos(records: Sequence[Record]) -> dict[str, TaskInfo]:
    """Tags and difficulty from each task folder still on disk; a missing one has none."""
    from adequacy.errors import AdequacyError
    from adequacy.taskdirs.load import load_task

    out: dict[str, TaskInfo] = {}
    for path in {r.report.task_path for r in records}:
        try:
            t = load_task(Path(path))
        except (AdequacyError, OSError, ValueError):
            out[path] = TaskInfo()
            continue
        out[path] = TaskInfo(tags=tuple(t.tags), difficulty=t.difficulty)
    return out


def group(records: Sequence[Record]) -> dict[str, list[Record]]:
    """Approaches in the order they first appear."""
    out: dict[str, list[Record]] = {}
    for r in records:
        out.setdefault(r.approach, []).append(r)
    return out


BUCKET_NAMES = [b.value for b in BUCKETS]
