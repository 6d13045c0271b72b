"""The report of one scored spec: the model written to results files and printed by ``--json``."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

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
    status: Literal["scored", "invalid", "error"]
    invalid: InvalidSpec | None = None
    error: str | None = None
    """A failure of ours (not the spec's), e.g. an engine crashing; the batch went on."""
    strict: bool = True
    engines: list[EngineRun] = []
    verdicts: list[Verdict] = []
    disagreements: list[Disagreement] = []
    buckets: dict[Bucket, BucketStats] = Field(default_factory=dict)
    metrics: HarnessMetrics | None = None
    passed_all: bool = False
    seconds: float = 0.0

    def finish(self) -> SpecReport:
        """Fill the derived scores from the verdicts."""
        stats = bucket_stats(self.verdicts)
        self.buckets = stats
        if self.status == "scored":
            self.metrics = harness_metrics(stats, self.strict)
            self.passed_all = passed_all(stats, self.strict)
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
