"""Bootstrap 95% intervals of a report's headline figures, resampling tasks.

Every headline figure is a ratio of sums over tasks: Pass@1 is the mean of per-task pass@1
(each task adds its value over 1), a bucket mean is a sum of spec fractions over a count of
specs, Harness@t a count of specs over a count of decided specs, VR verified over measured.
Resampling *tasks* with replacement, not specs, keeps the specs of one task together: samples
of one task are not independent draws, and a study's claim is about tasks. The resampling is
seeded, so a report rebuilt from the same records prints the same intervals.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from pydantic import BaseModel, ConfigDict

RESAMPLES = 1000
"""Enough for the 2.5th and 97.5th percentiles to move by well under a percentage point."""


class Interval(BaseModel):
    """A percentile bootstrap 95% interval."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    low: float
    high: float
    tasks: int
    """Tasks the figure is measured over (the unit resampled)."""

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2


Contributions = Mapping[str, Mapping[str, tuple[float, float]]]
"""task -> figure -> (numerator, denominator) that task adds to the figure."""


def bootstrap(per_task: Contributions, resamples: int = RESAMPLES,
              seed: int = 0) -> dict[str, Interval | None]:
    """An interval per figure; ``None`` where fewer than two tasks measure it (one task
    resampled is always itself: a zero-width interval would claim a certainty nobody has)."""
    tasks = sorted(per_task)
    figures = sorted({f for t in tasks for f in per_task[t]})
    out: dict[str, Interval | None] = {}
    measured = {f: [i for i, t in enumerate(tasks) if per_task[t].get(f, (0.0, 0.0))[1] > 0]
                for f in figures}
    live = [f for f in figures if len(measured[f]) >= 2]
    for f in figures:
        out[f] = None
    if not live:
        return out
    rng = random.Random(seed)
    n = len(tasks)
    nums = [[per_task[t].get(f, (0.0, 0.0))[0] for t in tasks] for f in live]
    # figures share denominators (every bucket mean counts the same specs, Pass@1 and pass@k
    # count tasks): each distinct one is summed once per resample
    den_of: dict[tuple[float, ...], int] = {}
    which = [den_of.setdefault(tuple(per_task[t].get(f, (0.0, 0.0))[1] for t in tasks),
                               len(den_of)) for f in live]
    dens = [list(d) for d in den_of]
    samples: list[list[float]] = [[] for _ in live]
    index = range(n)
    for _ in range(resamples):
        # one draw of tasks per resample, shared by every figure; the sums run in C
        idx = rng.choices(index, k=n)
        den_sums = [sum(map(d.__getitem__, idx)) for d in dens]
        for j in range(len(live)):
            den = den_sums[which[j]]
            if den > 0:
                samples[j].append(sum(map(nums[j].__getitem__, idx)) / den)
    for j, f in enumerate(live):
        vals = sorted(samples[j])
        if vals:
            out[f] = Interval(low=_percentile(vals, 0.025), high=_percentile(vals, 0.975),
                              tasks=len(measured[f]))
    return out


def _percentile(sorted_vals: list[float], q: float) -> float:
    """Linear interpolation between closest ranks (numpy's default)."""
    pos = q * (len(sorted_vals) - 1)
    lo = int(pos)
    hi = min(lo + 1, len(sorted_vals) - 1)
    return sorted_vals[lo] + (sorted_vals[hi] - sorted_vals[lo]) * (pos - lo)
