"""Per-approach figures of a study: what the two source papers publish, from records."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from adequacy.metrics import SampleSummary, summarize
from adequacy.reporting._load import Record
from adequacy.reporting._outcomes import Outcome, outcome
from adequacy.verdicts import BUCKETS

THRESHOLDS = [round(i / 20, 2) for i in range(21)]
"""Harness@t is drawn for t = 0, 0.05, ..., 1."""
VR_THRESHOLD = 0.75


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


def approach_stats(name: str, records: Sequence[Record],
                   tasks: dict[str, TaskInfo]) -> ApproachStats:
    reps = [r.report for r in records]
    per_task = Counter(r.task_id for r in reps)
    max_k = max(per_task.values(), default=1)
    ks = [k for k in (1, 2, 3, 5, 10, 20, 50, 100) if k <= max_k]
    summ = summarize([(r.task_id, r.passed_all, r.buckets if r.status == "scored" else None)
                      for r in reps], ks=ks)
    # a spec its writer failed to write is counted as not passed, but it is not invalid
    unwritten = sum(1 for r in reps if r.status == "writer failed")
    summ = summ.model_copy(update={"invalid": summ.invalid - unwritten})
    metrics = [r.metrics for r in reps if r.metrics is not None]

    def frac_true(values: list[bool | None]) -> float | None:
        decided = [v for v in values if v is not None]
        return sum(decided) / len(decided) if decided else None

    harness = {f"{t:g}": frac_true([m.harness_at(t) for m in metrics]) for t in THRESHOLDS}
    post = {f"{t:g}": frac_true([m.post_harness_at(t) for m in metrics]) for t in THRESHOLDS}
    verified = [r.verified for r in records if r.verified is not None]
    outcomes = Counter(outcome(r).value for r in reps)
    groups: dict[str, list[bool]] = defaultdict(list)
    for r in reps:
        info = tasks.get(r.task_path) or TaskInfo()
        keys = list(info.tags) + ([f"difficulty:{info.difficulty}"] if info.difficulty else [])
        for k in keys:
            groups[k].append(r.passed_all)
    return ApproachStats(
        name=name, summary=summ, ks=ks, harness_at=harness, post_harness_at=post,
        vr=(sum(verified) / len(verified)) if verified else None, vr_measured=len(verified),
        outcomes={o.value: outcomes.get(o.value, 0) for o in Outcome},
        by_tag={k: sum(v) / len(v) for k, v in sorted(groups.items())})


def task_infos(records: Sequence[Record]) -> dict[str, TaskInfo]:
    """Tags and difficulty from each task folder still on disk; a missing one has none."""
    from adequacy.errors import AdequacyError
    from adequacy.tasks import load_task

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
