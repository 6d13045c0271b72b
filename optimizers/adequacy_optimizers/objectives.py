"""The optimizer's objectives: what ``optimize --metric NAME`` climbs, for one written spec of
one training task, as a score in [0, 1] and feedback (docs/optimize.md).

- ``adequacy`` (default): mean of the four bucket pass fractions (strict: unknown fails; empty
  buckets excluded; invalid spec 0.0). Options: ``all4`` (1.0 only when every case passes),
  ``post`` (PostHarness@t: 1.0 when both post fractions are >= t).
- ``vr``: the study's graduated verifier score: 1.0 verified, 0.3 one open goal, 0.1 two or
  more (or a failed proof without a count), 0.0 invalid or no spec.
- ``verified_adequacy``: adequacy when the spec also verifies against the method body, else
  0.0; feedback carries both signals.

They register through ``adequacy_objectives`` (``adequacy_optimizers.plugin``) like a plugin's;
this module needs no DSPy.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from adequacy.errors import LenientReward
from adequacy.extensions.backend import Limits
from adequacy.extensions.objectives import Evaluation, Objective
from adequacy.extensions.registry import registry
from adequacy.model.task import Task
from adequacy.model.thresholds import HARNESS_T
from adequacy.model.verdicts import Truth
from adequacy.scoring.cache import VerdictCache
from adequacy.scoring.runner import score_spec
from adequacy.scoring.spec_report import SpecReport

from .verifier import Proof, prove

Option = Literal["mean", "all4", "post"]


class ObjectiveSettings(BaseModel):
    """What the optimizer passes every objective: how to score and what to tell."""

    model_config = ConfigDict(extra="forbid", arbitrary_types_allowed=True)

    option: Option = "mean"
    harness_t: float = HARNESS_T
    max_cases: int = 3
    """Failing cases named in feedback."""
    engines: Sequence[str] | None = None
    cache: VerdictCache | None = None
    limits: Limits
    strict: bool = True
    allow_lenient: bool = False


LENIENT_UNSAFE = ("lenient scoring leaves unknown cases out, so an unknown is worth more than a "
                  "false and a spec can choose where it is unknown (an uninterpreted function "
                  "on the failing branch passes everything): as a reward it pays for "
                  "undecidable specs, not better ones")
"""Why lenient scoring is never an optimization target by default (its help and errors)."""


def _short(value: Any, limit: int = 160) -> str:
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text if len(text) <= limit else text[:limit] + "..."


def adequacy_score(rep: SpecReport, option: Option = "mean", harness_t: float = HARNESS_T,
                   allow_lenient: bool = False) -> float:
    """The number a report is worth under one option (0.0 unless scored). A report scored
    leniently is refused (``LenientReward``) unless ``allow_lenient``."""
    if not rep.strict and not allow_lenient:
        raise LenientReward(f"a leniently scored report as a reward: refused ({LENIENT_UNSAFE})")
    if rep.status != "scored" or rep.metrics is None:
        return 0.0
    if option == "all4":
        return 1.0 if rep.passed_all else 0.0
    if option == "post":
        return 1.0 if rep.metrics.post_harness_at(harness_t) else 0.0
    return rep.metrics.mean() or 0.0


def vr_score(proof: Proof) -> float:
    if proof.result == "verified":
        return 1.0
    if proof.result == "not verified":
        return 0.3 if proof.open_goals == 1 else 0.1
    if proof.result == "unknown":
        return 0.1
    return 0.0


def report_feedback(rep: SpecReport, task: Task, max_cases: int = 3) -> str:
    """Failing buckets and up to ``max_cases`` failing cases of ``task`` (the report's task)."""
    if rep.status == "invalid" and rep.invalid is not None:
        where = f" (line {rep.invalid.line})" if rep.invalid.line else ""
        return f"The spec is invalid{where}: {rep.invalid.message}"
    if rep.status == "error":
        return f"Scoring failed (not the spec's fault): {(rep.error or '').splitlines()[0]}"
    by_id = {(c.bucket, c.id): c for c in task.all_cases()}
    lines: list[str] = []
    failing = [b for b, s in rep.buckets.items() if s.total and s.passed < s.total]
    if not failing:
        return f"All {sum(s.total for s in rep.buckets.values())} cases pass."
    for b in failing:
        s = rep.buckets[b]
        lines.append(f"{b.value} ({registry().metric_of(b).label}): {s.passed}/{s.total} pass"
                     + (f", {s.unknown} undecided" if s.unknown else ""))
    shown = 0
    for v in rep.verdicts:
        if v.passed or shown >= max_cases:
            continue
        c = by_id.get((v.bucket, v.case_id))
        if c is None:
            continue
        shown += 1
        pred = "the precondition" if v.bucket.predicate == "pre" else "the postcondition"
        want = "accept" if v.bucket.expects else "reject"
        got = {Truth.true: "accepted", Truth.false: "rejected",
               Truth.unknown: "could not be decided"}[v.value]
        io = f"input {_short(c.input)}" + (f", output {_short(c.output)}" if c.output else "")
        lines.append(f"- {io}: {pred} should {want} but {got}"
                     + (f" ({v.reason})" if v.reason and v.value == Truth.unknown else ""))
    return "\n".join(lines)


def _adequacy(task: Task, text: str, s: ObjectiveSettings) -> Evaluation:
    rep = score_spec(task, text, engines=s.engines, cache=s.cache, limits=s.limits,
                     strict=s.strict)
    return (adequacy_score(rep, s.option, s.harness_t, s.allow_lenient),
            report_feedback(rep, task, s.max_cases), rep)


def _vr(task: Task, text: str, s: ObjectiveSettings) -> Evaluation:
    proof = prove(task, text, s.limits)
    return vr_score(proof), f"Verifier ({proof.engine}): {proof.result}. {proof.summary}", None


def _verified_adequacy(task: Task, text: str, s: ObjectiveSettings) -> Evaluation:
    score, feedback, rep = _adequacy(task, text, s)
    proof = prove(task, text, s.limits)
    verified = proof.result == "verified"
    feedback = (f"Adequacy {score:.2f}; verification against the method body: "
                f"{proof.result} ({proof.summary}). Counted only when verified.\n" + feedback)
    return (score if verified else 0.0), feedback, rep


BUILTIN_OBJECTIVES: list[Objective] = [
    Objective(name="adequacy", evaluate=_adequacy,
              description="mean of the four bucket pass fractions (option all4: 1.0 only when "
                          "every case passes; post: PostHarness@t)"),
    Objective(name="vr", evaluate=_vr, needs_prover=True,
              description="graduated verifier score: 1.0 verified, 0.3 one open goal, 0.1 more"),
    Objective(name="verified_adequacy", evaluate=_verified_adequacy, needs_prover=True,
              description="adequacy when the spec also verifies against the method body, "
                          "else 0.0"),
]
