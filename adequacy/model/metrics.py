"""Scores from verdicts (docs/report.md): per bucket, per spec, and over samples.

Strict scoring counts ``unknown`` as failed (the denominator is every case); lenient scoring
leaves unknown cases out of the denominator (pass fraction over decided cases). Either way the
unknown count is reported separately, and an empty bucket is N/A (``None``), never 0.0.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from math import comb
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from adequacy.model.thresholds import HARNESS_T as HARNESS_T  # re-exported: a metric's default
from adequacy.model.verdicts import BUCKETS, Bucket, Truth, Verdict

_Count = Field(default=0, ge=0, strict=True)


class BucketStats(BaseModel):
    """Case counts of one bucket. Results files are read back by ``report`` and ``compare``
    (and may be hand-edited or crafted), so counts that cannot come from verdicts are refused
    here, in the model every reader uses: a negative total would print PreCorr -100%."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    total: int = _Count
    passed: int = _Count
    failed: int = _Count
    """Decided, and the wrong way."""
    unknown: int = _Count

    @model_validator(mode="after")
    def _adds_up(self) -> BucketStats:
        if self.passed + self.failed + self.unknown != self.total:
            raise ValueError(f"counts do not add up: passed {self.passed} + failed "
                             f"{self.failed} + unknown {self.unknown} != total {self.total}")
        return self

    @property
    def decided(self) -> int:
        return self.passed + self.failed

    def fraction(self, strict: bool = True) -> float | None:
        """Pass fraction; None when there is nothing to divide by (N/A)."""
        denom = self.total if strict else self.decided
        return None if denom == 0 else self.passed / denom


Compute = Callable[[Mapping[Bucket, BucketStats], bool], "float | None"]


class Metric(BaseModel):
    """One figure of a scored spec, with its name in each paper's vocabulary.

    Every table, report and option that names a metric takes its names from here (through the
    registry: ``adequacy.extensions.registry.registry().metrics``), never from a list of its
    own. The four built-in metrics are the pass fractions of the four buckets; a plugin's metric
    may be another figure of the buckets' counts (``compute``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    """The identifier: a field of ``HarnessMetrics`` for the built-ins (``post_corr``), a
    column of tables and the key of machine-readable output."""
    bucket: Bucket | None
    """The bucket whose pass fraction it is (None: ``compute`` says how it is computed)."""
    direction: Literal["higher", "lower"] = "higher"
    """Which way is better."""
    description: str
    harness_name: str = ""
    """Spec-Harness's name (``PostCorr``); "" where that paper has none."""
    specgym_name: str = ""
    """Verus-SpecGym's name (``tau post-comp``); "" where that paper has none."""
    compute: Compute | None = None
    """``(bucket counts, strict) -> value or None (N/A)``; None: the bucket's pass fraction."""

    def value(self, stats: Mapping[Bucket, BucketStats], strict: bool = True) -> float | None:
        """The metric of one spec's bucket counts; None when it is N/A (an empty bucket)."""
        if self.compute is not None:
            return self.compute(stats, strict)
        s = stats.get(self.bucket) if self.bucket is not None else None
        return None if s is None else s.fraction(strict)

    @property
    def label(self) -> str:
        """The name tables print: Spec-Harness's when it has one, else the identifier."""
        return self.harness_name or self.name


BUILTIN_METRICS: tuple[Metric, ...] = (
    Metric(name="post_corr", bucket=Bucket.post_complete, harness_name="PostCorr",
           specgym_name="tau post-comp",
           description="right outputs the postcondition accepts (a too-strong postcondition "
                       "rejects right answers)"),
    Metric(name="post_comp", bucket=Bucket.post_sound, harness_name="PostComp",
           specgym_name="tau post-sound",
           description="wrong outputs the postcondition rejects (a too-weak postcondition "
                       "lets wrong answers through)"),
    Metric(name="pre_corr", bucket=Bucket.pre_complete, harness_name="PreCorr",
           specgym_name="tau pre-comp",
           description="valid inputs the precondition accepts (a too-strong precondition "
                       "refuses legitimate callers)"),
    Metric(name="pre_comp", bucket=Bucket.pre_sound, harness_name="PreComp",
           specgym_name="tau pre-sound",
           description="invalid inputs the precondition rejects (a too-weak precondition "
                       "admits inputs the function cannot handle)"),
)
"""The pass fractions of the four buckets, in the order reports print them; registered by
core's scoring room like any plugin's metric, and the fields of ``HarnessMetrics``."""


class HarnessMetrics(BaseModel):
    """The built-in metrics of one spec (``BUILTIN_METRICS``), each None when its bucket is
    empty (N/A)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    post_corr: float | None
    post_comp: float | None
    pre_corr: float | None
    pre_comp: float | None

    def _values(self, predicate: str | None = None) -> list[float]:
        vals = [getattr(self, m.name) for m in BUILTIN_METRICS
                if predicate is None or (m.bucket is not None and m.bucket.predicate == predicate)]
        return [v for v in vals if v is not None]

    def harness_at(self, t: float) -> bool | None:
        """All four metrics >= t; N/A metrics are skipped; None when all four are N/A."""
        vals = self._values()
        return None if not vals else all(v >= t for v in vals)

    def post_harness_at(self, t: float) -> bool | None:
        vals = self._values("post")
        return None if not vals else all(v >= t for v in vals)

    def mean(self) -> float | None:
        """The mean of the metrics that are not N/A (None when all are)."""
        vals = self._values()
        return sum(vals) / len(vals) if vals else None


def bucket_stats(verdicts: Iterable[Verdict]) -> dict[Bucket, BucketStats]:
    """Counts per bucket. Written flat (no ``Verdict.passed`` per case): every report read
    from a results file is checked against its verdicts, so this runs over whole logs."""
    counts = {b: [0, 0, 0, 0] for b in BUCKETS}  # total, passed, failed, unknown
    accept = {b: Truth.true if b.expects else Truth.false for b in BUCKETS}
    for v in verdicts:
        c = counts[v.bucket]
        c[0] += 1
        if v.value is Truth.unknown:
            c[3] += 1
        elif v.value is accept[v.bucket]:
            c[1] += 1
        else:
            c[2] += 1
    return {b: BucketStats(total=t, passed=p, failed=f, unknown=u)
            for b, (t, p, f, u) in counts.items()}


def untested_buckets(stats: dict[Bucket, BucketStats], strict: bool = True,
                     empty_by_design: Sequence[Bucket] = ()) -> list[Bucket]:
    """Buckets that say nothing about the spec: no cases, or (lenient) no decided case.
    ``empty_by_design``: buckets the task declares empty (a total function has no invalid
    input), which cannot be tested and so do not keep a spec from passing."""
    out = []
    for b in BUCKETS:
        if b in empty_by_design and stats.get(b, BucketStats()).total == 0:
            continue
        s = stats.get(b, BucketStats())
        if s.total == 0 or (not strict and s.decided == 0):
            out.append(b)
    return out


def passed_all(stats: dict[Bucket, BucketStats], strict: bool = True,
               empty_by_design: Sequence[Bucket] = ()) -> bool:
    """Every bucket was tested and no case failed (Verus-SpecGym Pass@1 for one spec).

    A spec passes only when each of the four buckets has cases: an imported task with no sound
    buckets would otherwise pass a spec with no annotations at all. Strict scoring needs every
    case passed; lenient scoring forgives unknowns but needs a decided case in every bucket (a
    spec undefined on every case has shown nothing).
    """
    if untested_buckets(stats, strict, empty_by_design):
        return False
    if strict:
        return all(s.passed == s.total for s in stats.values())
    return all(s.failed == 0 for s in stats.values())


def harness_metrics(stats: dict[Bucket, BucketStats], strict: bool = True) -> HarnessMetrics:
    return HarnessMetrics(**{m.name: m.value(stats, strict) for m in BUILTIN_METRICS})


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased pass@k (Chen et al. 2021): chance that at least one of k samples drawn
    without replacement from n, of which c pass, passes."""
    _check_nck(n, c, k)
    if n - c < k:
        return 1.0
    return 1.0 - comb(n - c, k) / comb(n, k)


def pass_hat_k(n: int, c: int, k: int) -> float:
    """pass^k (tau-bench): chance that all k samples drawn without replacement pass."""
    _check_nck(n, c, k)
    return comb(c, k) / comb(n, k)


def _check_nck(n: int, c: int, k: int) -> None:
    if not (0 <= c <= n):
        raise ValueError(f"need 0 <= c <= n, got n={n}, c={c}")
    if not (1 <= k <= n):
        raise ValueError(f"need 1 <= k <= n, got k={k}, n={n}")


class SampleSummary(BaseModel):
    """Aggregate over many specs (samples) of the same or different tasks."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    specs: int
    tasks: int
    pass_at_1: float | None
    """Fraction of specs with passed_all (mean over tasks of per-task pass@1)."""
    pass_at_k: dict[int, float]
    """Unbiased pass@k at each k, every k over the same tasks (``k_tasks``)."""
    pass_hat_k: dict[int, float]
    k_tasks: int = 0
    """Tasks behind every pass@k and pass^k value: those with at least ``max(pass_at_k)``
    samples."""
    k_excluded: int = 0
    """Tasks left out of pass@k and pass^k for having fewer samples than the largest k."""
    k_samples_min: int = 0
    k_samples_max: int = 0
    """Fewest and most samples per task among the ``k_tasks`` tasks."""
    unsampled: int = 0
    """Specs left out of pass@k and pass^k for carrying no sample index (hand-written specs,
    the files of a folder: not draws of one writer)."""
    bucket_means: dict[str, float | None]
    """Mean pass fraction per bucket over specs whose bucket is non-empty."""
    invalid: int

    def grouped(self) -> str:
        """What pass@k grouped, in words: k, the tasks, the samples per task, what was left
        out (``k=2; 5 tasks of 2-3 samples; 1 task with fewer left out``)."""
        if not self.pass_at_k:
            return self.why_no_pass_k()
        kmax = max(self.pass_at_k)
        per = (f"{self.k_samples_min}" if self.k_samples_min == self.k_samples_max
               else f"{self.k_samples_min}-{self.k_samples_max}")
        words = [f"k={kmax}", f"{self.k_tasks} task{'s' if self.k_tasks != 1 else ''} of "
                 f"{per} sample{'s' if per != '1' else ''}"]
        if self.k_excluded:
            words.append(f"{self.k_excluded} task{'s' if self.k_excluded != 1 else ''} with "
                         "fewer left out")
        if self.unsampled:
            words.append(f"{self.unsampled} spec{'s' if self.unsampled != 1 else ''} without "
                         "a sample index left out")
        return "; ".join(words)

    def grouped_short(self) -> str:
        """``grouped`` for a table cell: ``k=2, 5 tasks x 2-3 samples, 1 task left out``."""
        if not self.pass_at_k:
            return ""
        per = (f"{self.k_samples_min}" if self.k_samples_min == self.k_samples_max
               else f"{self.k_samples_min}-{self.k_samples_max}")
        words = [f"k={max(self.pass_at_k)}", f"{self.k_tasks} tasks x {per} samples"]
        if self.k_excluded:
            words.append(f"{self.k_excluded} task{'s' if self.k_excluded != 1 else ''} "
                         "left out")
        if self.unsampled:
            words.append(f"{self.unsampled} unsampled spec{'s' if self.unsampled != 1 else ''}"
                         " left out")
        return ", ".join(words)

    def why_no_pass_k(self) -> str:
        """Why there is no pass@k figure (an empty string when there is one)."""
        if self.pass_at_k:
            return ""
        if self.unsampled == self.specs:
            return "no pass@k: no spec carries a writer's sample index"
        return "no pass@k: too few samples per task"


KS = (1, 2, 3, 5, 10, 20, 50, 100)
"""The ks pass@k and pass^k are computed at (those the samples reach: ``pass_k_range``)."""


def summarize(
    results: Sequence[tuple[str, bool, dict[Bucket, BucketStats] | None]],
    ks: Sequence[int] = KS,
    strict: bool = True,
    sampled: Sequence[bool] | None = None,
) -> SampleSummary:
    """``results``: (task id, passed_all, stats or None when invalid) per spec.

    ``sampled``: whether each result is a writer's sample (its record carries a sample index);
    None: all are. pass@k and pass^k count samples only: the gold and flawed specs of a folder
    are not k draws of one approach, and Pass@1 and the bucket means still count every spec.

    pass@k and pass^k are averaged over one set of tasks at every k: those with at least
    ``k_max`` samples, ``k_max`` being the largest of ``ks`` that at least half of the tasks
    reach. Averaging each k over the tasks that reach it mixes task sets, and the curve then
    falls where hard tasks with many samples join (pass@2 0.914 > pass@3 0.867); over one set,
    pass@k cannot fall as k grows and pass^k cannot rise. Tasks left out are counted.
    """
    if sampled is not None and len(sampled) != len(results):
        raise ValueError("sampled must say, for each result, whether it is a sample")
    flags = list(sampled) if sampled is not None else [True] * len(results)
    per_task: dict[str, list[bool]] = {}
    drawn: dict[str, list[bool]] = {}
    for (tid, ok, _), is_sample in zip(results, flags, strict=True):
        per_task.setdefault(tid, []).append(ok)
        if is_sample:
            drawn.setdefault(tid, []).append(ok)
    shown = pass_k_range(ks, [len(v) for v in drawn.values()])
    eligible = ([(len(v), sum(v)) for v in drawn.values() if len(v) >= max(shown)]
                if shown else [])
    pk: dict[int, float] = {}
    phk: dict[int, float] = {}
    for k in shown:
        pk[k] = sum(pass_at_k(n, c, k) for n, c in eligible) / len(eligible)
        phk[k] = sum(pass_hat_k(n, c, k) for n, c in eligible) / len(eligible)
    p1 = (sum(pass_at_k(len(v), sum(v), 1) for v in per_task.values()) / len(per_task)
          if per_task else None)
    means: dict[str, float | None] = {}
    for b in BUCKETS:
        fr = [f for _, _, st in results if st is not None
              for f in [st[b].fraction(strict)] if f is not None]
        means[b.value] = sum(fr) / len(fr) if fr else None
    sizes = [n for n, _ in eligible]
    return SampleSummary(specs=len(results), tasks=len(per_task), pass_at_1=p1, pass_at_k=pk,
                         pass_hat_k=phk, k_tasks=len(eligible),
                         k_excluded=len(drawn) - len(eligible),
                         k_samples_min=min(sizes, default=0), k_samples_max=max(sizes, default=0),
                         unsampled=flags.count(False), bucket_means=means,
                         invalid=sum(1 for _, _, st in results if st is None))


def pass_k_range(ks: Sequence[int], samples: Sequence[int]) -> list[int]:
    """The ks a pass@k curve shows, given each task's sample count: those up to the largest k
    that at least half of the tasks reach (a k only one task reaches would be that task's
    curve, not the approach's)."""
    if not samples:
        return []
    reach = [k for k in sorted(set(ks)) if k >= 1
             and 2 * sum(1 for n in samples if n >= k) >= len(samples)]
    return reach
