"""How a spec is scored: the one model of the run options every entry point shares.

``score_spec``, ``job_key``, batch options, ``adequacy score`` and ``adequacy run`` used to
declare engines, cross-check, strictness and limits each on their own, and one that forgot a
field scored or resumed with another value than the user gave. They now all take a
``ScoreOptions``; a report records it (``SpecReport.strict`` plus ``RunOptions``: the record's
JSON shape predates this model and is kept, so results logs need no new schema).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from adequacy.extensions.backend import Limits


class EngineOptions(BaseModel):
    """What chooses and bounds the engines (shared by ``ScoreOptions`` and the recorded
    ``RunOptions``, so a field added here is both taken and recorded)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    backend: str | None = None
    """Backend name (default: the language's main backend)."""
    engines: list[str] = Field(default=[], json_schema_extra={"cli": "--engine -e",
                                                              "metavar": "ENGINE"})
    """Engines asked for by name, chained in order (empty: the language's default chain)."""
    cross_check: bool = False
    """Every available engine on every case; disagreements reported."""
    limits: Limits = Field(default_factory=Limits)


class ScoreOptions(EngineOptions):
    """Everything that changes a spec's verdicts or scores; part of every job's key."""

    strict: bool = Field(default=True, json_schema_extra={"cli": "--strict/--lenient"})
    """Strict: ``unknown`` counts as failed; lenient: left out of the metrics."""

    def with_(self, **changes: Any) -> ScoreOptions:
        """A copy with some fields changed, validated (``model_copy`` does not validate, and a
        caller's ``engines=None`` or a dict of limits must not slip into a key)."""
        if "engines" in changes and changes["engines"] is None:
            changes["engines"] = []  # the old keyword's "no engines named"
        if "limits" in changes and changes["limits"] is None:
            del changes["limits"]  # the old keyword's "the default limits"
        return ScoreOptions.model_validate({**self.model_dump(), **changes})

    def recorded(self, cases: Literal["all", "given"] = "all") -> RunOptions:
        """The options as a report records them (strictness is ``SpecReport.strict``)."""
        return RunOptions(backend=self.backend, engines=list(self.engines),
                          cross_check=self.cross_check, limits=self.limits, cases=cases)


class RunOptions(EngineOptions):
    """How the spec was scored, as a report records it: a report read back months later says
    which engines and limits produced its numbers (strict or lenient is ``SpecReport.strict``)."""

    model_config = ConfigDict(extra="forbid")

    cases: Literal["all", "given"] = "all"
    """``given``: a subset chosen by the caller (e.g. only the visible cases)."""


def score_options(options: ScoreOptions | None = None, **changes: Any) -> ScoreOptions:
    """``options`` (or the defaults) with keyword changes: the one place the old keyword
    arguments of ``score_spec`` (``engines=``, ``strict=``...) become a ``ScoreOptions``."""
    base = options or ScoreOptions()
    return base.with_(**changes) if changes else base
