"""LLM-as-judge: ask a model whether a spec is faithful to the statement, and compare with the
evaluator's verdict on the same spec.

The evaluator "rejects" a spec that is invalid or fails any case of its task (strict: an
undecided case counts as failed), and "accepts" one that passes every case. The judge's
**miss rate** is the share of evaluator-rejected specs the judge called faithful (Verus-SpecGym
measured 26% for its judge); its **false-alarm rate** is the share of evaluator-accepted specs
it called unfaithful. A judge answer that cannot be read is counted apart, never guessed; so is a
spec the evaluator could not score (status ``error``: a fault of ours or of the task, not of the
spec), which is neither an accept nor a reject and so enters neither rate.

The judge writes its reasoning before its verdict (the signature's output fields are in that
order, and the chat adapter asks for them in order): a verdict written first cannot use it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import dspy
from pydantic import BaseModel

from adequacy.extensions.writers import Usage
from adequacy.model.task import Task
from adequacy.scoring.runner import score_spec

from .lm import usage_of


class JudgeSpec(dspy.Signature):
    """You review formal specifications. Decide whether the specification says exactly what
    the statement says: its precondition accepts every input the statement allows and rejects
    the others, and its postcondition accepts every correct output and rejects every wrong
    one. Answer faithful = true only if both hold."""

    statement: str = dspy.InputField(desc="what the function should do, in prose")
    spec: str = dspy.InputField(desc="the specification, in the task's spec language")
    reason: str = dspy.OutputField(
        desc="think it through first: compare the precondition with the inputs the statement "
             "allows and the postcondition with the outputs it allows")
    faithful: bool = dspy.OutputField()


class JudgeRecord(BaseModel):
    task_id: str
    spec_path: str
    evaluator: Literal["accept", "reject", "error"]
    """``error``: the evaluator could not score the spec (not a reject)."""
    evaluator_status: str
    judge: Literal["accept", "reject", "unreadable"]
    reason: str = ""
    usage: Usage = Usage()


class JudgeSummary(BaseModel):
    specs: int
    evaluator_rejects: int
    evaluator_accepts: int
    misses: int
    """Judge accepted, evaluator rejected."""
    false_alarms: int
    """Judge rejected, evaluator accepted."""
    unreadable: int
    evaluator_errors: int = 0
    """Specs the evaluator could not score: in neither rate."""
    miss_rate: float | None
    false_alarm_rate: float | None
    usage: Usage


def judge_one(task: Task, spec_text: str, spec_path: str, lm: Any) -> JudgeRecord:
    rep = score_spec(task, spec_text, spec_path)
    evaluator: Literal["accept", "reject", "error"] = (
        "error" if rep.status == "error" else "accept" if rep.passed_all else "reject")
    local = lm.copy()
    verdict: Literal["accept", "reject", "unreadable"]
    try:
        with dspy.context(lm=local):
            pred = dspy.Predict(JudgeSpec)(statement=task.statement or task.title,
                                           spec=spec_text)
        verdict = "accept" if bool(pred.faithful) else "reject"
        reason = str(pred.reason)
    except Exception as e:  # noqa: BLE001 - an unreadable answer is data
        verdict, reason = "unreadable", f"{type(e).__name__}: {str(e)[:300]}"
    return JudgeRecord(task_id=task.id, spec_path=spec_path, evaluator=evaluator,
                       evaluator_status=rep.status, judge=verdict, reason=reason,
                       usage=usage_of(local.history))


def summarize(records: Sequence[JudgeRecord]) -> JudgeSummary:
    rej = [r for r in records if r.evaluator == "reject" and r.judge != "unreadable"]
    acc = [r for r in records if r.evaluator == "accept" and r.judge != "unreadable"]
    misses = sum(1 for r in rej if r.judge == "accept")
    alarms = sum(1 for r in acc if r.judge == "reject")
    u = Usage()
    for r in records:
        u.calls += r.usage.calls
        u.prompt_tokens += r.usage.prompt_tokens
        u.completion_tokens += r.usage.completion_tokens
        u.cost += r.usage.cost
    return JudgeSummary(specs=len(records), evaluator_rejects=len(rej),
                        evaluator_accepts=len(acc), misses=misses, false_alarms=alarms,
                        unreadable=sum(1 for r in records if r.judge == "unreadable"),
                        evaluator_errors=sum(1 for r in records if r.evaluator == "error"),
                        miss_rate=misses / len(rej) if rej else None,
                        false_alarm_rate=alarms / len(acc) if acc else None, usage=u)
