"""The report of one scored spec: the model written to results files and printed by ``--json``."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from adequacy.backend import Limits
from adequacy.metrics import BucketStats, HarnessMetrics, bucket_stats, harness_metrics, passed_all
from adequacy.verdicts import Bucket, InvalidSpec, Truth, Verdict


class Disagreement(BaseModel):
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


class RunOptions(BaseModel):
    """How the spec was scored: a report read back months later says which engines and limits
    produced its numbers (strict or lenient scoring is ``SpecReport.strict``)."""

    model_config = ConfigDict(extra="forbid")

    backend: str | None = None
    engines: list[str] = []
    """Engines asked for by name (empty: the language's default chain)."""
    cross_check: bool = False
    limits: Limits = Field(default_factory=Limits)
    cases: Literal["all", "given"] = "all"
    """``given``: a subset chosen by the caller (e.g. only the visible cases)."""


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
    disagreements: list[Disagreement] = []
    buckets: dict[Bucket, BucketStats] = Field(default_factory=dict)
    metrics: HarnessMetrics | None = None
    passed_all: bool = False
    seconds: float = 0.0
    empty_by_design: list[Bucket] = []
    """Buckets the task declares empty (``every_input_valid``: no ``pre_sound`` cases)."""
    options: RunOptions | None = None

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


def read_log(path: Path) -> dict[str, SpecReport]:
    """The latest record of every key in a results log (later lines win); a torn or foreign
    line is skipped. A results file is an append-only log: a key may appear many times (a
    retried error, a rescored spec), and only its newest record is its report."""
    latest: dict[str, SpecReport] = {}
    if not path.exists():
        return latest
    with path.open("r", encoding="utf-8", errors="replace") as f:
        for line in f:
            if not line.strip():
                continue
            try:
                rep = SpecReport.model_validate_json(line)
            except (ValidationError, ValueError):
                continue
            latest.pop(rep.key, None)  # keep insertion order = order of the newest record
            latest[rep.key] = rep
    return latest
