"""Verification rate: prove a spec's contracts against the method's real body with KeY.

This is the number the Spec-Harness paper shows to be misleading on its own (a weak spec
verifies easily), so ``adequacy verify`` prints it next to the four adequacy metrics. KeY is
incomplete: "not verified" means open goals (a wrong spec, a missing loop invariant, or KeY's
automation giving up), never a refutation.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from adequacy.plugin import (
    ContractResult,
    EngineInfo,
    EngineUnavailable,
    Limits,
    LoadedSpec,
    OpenGoal,
    Task,
    VerifyResult,
    remove_tree,
)

from ...jml.load import JmlSpec, load, spec_data
from . import build
from .adapt import verify_source
from .engine import key_info, prove_file, write_unit

GOALS_SHOWN = 3
VERIFY_STEPS = 50_000
#: JML that KeY assumes without proof (``//@ assume false;`` in the body closes every goal;
#: a class ``invariant false;`` is assumed in the method's pre-state and closes them too).
UNPROVEN = frozenset({"assume", "assume_redundantly", "axiom", "invariant",
                      "invariant_redundantly"})


class KeyVerifier:
    """``adequacy verify`` for JML: every contract of the task's method proved by KeY."""

    name = "key"

    def info(self) -> EngineInfo:
        return key_info(self.name)

    def verify(self, spec: LoadedSpec, task: Task, limits: Limits) -> VerifyResult:
        why = build.why_unavailable()
        if why:
            raise EngineUnavailable(f"key: {why}")
        return verify(task, spec.text, limits, spec.path, spec=spec_data(spec, task))


def verify(task: Task, spec_text: str, limits: Limits, path: str | None = None,
           spec: JmlSpec | None = None) -> VerifyResult:
    """Prove every contract of the task's method in the spec's own file (the real body)."""
    spec = spec or load(task, spec_text, path)
    m = spec.method
    body = m.source if getattr(m, "has_body", True) else ""
    loops = any(k in body for k in ("for (", "for(", "while (", "while(", "do {"))
    invariants = "loop_invariant" in spec_text or "maintaining" in spec_text
    given = next((t for t in spec.source.jml_tokens
                  if t.kind == "ident" and t.text in UNPROVEN), None)
    if given is not None:
        return VerifyResult(
            result="unknown", task_id=task.id, method=m.name, engine="key", has_loops=loops,
            loop_invariants=invariants,
            summary=f"the spec states `{given.text}` at line {given.line}: KeY takes it as "
                    "given, so a proof under it proves nothing about the body")
    d, name = write_unit(spec.cls.name, verify_source(spec))
    try:
        proof_seconds = max(5.0, min(limits.spec_seconds, 120.0))
        reply = prove_file(d, name, [m.name], proof_seconds, max_steps=VERIFY_STEPS,
                           goal_details=GOALS_SHOWN)
    finally:
        remove_tree(d)
    base: dict[str, Any] = {"task_id": task.id, "method": m.name, "engine": "key",
                            "has_loops": loops,
                            "loop_invariants": invariants}
    if not reply.get("ok"):
        return VerifyResult(result="unknown", summary=f"KeY: {reply.get('error')}"[:500], **base)
    contracts = [ContractResult(
        contract=r.get("contract", "?"), status=r.get("status", "error"),
        steps=int(r.get("steps", 0)), seconds=r.get("millis", 0) / 1000.0,
        open_goals=int(r.get("open_goals", 0)), reason=str(r.get("reason", "")),
        goals=[OpenGoal(branch=_labels(g.get("branch", [])), sequent=str(g.get("sequent", "")))
               for g in r.get("goals", [])])
        for r in reply.get("results", []) if r.get("method") == m.name]
    warnings = [str(w) for w in reply.get("warnings", [])]
    if not contracts:
        return VerifyResult(result="unknown", summary="KeY found no contract for "
                            f"{m.name} (a spec without requires/ensures?)", **base)
    statuses = {c.status for c in contracts}
    if statuses == {"closed"} and not warnings:
        result: Literal["verified", "not verified", "unknown"] = "verified"
        summary = f"all {len(contracts)} contract(s) proved"
    elif statuses == {"closed"}:
        result, summary = "unknown", "proved, but KeY skipped JML: " + "; ".join(warnings)
    elif "open" in statuses:
        result = "not verified"
        summary = "; ".join(_summary(c) for c in contracts if c.status != "closed")
        if loops and not invariants:
            summary += " (the method has loops and the spec no loop_invariant)"
    else:
        result = "unknown"
        summary = "; ".join(f"{c.contract}: {c.status} ({c.reason[:200]})" for c in contracts
                            if c.status != "closed")
    return VerifyResult(result=result, summary=summary[:1000], contracts=contracts, **base)


def _labels(branch: list[str]) -> list[str]:
    """KeY's branch labels without the "N rules" markers of collapsed steps."""
    return [b for b in map(str, branch) if not re.fullmatch(r"\d+ rules?", b)]


def _where(g: OpenGoal) -> str:
    if "while (" in g.sequent or "for (" in g.sequent or "do {" in g.sequent:
        return "a loop KeY cannot pass (no loop_invariant)"
    return " / ".join(g.branch[-2:]) or "the postcondition"


def _summary(c: ContractResult) -> str:
    where = sorted({_where(g) for g in c.goals})
    text = f"{c.contract}: {c.status}, {c.open_goals} open goal(s) after {c.steps} steps"
    return text + (f" at {', '.join(where)}" if where else "")
