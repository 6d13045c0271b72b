"""Buckets, cases' expectations and three-valued verdicts (docs/tasks.md, "Cases")."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field


class Bucket(StrEnum):
    """The four buckets; docs/tasks.md ("Cases") gives the two papers' names of each, and the
    metric that is each bucket's pass fraction carries them (``adequacy.model.metrics``)."""

    pre_complete = "pre_complete"
    pre_sound = "pre_sound"
    post_complete = "post_complete"
    post_sound = "post_sound"

    @property
    def predicate(self) -> str:
        """Which predicate the bucket's cases test: ``"pre"`` or ``"post"``."""
        return "pre" if self.value.startswith("pre") else "post"

    @property
    def expects(self) -> bool:
        """The predicate value a faithful spec gives: accept (true) or reject (false)."""
        return self.value.endswith("complete")


BUCKETS: tuple[Bucket, ...] = tuple(Bucket)


class Truth(StrEnum):
    """The value of a predicate on one case."""

    true = "true"
    false = "false"
    unknown = "unknown"

    @classmethod
    def of(cls, b: bool) -> Truth:
        return cls.true if b else cls.false


class Verdict(BaseModel):
    """What one engine decided for one case."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    case_id: str
    """The case's id within its bucket."""
    bucket: Bucket
    value: Truth
    """The predicate's value on the case (not whether the case passed)."""
    engine: str
    """The engine that decided (or, for unknown, the last engine that tried)."""
    reason: str = ""
    """Short why: 'symbolic', 'executed', 'panic: index out of bounds', 'timeout after 2s', ..."""
    seconds: float = 0.0
    cached: bool = False

    @property
    def passed(self) -> bool:
        """Passed means decided and equal to the bucket's expectation."""
        return self.value != Truth.unknown and (self.value == Truth.true) == self.bucket.expects

    @property
    def decided(self) -> bool:
        return self.value != Truth.unknown


class InvalidSpec(BaseModel):
    """A whole spec that could not be used: parse, type or compile error, or a rule broken."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    message: str
    file: str | None = None
    line: int | None = None
    engine: str | None = Field(default=None, description="None: the backend's front end")

    def render(self) -> str:
        where = ""
        if self.file:
            where = self.file + (f":{self.line}" if self.line else "") + ": "
        return where + self.message
