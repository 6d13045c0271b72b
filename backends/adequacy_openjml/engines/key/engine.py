"""The ``key`` engine: every stub of a spec in one file, one worker request, one verdict per case.

Proved phi -> true, proved not-phi -> false, neither -> unknown with KeY's reason, both ->
unknown ("inconsistent"). KeY is incomplete, so an open goal never means false.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from adequacy.plugin import (
    OUT_OF_MEMORY,
    STACK_OVERFLOW,
    TIMEOUT,
    WORKER_DIED,
    Case,
    EngineInfo,
    EngineUnavailable,
    FailureStreak,
    Limits,
    LoadedSpec,
    Task,
    Truth,
    Verdict,
    engine_version,
    progress,
    remove_tree,
)

from ...jml.load import JmlSpec, spec_data
from ...jml.semantics import identity_comparison
from . import build, launch
from .client import WORKER, WorkerDied, units_root
from .receiver import receiver_pins
from .stubs import KeyStubFile, render_key_stubs

ENGINE = "key"
INTEGER_SEMANTICS = "java"
"""Java code wraps (``intRules:javaSemantics``); JML arithmetic stays mathematical in KeY
whatever the choice, which is the rac engine's bigint spec math (docs/key.md)."""
MAX_STEPS = 20_000
LOAD_SECONDS = 60.0
"""Allowance per request for loading the environment (parsing the file and KeY's library)."""


_HERE = Path(__file__).resolve().parent


def key_info(name: str) -> EngineInfo:
    """Availability of KeY (Java 17+ and the worker jar): shared by the engine and the
    verifier, which run the same worker."""
    why = build.why_unavailable()
    java = launch.worker_java()
    return EngineInfo(
        name=name, available=why is None,
        version=engine_version(
            f"key-{build.KEY_VERSION}-{build.jar_path().stem.rsplit('-', 1)[-1]}",
            _HERE, _HERE.parent / "rac", _HERE.parents[1] / "stubs", _HERE.parents[1] / "jml"),
        reason=why or f"KeY {build.KEY_VERSION} on Java {java.major if java else '?'}: stubs "
                      "proved symbolically (Java int semantics for code, mathematical spec "
                      "arithmetic)",
        decides="cases whose phi or not-phi stub KeY proves; unknown when it proves neither "
                "(\\max/\\min, \\product, fields, string concatenation...: docs/key.md)")


class KeyEngine:
    """The KeY prover on one stub per case and direction (opt-in: ``--engine key``)."""

    name = ENGINE

    def info(self) -> EngineInfo:
        return key_info(ENGINE)

    def check(self, spec: LoadedSpec, task: Task, cases: Sequence[Case], limits: Limits
              ) -> list[Verdict]:
        why = build.why_unavailable()
        if why:
            raise EngineUnavailable(f"key: {why}")
        if not cases:
            return []
        return check(spec_data(spec, task), task, cases, limits)


def prove_file(directory: Path, file: str, methods: list[str], proof_seconds: float,
               max_steps: int = MAX_STEPS, total_seconds: float | None = None,
               goal_details: int = 0) -> dict[str, Any]:
    """One ``prove`` request; a dead or hung worker becomes ``{"ok": False, "error": ...}``."""
    req: dict[str, Any] = {"op": "prove", "dir": str(directory), "file": file,
                           "methods": methods, "max_steps": max_steps,
                           "timeout_ms": int(proof_seconds * 1000),
                           "integer_semantics": INTEGER_SEMANTICS, "goal_details": goal_details}
    budget = total_seconds or LOAD_SECONDS + proof_seconds * max(1, len(methods)) * 1.5
    with WORKER.lock:
        try:
            return WORKER.request(req, timeout=budget)
        except WorkerDied as e:
            return {"ok": False, "error": str(e), "died": True}


def write_unit(class_name: str, text: str) -> tuple[Path, str]:
    """A fresh world-readable directory holding only this file (KeY loads every file there)."""
    d = Path(tempfile.mkdtemp(prefix="unit-", dir=units_root()))
    d.chmod(0o755)
    name = f"{class_name}.java"
    (d / name).write_text(text, encoding="utf-8")
    (d / name).chmod(0o644)
    return d, name


def _load_error(error: str, spec: JmlSpec) -> str:
    """A KeY load error as the cases' reason. Never ``SpecInvalid``: the front end accepted
    the spec, so KeY refusing it (string concatenation, ``(\\real)``, ``\\elemtype``...) is a
    limit of KeY, and the cases are unknown; the reason points at the spec's line when the
    error is in the spec's own text (the stubs follow the class body)."""
    import re
    m = re.match(r"[^:]*\.java:(\d+):(\d+): (.*)", error, re.S)
    if not m:
        return f"KeY: {error}"
    line = int(m.group(1))
    head_lines = spec.source.text[:spec.cls.body_close].count("\n") + 1
    where = f"{spec.file}:{line}" if line <= head_lines else "the generated stubs"
    return f"KeY cannot load the spec ({where}): {m.group(3).strip()}"


MAX_UNREADABLE = 8
"""Cases whose stubs KeY cannot read that are set aside one by one (each costs a load of the
file); past that, the rest of the spec's cases share the load error."""


def check(spec: JmlSpec, task: Task, cases: Sequence[Case], limits: Limits,
          both_directions: bool = False) -> list[Verdict]:
    """``_check``, where a case whose stub KeY cannot parse costs that case only: KeY's
    parser stops at the first error of the file, so the case whose stub holds the error line
    is set aside (unknown, with KeY's message) and the file is written again without it."""
    deadline = time.monotonic() + limits.spec_seconds
    all_cases = list(cases)
    unreadable: dict[int, str] = {}
    while True:
        keep = [k for k in range(len(all_cases)) if k not in unreadable]
        got, bad = _check(spec, task, [all_cases[k] for k in keep], limits, both_directions,
                          deadline, allow_isolation=len(unreadable) < MAX_UNREADABLE)
        if bad is None:
            break
        index, why = bad
        unreadable[keep[index]] = why
    by_id = dict(zip(keep, got, strict=True))
    out: list[Verdict] = []
    for k, c in enumerate(all_cases):
        if k in unreadable:
            out.append(Verdict(case_id=c.id, bucket=c.bucket, value=Truth.unknown,
                               engine=ENGINE, seconds=0.0, reason=unreadable[k]))
        else:
            out.append(by_id[k])
    return out


def _check(spec: JmlSpec, task: Task, cases: Sequence[Case], limits: Limits,
           both_directions: bool, deadline: float, allow_isolation: bool
           ) -> tuple[list[Verdict], tuple[int, str] | None]:
    """Round 1 proves, per case, the stub of the direction its bucket expects (phi for the
    complete buckets, not-phi for the sound ones); round 2 proves the other direction only for
    cases round 1 left open. A closed proof of one direction already decides the case (KeY is
    sound), so this halves the proofs for adequate specs; ``both_directions`` runs both
    always, which also detects an inconsistent (vacuous) stub."""
    gap = spec.gap or spec.math_gap or identity_gap(spec)
    if gap is not None:
        return [Verdict(case_id=c.id, bucket=c.bucket, value=Truth.unknown, engine=ENGINE,
                        reason=f"outside key's semantics: {gap}") for c in cases], None
    sf = render_key_stubs(spec, task, list(cases), receiver_pins(spec, limits))
    proof_seconds = max(1.0, min(limits.case_seconds, 60.0))
    expected = {k: ("phi" if c.bucket.expects else "not-phi") for k, c in enumerate(cases)}
    if both_directions:
        rounds = [sf.stubs]
    else:
        rounds = [[s for s in sf.stubs if s.direction == expected[s.index]]]
    results: dict[str, dict[str, Any]] = {}
    warnings: list[str] = []
    failure: str | None = None
    given_up: dict[str, str] = {}
    canary_sent = False
    for r in range(2):
        todo = rounds[0] if r == 0 else [
            s for s in sf.stubs if s.direction != expected[s.index]
            and results.get(f"__key_{'phi' if s.direction == 'not-phi' else 'not'}_{s.index}",
                            {}).get("status") != "closed"]
        if r == 1 and both_directions:
            break
        if not todo:
            continue
        todo = [s for s in todo if cases[s.index].bucket.predicate not in given_up]
        for part in _chunks(_probe_first(todo, cases, limits.timeout_streak)):
            part = [s for s in part if cases[s.index].bucket.predicate not in given_up]
            if not part:
                continue
            left = deadline - time.monotonic()
            if left < 5:
                failure = failure or f"spec time limit ({limits.spec_seconds:.0f}s) reached"
                break
            names = [s.name for s in part] + ([] if canary_sent else [sf.canary])
            canary_sent = True
            reply = _request(sf, names, proof_seconds, left)
            if not reply.get("ok"):
                failure = _request_failure(reply, spec)
                if reply.get("died") and time.monotonic() >= deadline - 1:
                    failure = (f"spec time limit ({limits.spec_seconds:.0f}s) reached before "
                               "KeY proved this case")
                culprit = _unreadable_case(reply, spec, sf) if allow_isolation else None
                if culprit is not None:
                    return [], (culprit, f"KeY cannot read this case's stub: {failure}")
                break
            got = {x["method"]: x for x in reply.get("results", [])}
            results.update(got)
            if got.get(sf.canary, {}).get("status") == "closed":
                failure = INCONSISTENT
                break
            warnings += [str(w) for w in reply.get("warnings", [])
                         if str(w) not in warnings and not benign_warning(str(w))]
            given_up.update(_timed_out_predicates(part, got, cases, limits.timeout_streak))
            if r == 0:
                progress.advance(len({s.index for s in part}))
        if failure:
            break
    out: list[Verdict] = []
    by_case: dict[int, dict[str, Any]] = {}
    for s in sf.stubs:
        if s.name in results:
            by_case.setdefault(s.index, {})[s.direction] = results[s.name]
    for k, c in enumerate(cases):
        pred = c.bucket.predicate
        if pred in given_up and not any(r.get("status") == "closed"
                                        for r in by_case.get(k, {}).values()):
            ran = any(r.get("status") == "timeout" for r in by_case.get(k, {}).values())
            out.append(Verdict(case_id=c.id, bucket=c.bucket, value=Truth.unknown,
                               engine=ENGINE, seconds=0.0,
                               reason=(f"timeout ({proof_seconds:g}s); " if ran else "")
                               + given_up[pred]))
            continue
        if k not in by_case and c.id in sf.skipped:
            out.append(Verdict(case_id=c.id, bucket=c.bucket, value=Truth.unknown,
                               engine=ENGINE, reason=sf.skipped[c.id], seconds=0.0))
            continue
        value, reason, secs = decide(by_case.get(k, {}), warnings)
        if failure == INCONSISTENT:
            value, reason = Truth.unknown, ""
        if value is Truth.unknown and failure:
            reason = "; ".join(x for x in (failure[:400], reason) if x)
        out.append(Verdict(case_id=c.id, bucket=c.bucket, value=value, engine=ENGINE,
                           reason=reason, seconds=secs))
    return out, None


def _unreadable_case(reply: dict[str, Any], spec: JmlSpec, sf: KeyStubFile) -> int | None:
    """The case whose stub holds the line KeY's load error names (None: the error is in the
    spec's own text, or not a load error with a line)."""
    import re
    if reply.get("died"):
        return None
    m = re.match(r"[^:]*\.java:(\d+):(\d+): ", str(reply.get("error", "")))
    if not m:
        return None
    line = int(m.group(1))
    head_lines = spec.source.text[:spec.cls.body_close].count("\n") + 1
    if line <= head_lines:
        return None
    lines = str(reply.get("_text", sf.text)).splitlines()
    for j in range(min(line, len(lines)) - 1, -1, -1):
        hit = re.search(r"// stub __key_(?:phi|not)_(\d+):", lines[j])
        if hit:
            return int(hit.group(1))
    return None


INCONSISTENT = ("KeY proved `false` in a stub that fixes nothing: what it assumes around every "
                "stub (an axiom, a represents clause...) is inconsistent, so no proof of the file "
                "decides a case")


CHUNK = 64
"""Stubs per request: a request that runs out of time loses only its own results (one
request for every stub of an imported task, about 1,300 cases, outran the spec's time and
lost all of them: SGB_Smallest's gold scored 0.01)."""


def _chunks(parts: list[list[Any]]) -> list[list[Any]]:
    return [p[i:i + CHUNK] for p in parts for i in range(0, len(p), CHUNK)]


def _probe_first(stubs: list[Any], cases: Sequence[Case], streak: int) -> list[list[Any]]:
    """The stubs of one round as requests: when a predicate has many stubs, its first
    ``streak`` go first on their own, so that a predicate whose proofs all time out is given
    up before paying for the rest (one extra load of the file; small rounds stay one request)."""
    if streak <= 0:
        return [stubs]
    probe: list[Any] = []
    seen: dict[str, int] = {}
    per_pred: dict[str, int] = {}
    for s in stubs:
        p = cases[s.index].bucket.predicate
        per_pred[p] = per_pred.get(p, 0) + 1
    for s in stubs:
        p = cases[s.index].bucket.predicate
        if per_pred[p] > 4 * streak and seen.get(p, 0) < streak:
            seen[p] = seen.get(p, 0) + 1
            probe.append(s)
    if not probe:
        return [stubs]
    rest = [s for s in stubs if s not in probe]
    return [probe, rest]


def _request_failure(reply: dict[str, Any], spec: JmlSpec) -> str:
    """Why a whole request gave no results. A worker that died or ran out of memory (it is
    restarted) ends the engine run: the rest of the spec's cases are skipped, and the reason
    says so and names the kind; anything else is KeY refusing the file (``_load_error``)."""
    error = str(reply.get("error", "KeY failed"))
    kind = WORKER_DIED if reply.get("died") else _failure_kind({"status": "error",
                                                                "reason": error})
    if kind is None:
        return _load_error(error, spec)
    what = {WORKER_DIED: "the KeY worker died", OUT_OF_MEMORY: "KeY ran out of memory",
            STACK_OVERFLOW: "KeY overflowed its stack"}[kind]
    return f"{what} ({error[:200]}), so the spec's remaining cases are skipped"


def _failure_kind(r: dict[str, Any]) -> str | None:
    """The give-up rule's kind of one proof result (``adequacy.extensions.backend.FAILURE_KINDS``)."""
    if r.get("status") == "timeout":
        return TIMEOUT
    reason = str(r.get("reason", ""))
    if r.get("status") == "error" and ("OutOfMemoryError" in reason
                                       or "out of memory" in reason):
        return OUT_OF_MEMORY
    if r.get("status") == "error" and "StackOverflowError" in reason:
        return STACK_OVERFLOW
    return None


def _timed_out_predicates(part: list[Any], got: dict[str, dict[str, Any]],
                          cases: Sequence[Case], streak: int) -> dict[str, str]:
    """Predicates whose last ``streak`` proofs in this request all failed (ran out of time
    or memory, overflowed the stack)."""
    if streak <= 0:
        return {}
    tracker = FailureStreak(streak)
    out: dict[str, str] = {}
    for s in part:
        r = got.get(s.name)
        if r is None:
            continue
        p = cases[s.index].bucket.predicate
        tracker.note(p, _failure_kind(r))
        why = tracker.skip_reason(p)
        if why is not None and p not in out:
            out[p] = why
    return out


def identity_gap(spec: JmlSpec) -> str | None:
    """KeY gives string literals one interned object each and fixes the case's objects as
    locals, so it could prove ``==`` between objects that in the real run were separate (or
    the same): such comparisons are not decided from a case's values."""
    line = identity_comparison(spec.method, spec.cases)
    return None if line is None else f"object identity (==) at line {line}"


def _request(sf: KeyStubFile, methods: list[str], proof_seconds: float,
             left: float) -> dict[str, Any]:
    text = sf.text_for(methods)
    d, name = write_unit(sf.class_name, text)
    try:
        reply = prove_file(d, name, methods, proof_seconds,
                           total_seconds=min(left, LOAD_SECONDS
                                             + proof_seconds * len(methods) * 1.5))
    finally:
        remove_tree(d)
    reply["_text"] = text
    return reply


BENIGN_WARNINGS = ('Missing "decreases" for loop invariant',)
"""KeY warnings that skip no JML: without ``decreases`` KeY keeps the loop invariant and
only cannot prove the loop terminates, so a proof that needs it stays open (never a
wrong verdict); such a warning must not make every closed proof of the spec unknown."""


def benign_warning(warning: str) -> bool:
    return warning.startswith(BENIGN_WARNINGS)


def decide(pair: dict[str, Any], warnings: list[str]) -> tuple[Truth, str, float]:
    """Verdict of one case from the results of its phi and not-phi stubs."""
    phi, neg = pair.get("phi"), pair.get("not-phi")
    secs = sum(r.get("millis", 0) for r in (phi, neg) if r) / 1000.0
    p = phi is not None and phi.get("status") == "closed"
    n = neg is not None and neg.get("status") == "closed"
    if not (p or n) and (phi is None or neg is None):
        return Truth.unknown, "KeY reported no result for this case's stubs", secs
    if warnings and (p or n):
        # KeY dropped some JML with a warning: a closed proof may have proved less
        return Truth.unknown, "KeY skipped JML: " + "; ".join(warnings)[:300], secs
    if p and n:
        return Truth.unknown, "inconsistent (vacuous stub?): KeY proved phi and not-phi", secs
    if p and phi is not None:
        return Truth.true, f"KeY proved phi ({phi.get('steps')} steps)", secs
    if n and neg is not None:
        return Truth.false, f"KeY proved not-phi ({neg.get('steps')} steps)", secs
    assert phi is not None and neg is not None
    return Truth.unknown, "KeY decided neither: phi " + _why(phi) + "; not-phi " + _why(neg), secs


def _why(r: dict[str, Any]) -> str:
    st = r.get("status", "?")
    if st == "open":
        return f"open ({r.get('open_goals')} goals after {r.get('steps')} steps: " \
               f"{str(r.get('reason', ''))[:120]})"
    return f"{st} ({str(r.get('reason', ''))[:160]})"
