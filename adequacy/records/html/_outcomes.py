"""The outcome categories every spec falls in exactly one of (docs/report.md).

Order matters: a spec that rejects a valid case *and* accepts a wrong one is first of all
too strong (it would refuse correct code), so completeness failures win over soundness ones.
"""

from __future__ import annotations

from enum import StrEnum

from adequacy.model.verdicts import Bucket
from adequacy.scoring.spec_report import SpecReport


class SpecOutcome(StrEnum):
    passed = "passed"
    failed_completeness = "failed on completeness"
    failed_soundness = "failed on soundness"
    invalid = "invalid"
    writer_failed = "writer failed"
    unknown_dominated = "unknown-dominated"
    error = "error"


OUTCOME_HELP = {
    SpecOutcome.passed: "every case of every bucket passed",
    SpecOutcome.failed_completeness: "rejected some valid input or correct output (too strong)",
    SpecOutcome.failed_soundness: "accepted some invalid input or wrong output, and no valid one "
                              "was rejected (too weak)",
    SpecOutcome.invalid: "the front end rejected the spec (syntax, types, policy)",
    SpecOutcome.writer_failed: "the spec writer (a model) produced no spec",
    SpecOutcome.unknown_dominated: "no case decided wrongly, but unknown verdicts or empty buckets "
                               "kept it from passing",
    SpecOutcome.error: "our failure, not the spec's (an engine crashed, a task could not be read)",
}

_COMPLETE = (Bucket.pre_complete, Bucket.post_complete)
_SOUND = (Bucket.pre_sound, Bucket.post_sound)


def outcome(rep: SpecReport) -> SpecOutcome:
    if rep.status == "invalid":
        return SpecOutcome.invalid
    if rep.status == "writer failed":
        return SpecOutcome.writer_failed
    if rep.status == "error":
        return SpecOutcome.error
    if rep.passed_all:
        return SpecOutcome.passed
    if any(rep.buckets[b].failed for b in _COMPLETE if b in rep.buckets):
        return SpecOutcome.failed_completeness
    if any(rep.buckets[b].failed for b in _SOUND if b in rep.buckets):
        return SpecOutcome.failed_soundness
    return SpecOutcome.unknown_dominated
