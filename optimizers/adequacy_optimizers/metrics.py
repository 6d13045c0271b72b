"""GEPA-style metrics: ``(gold, pred, trace, pred_name, pred_trace) -> dspy.Prediction(score,
feedback)``, scoring a written spec on a *training* task's cases with the real engines.

A metric is built for one set of training tasks. Asked about any other task it raises
``HeldOutTask``: validation and test tasks are never scored inside the optimizer's loop, so no
case of theirs can reach feedback (docs/optimize.md). Feedback names the failing buckets and up
to ``max_cases`` failing cases (input, output, what the spec said, the engine's reason), or the
spec's compile or parse error with its line, or the prover's summary.

Kinds:
- ``adequacy`` (default): mean of the four bucket pass fractions (strict: unknown fails; empty
  buckets excluded; invalid spec 0.0). Options: ``all4`` (1.0 only when every case passes),
  ``post`` (PostHarness@t: 1.0 when both post fractions are >= t).
- ``vr``: the study's graduated verifier score: 1.0 verified, 0.3 one open goal, 0.1 two or
  more (or a failed proof without a count), 0.0 invalid or no spec.
- ``verified_adequacy``: adequacy when the spec also verifies against the method body, else
  0.0; feedback carries both signals.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any, Literal

import dspy

from adequacy.errors import AdequacyError, HeldOutTask, LenientReward, MetricUnavailable
from adequacy.extensions.backend import Limits
from adequacy.model.task import Task
from adequacy.model.thresholds import HARNESS_T
from adequacy.model.verdicts import Truth
from adequacy.scoring.cache import VerdictCache
from adequacy.scoring.runner import score_spec
from adequacy.scoring.spec_report import SpecReport

from .extract import ExtractionError, spec_from_answer
from .verifier import Proof, prove, prover_for, why_no_prover

Kind = Literal["adequacy", "vr", "verified_adequacy"]
Option = Literal["mean", "all4", "post"]
KINDS: tuple[str, ...] = ("adequacy", "vr", "verified_adequacy")


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
    vals = [v for v in (rep.metrics.post_corr, rep.metrics.post_comp, rep.metrics.pre_corr,
                        rep.metrics.pre_comp) if v is not None]
    return sum(vals) / len(vals) if vals else 0.0


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
        lines.append(f"{b.value} ({b.harness_name}): {s.passed}/{s.total} pass"
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


class SpecMetric:
    """Callable GEPA metric over a fixed set of training tasks."""

    def __init__(self, tasks: Iterable[Task], kind: Kind = "adequacy", option: Option = "mean",
                 harness_t: float = HARNESS_T, max_cases: int = 3, engines: Sequence[str] | None = None,
                 cache: VerdictCache | None = None, limits: Limits | None = None,
                 language: str | None = None, strict: bool = True,
                 allow_lenient: bool = False) -> None:
        if not strict and not allow_lenient:
            raise LenientReward(f"a GEPA metric with lenient scoring: refused ({LENIENT_UNSAFE}"
                                "); pass allow_lenient=True to mean it")
        if kind not in KINDS:
            raise AdequacyError(f"kind={kind!r}: expected one of {', '.join(KINDS)}")
        if option not in ("mean", "all4", "post"):
            raise AdequacyError(f"option={option!r}: expected mean, all4 or post")
        self.tasks = {t.id: t for t in tasks}
        self.kind, self.option, self.harness_t = kind, option, harness_t
        self.max_cases, self.engines, self.cache = max_cases, engines, cache
        self.strict, self.allow_lenient = strict, allow_lenient
        self.limits = limits or Limits(case_seconds=5.0, spec_seconds=60.0)
        if kind in ("vr", "verified_adequacy"):
            langs = {language} if language else {t.language for t in self.tasks.values()}
            for lang in langs:
                if prover_for(lang) is None:
                    raise MetricUnavailable(f"metric {kind}: {why_no_prover(lang)}")

    def task(self, task_id: str) -> Task:
        if task_id not in self.tasks:
            raise HeldOutTask(f"task {task_id!r} is not in this metric's training split")
        return self.tasks[task_id]

    def spec_text(self, task: Task, pred: Any) -> str:
        """The spec file from a prediction (``spec_text`` as is, else ``spec`` extracted)."""
        text = getattr(pred, "spec_text", None)
        if isinstance(text, str) and text.strip():
            return text
        return spec_from_answer(task, str(getattr(pred, "spec", "") or ""))

    def evaluate(self, task: Task, text: str) -> tuple[float, str, SpecReport | None]:
        if self.kind == "vr":
            proof = prove(task, text, self.limits)
            return vr_score(proof), f"Verifier ({proof.engine}): {proof.result}. " \
                f"{proof.summary}", None
        rep = score_spec(task, text, engines=self.engines, cache=self.cache, limits=self.limits,
                         strict=self.strict)
        score = adequacy_score(rep, self.option, self.harness_t, self.allow_lenient)
        feedback = report_feedback(rep, task, self.max_cases)
        if self.kind == "verified_adequacy":
            proof = prove(task, text, self.limits)
            verified = proof.result == "verified"
            feedback = (f"Adequacy {score:.2f}; verification against the method body: "
                        f"{proof.result} ({proof.summary}). Counted only when verified.\n"
                        + feedback)
            score = score if verified else 0.0
        return score, feedback, rep

    def __call__(self, gold: Any, pred: Any, trace: Any = None, pred_name: str | None = None,
                 pred_trace: Any = None) -> dspy.Prediction:
        task = self.task(str(gold.task_id))
        try:
            text = self.spec_text(task, pred)
        except ExtractionError as e:
            return dspy.Prediction(score=0.0, feedback=f"No spec could be read from the answer: "
                                   f"{e}")
        score, feedback, _ = self.evaluate(task, text)
        return dspy.Prediction(score=score, feedback=feedback)


