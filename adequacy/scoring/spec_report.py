"""The report of one scored spec: verdicts, per-bucket counts, metrics, the run's options.

What ``score --json`` prints and what every results record carries (``records.log`` wraps it in
an envelope). ``Provenance`` says who wrote the spec, so it travels with the job from a writer's
jobs file to the record.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from adequacy.extensions.component import Component
from adequacy.model.metrics import (
    BucketStats,
    HarnessMetrics,
    bucket_stats,
    harness_metrics,
    passed_all,
)
from adequacy.model.symbolic_figures import SymbolicFigures
from adequacy.model.verdicts import BUCKETS, Bucket, InvalidSpec, Truth, Verdict
from adequacy.scoring.options import RunOptions


class EngineDisagreement(BaseModel):
    """Two engines decided the same case differently: a defect in one of them."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    case_id: str
    bucket: Bucket
    values: dict[str, Truth]
    """Engine name -> its decided value."""
    reasons: dict[str, str] = {}


class EngineRun(BaseModel):
    """What one engine did for this spec."""

    model_config = ConfigDict(extra="forbid")

    name: str
    version: str = ""
    backend: str = ""
    cases: int = 0
    decided: int = 0
    cached: int = 0
    seconds: float = 0.0
    skipped: str = ""
    """Why the engine did not run (unavailable, not needed)."""


class ProgramKills(BaseModel):
    """The spec against the task's wrong programs (nl2postcond's bug-completeness): of the
    program mutants named by the task's post_sound cases (``Case.made_by``, made by
    ``adequacy mutate --programs``), how many the spec rejects on some input, i.e. rejects
    at least one of the wrong outputs recorded for it."""

    model_config = ConfigDict(extra="forbid")

    mutants: int
    killed: int
    survivors: list[str] = []
    """The mutants the spec accepts on every recorded wrong output (``operator@file:line``),
    at most ``SURVIVORS_SHOWN``."""

    @model_validator(mode="after")
    def _consistent(self) -> ProgramKills:
        if not 0 <= self.killed <= self.mutants:
            raise ValueError("program mutants killed must be between 0 and the mutants")
        if len(self.survivors) > min(self.mutants - self.killed, SURVIVORS_SHOWN):
            raise ValueError("more program-mutant survivors named than survived")
        return self

    @property
    def ratio(self) -> float | None:
        return self.killed / self.mutants if self.mutants else None


SURVIVORS_SHOWN = 20


class SpecReport(BaseModel):
    """Everything about one (task, spec) pair; one JSON line in a results file."""

    model_config = ConfigDict(extra="forbid")

    key: str
    """Identity of the job (task content, spec text, engines, options): resume skips done keys."""
    task_id: str
    task_path: str
    spec_path: str | None
    spec_sha: str
    language: str
    status: Literal["scored", "invalid", "error", "writer failed"]
    """``writer failed``: the spec writer (a model) produced no spec, ``error`` says why; a
    failure like any unpassed spec, but not an invalid spec."""
    invalid: InvalidSpec | None = None
    error: str | None = None
    """A failure of ours (not the spec's), e.g. an engine crashing; the batch went on. For
    ``writer failed``: why the writer produced no spec."""
    strict: bool = True
    engines: list[EngineRun] = []
    verdicts: list[Verdict] = []
    disagreements: list[EngineDisagreement] = []
    buckets: dict[Bucket, BucketStats] = Field(default_factory=dict)
    metrics: HarnessMetrics | None = None
    passed_all: bool = False
    seconds: float = 0.0
    empty_by_design: list[Bucket] = []
    """Buckets the task declares empty (``every_input_valid``: no ``pre_sound`` cases)."""
    options: RunOptions | None = None
    origins: dict[str, int] = Field(default_factory=dict)
    """Case origin (``official``, ``generated``, ``mutant``...) -> cases with a verdict in
    this score: what the score rests on. Empty in records written before it existed."""
    symbolic: SymbolicFigures | None = None
    """The solver's figures beside the buckets (``score --symbolic``, ``run --symbolic``):
    whether the postcondition determines the output, whether the precondition accepts an
    input the gold spec refuses. None where not measured."""
    program_mutants: ProgramKills | None = None
    """The program-mutant kill ratio beside the buckets; None when no scored case names a
    program mutant (or in records written before it existed)."""

    @model_validator(mode="after")
    def _consistent(self) -> SpecReport:
        """Refuse a report whose derived figures do not follow from its counts.

        Reports are read back from files anyone can edit (an optimizer that wants a score
        included): ``passed_all`` and the metrics are what summaries add up, so they must be
        exactly what ``finish`` computes from the buckets, and the buckets what the verdicts
        say. Checked at every construction, so every reader refuses the same records."""
        stats = self.buckets
        design = set(self.empty_by_design) - {Bucket.pre_sound, Bucket.post_sound}
        if design:
            raise ValueError("empty_by_design may name only sound buckets (a complete bucket "
                             f"is never empty by design), got {sorted(design)}")
        if stats and set(stats) != set(BUCKETS):
            raise ValueError("buckets must give the counts of all four buckets")
        if len({(v.bucket, v.case_id) for v in self.verdicts}) != len(self.verdicts):
            raise ValueError("a case has more than one verdict (one final verdict per case)")
        if self.verdicts and stats and bucket_stats(self.verdicts) != stats:
            raise ValueError("bucket counts do not match the verdicts")
        if self.origins and (any(n < 0 for n in self.origins.values()) or (
                stats and sum(self.origins.values()) != sum(s.total for s in stats.values()))):
            raise ValueError("origins must count the scored cases (their sum is the number of "
                             "cases with a verdict)")
        if self.status != "scored":
            if self.verdicts or any(s.total for s in stats.values()):
                raise ValueError(f"a {self.status} report has no verdicts or case counts")
            if self.passed_all or self.metrics is not None:
                raise ValueError(f"a {self.status} report has no pass or metrics")
            if self.symbolic is not None:
                raise ValueError(f"a {self.status} report has no symbolic figures")
            return self
        if not stats:  # not finished yet (score_spec builds, then fills)
            if self.passed_all or self.metrics is not None:
                raise ValueError("pass or metrics without bucket counts")
            return self
        if self.passed_all != passed_all(stats, self.strict, self.empty_by_design):
            raise ValueError(f"passed_all is {str(self.passed_all).lower()} but the bucket "
                             "counts say otherwise")
        if self.metrics != harness_metrics(stats, self.strict):
            raise ValueError("metrics do not follow from the bucket counts")
        return self

    @classmethod
    def failure(cls, key: str, message: str, *, task_path: str, spec_path: str | None,
                task_id: str = "?", language: str = "?", spec_sha: str = "") -> SpecReport:
        """A pair we could not score through no fault of the spec (missing task, unreadable
        file, a crashed worker): an ``error`` report, so the batch goes on and resume retries."""
        return cls(key=key, task_id=task_id, task_path=task_path, spec_path=spec_path,
                   spec_sha=spec_sha, language=language, status="error",
                   error=message).finish()

    def finish(self) -> SpecReport:
        """Fill the derived scores from the verdicts."""
        stats = bucket_stats(self.verdicts)
        self.buckets = stats
        if self.status == "scored":
            self.metrics = harness_metrics(stats, self.strict)
            self.passed_all = passed_all(stats, self.strict, self.empty_by_design)
        else:
            self.metrics = None
            self.passed_all = False
        return self

    @property
    def exit_code(self) -> int:
        """CLI convention: 0 passed all, 1 failed some case, 3 invalid spec, 2 our error."""
        if self.status == "invalid":
            return 3
        if self.status == "error":
            return 2
        return 0 if self.passed_all else 1


class BatchTotals(BaseModel):
    """Counts over one list of reports: the single source of every batch total we print, so
    the summary line and the footer cannot disagree."""

    specs: int = 0
    scored: int = 0
    passed_all: int = 0
    failed: int = 0
    """Scored but some case not passed."""
    invalid: int = 0
    """The spec's fault (front end or an engine rejected it)."""
    errors: int = 0
    """Our fault (missing task, crashed engine): neither a pass nor the spec's failure."""
    writer_failed: int = 0
    """The writer produced no spec: counted against the writer, never as invalid."""

    def line(self) -> str:
        wf = f", writer failed {self.writer_failed}" if self.writer_failed else ""
        return (f"specs {self.specs}: passed {self.passed_all}, failed {self.failed}, "
                f"invalid {self.invalid}{wf}, errors {self.errors}")


def totals(reports: Sequence[SpecReport]) -> BatchTotals:
    t = BatchTotals(specs=len(reports))
    for r in reports:
        if r.status == "scored":
            t.scored += 1
            if r.passed_all:
                t.passed_all += 1
            else:
                t.failed += 1
        elif r.status == "invalid":
            t.invalid += 1
        elif r.status == "writer failed":
            t.writer_failed += 1
        else:
            t.errors += 1
    return t


class Provenance(BaseModel):
    """Who wrote the spec: carried from ``synthesize``'s jobs file into every record ``run``
    writes, so ``report --by model`` can tell two models' specs apart. The flat fields are
    what reports group by; ``made_by`` is the whole of it."""

    model_config = ConfigDict(extra="forbid")

    writer: str | None = None
    """The writer kind: ``templates``, ``houdini``, ``dspy``, ``agent``, a person..."""
    model: str | None = None
    """The language model (a litellm model string), where one wrote the spec."""
    family: str | None = None
    """The prompt family (``zs``, ``fs-cot``, ...)."""
    program: str | None = None
    """SHA-256 of the optimized program file the writer ran, where it ran one."""
    sample: int | None = Field(default=None, ge=0)
    """Which of the writer's samples for the task this spec is (0, 1, ...): what pass@k and
    pass^k group, and part of the job's key, so two samples with the same text are two
    records. None: not a sample (a hand-written spec, a file of a folder)."""
    made_by: Component | None = None
    """The writer (or agent) as the registry knows it: kind, name, the parameters that shaped
    the spec (family, model, temperature, samples, program...) and its distribution's version;
    None where no registered extension wrote the spec (a file of a folder, a person)."""
