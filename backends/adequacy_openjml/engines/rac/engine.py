"""The ``rac`` engine: evaluate a spec's precondition or postcondition on cases in a JVM.

Each spec is translated once (``build.build_unit``) into a Java unit kept with the loaded spec,
compiled once by the shared compiler JVM (``worker.COMPILER``, which never runs spec code), and
evaluated case by case with JML's default semantics (bigint spec math, short-circuit logic,
undefined values as ``unknown``) in a JVM of its own that dies with the run (``jvms``)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from adequacy.plugin import (
    FAILURE_KINDS,
    TIMEOUT,
    WORKER_DIED,
    BackendError,
    Case,
    EngineInfo,
    EngineUnavailable,
    FailureStreak,
    Limits,
    LoadedSpec,
    SpecInvalid,
    Task,
    Truth,
    Verdict,
    engine_version,
    progress,
)
from adequacy_openjml.jdk import Java, find_java

from ...jml.load import JmlSpec, spec_data
from .build import Unit, build_unit
from .jvms import JVMS  # noqa: F401 - tests reach the JVM pool through the engine
from .reference import (  # noqa: F401 - the engine's reference entry points
    JvmReferenceSession,
    reference_outcomes,
    reference_unit,
    run_reference,
)
from .runs import (  # noqa: F401 - shared with the reference runner, kept importable here
    CompileGap,
    Run,
    _classes,
    _load,
    ordered_args,
    post_fields,
    start_run,
    unit_key,
)
from .worker import WorkerDied, jdk_problem

ENGINE = "rac"
_HERE = Path(__file__).resolve().parent


def version(java: Java | None) -> str:
    """The JDK's major version and the hash of this engine's sources (the translator, the
    worker's Java) and of the front end it reads (``engine_version``)."""
    return engine_version(f"rac java-{java.major if java else '?'}", _HERE, _HERE.parents[1] / "jml")


class RacEngine:
    """JML runtime checking in sandboxed JVMs, one per spec run (the JML default chain)."""

    name = ENGINE

    def info(self) -> EngineInfo:
        java = find_java()
        why = jdk_problem(java)
        return EngineInfo(
            name=ENGINE, available=why is None, version=version(java),
            capabilities=("pre", "post", "post_state"),
            reason=why or "JML runtime checking, one sandboxed JVM per spec (bigint spec math)",
            decides="every case whose clauses evaluate with JML's semantics; unknown for "
                    "undefined values, bigint/real arithmetic outside its math, object "
                    "identity, fields after the call, unbounded quantifiers (docs/jml.md)")

    def check(self, spec: LoadedSpec, task: Task, cases: Sequence[Case], limits: Limits
              ) -> list[Verdict]:
        info = self.info()
        if not info.available:
            raise EngineUnavailable(info.reason)
        data = spec_data(spec, task)
        # rac computes every arithmetic mode, so JmlSpec.math_gap (KeY's) does not apply;
        # what no engine can vouch for (a helper's purity gap) does
        return check(unit_for(data, post_fields(task)), data.file, task, cases, limits,
                     gap=data.gap)


def unit_for(spec: JmlSpec, fields: Sequence[str] = ()) -> Unit:
    """rac's Java unit for the spec, translated once and kept with it. A clause the
    translator cannot express is rac's gap: ``SpecInvalid(engine="rac")`` at the spec's line,
    which the runner turns into ``unknown`` for rac's cases."""
    slot = ENGINE if not fields else f"{ENGINE}:{','.join(fields)}"
    unit = spec.compiled.get(slot)
    if unit is None:
        try:
            unit = build_unit(spec.source, spec.cls, spec.method, spec.cases, fields)
        except SpecInvalid as e:
            raise SpecInvalid(e.message, file=e.file, line=e.line, engine=ENGINE) from e
        spec.compiled[slot] = unit
    assert isinstance(unit, Unit)
    return unit


def check(unit: Unit, file: str | None, task: Task, cases: Sequence[Case],
          limits: Limits, gap: str | None = None) -> list[Verdict]:
    """One verdict per case; a hang or crash costs that case only (the JVM is replaced).
    ``gap`` (``JmlSpec.gap``) or a compile failure makes every case unknown.

    The spec's budget holds for the whole call, and a predicate that keeps failing (timeouts,
    out of memory, stack overflows, a dying worker, forbidden actions) is given up after
    ``limits.timeout_streak`` failures in a row (its other cases are unknown)."""
    if gap is not None:
        return [Verdict(case_id=c.id, bucket=c.bucket, value=Truth.unknown, engine=ENGINE,
                        reason=f"outside rac's semantics: {gap}") for c in cases]
    if not cases:
        return []
    key = unit_key(unit)
    deadline = time.monotonic() + limits.spec_seconds
    try:
        run = start_run(unit, key, file, limits)
    except (CompileGap, BackendError) as e:
        if isinstance(e, EngineUnavailable):
            raise
        why = str(e) if isinstance(e, CompileGap) else f"rac could not compile this spec: {e}"
        return [Verdict(case_id=c.id, bucket=c.bucket, value=Truth.unknown, engine=ENGINE,
                        reason=why) for c in cases]
    verdicts: list[Verdict | None] = [None] * len(cases)
    streak = FailureStreak(limits.timeout_streak)
    try:
        i = 0
        while i < len(cases):
            i = _batch(run, task, cases, limits, deadline, streak, verdicts, i)
    finally:
        run.close()
    assert all(v is not None for v in verdicts)
    return [v for v in verdicts if v is not None]


def _unknown(case: Case, reason: str) -> Verdict:
    return Verdict(case_id=case.id, bucket=case.bucket, value=Truth.unknown, engine=ENGINE,
                   reason=reason)


def _batch(run: Run, task: Task, cases: Sequence[Case], limits: Limits, deadline: float,
           streak: FailureStreak, out: list[Verdict | None], start: int) -> int:
    """Score the cases from ``start`` on in one streamed request (``evals``: one round trip
    instead of one per case) and return the index of the first case still to score.

    The verdicts are those of scoring case by case: the give-up rule (``FailureStreak``)
    changes only on a failure, and the stream ends at the first one, so the cases skipped
    or sent here are the ones the case-by-case loop would skip or run; a case the stream did
    not reach is scored by the next call, with the rule as it is then."""
    now = time.monotonic()
    batch: list[int] = []
    reqs: list[dict[str, Any]] = []
    skipped: list[tuple[int, str]] = []
    k = start
    while k < len(cases):
        case = cases[k]
        skip = streak.skip_reason(case.bucket.predicate)
        if skip is None and now > deadline:
            skip = f"spec time limit ({limits.spec_seconds:g}s) reached"
        if skip is not None:
            skipped.append((k, skip))
            k += 1
            continue
        try:
            args = ordered_args(task, run.unit, case.input)
        except (BackendError, KeyError) as e:
            if batch:
                break  # its verdict resets the rule: score it after the cases before it
            out[k] = _unknown(case, f"bad case: {e}")
            streak.note(case.bucket.predicate, None)
            progress.advance()
            k += 1
            break
        batch.append(k)
        reqs.append({"pred": case.bucket.predicate, "input": args, "output": case.output,
                     "timeout_ms": int(limits.case_seconds * 1000)})
        k += 1
    answered = 0
    if batch:
        answered = _stream(run, task, cases, batch, reqs, limits, deadline, streak, out)
    resume = batch[answered] if answered < len(batch) else k
    for j, why in skipped:
        if j < resume:
            out[j] = _unknown(cases[j], why)
    return resume


def _stream(run: Run, task: Task, cases: Sequence[Case], batch: list[int],
            reqs: list[dict[str, Any]], limits: Limits, deadline: float,
            streak: FailureStreak, out: list[Verdict | None]) -> int:
    """Send ``batch``'s cases as one ``evals`` request; the number of them scored."""
    answered = 0

    def done(v: Verdict, failure: str | None) -> None:
        nonlocal answered
        case = cases[batch[answered]]
        out[batch[answered]] = v
        streak.note(case.bucket.predicate, failure)
        progress.advance()
        answered += 1

    t0 = time.monotonic()
    req = {"op": "evals", "key": run.key, "cases": reqs,
           "budget_ms": int(max(0.0, deadline - t0) * 1000)}
    try:
        for reply in run.stream(req, timeout=limits.case_seconds + 15):
            if "i" in reply and reply["i"] == answered and answered < len(batch):
                case = cases[batch[answered]]
                done(*_interpret(case, reply, float(reply.get("ms", 0.0)) / 1000))
                continue
            if "i" in reply:  # out of order: nothing more of this stream is trusted
                run.worker.stop()
                if answered < len(batch):
                    done(_unknown(cases[batch[answered]],
                                  f"worker answered case {reply['i']} out of order"),
                         WORKER_DIED)
                break
            if reply.get("missing"):
                run.worker.loaded.discard(run.key)  # scored one by one below, reloading
            elif "error" in reply:
                case = cases[batch[answered]]
                done(*_interpret(case, reply, time.monotonic() - t0))
            break
    except WorkerDied as e:
        if "did not answer" in str(e):
            case = cases[batch[answered]]
            done(Verdict(case_id=case.id, bucket=case.bucket, value=Truth.unknown,
                         engine=ENGINE, reason=f"worker crashed or hung: {e}; restarted"),
                 TIMEOUT)
        else:  # died between or during cases: that case once more, alone, in a fresh JVM
            k = batch[answered]
            t1 = time.monotonic()
            done(*_one(run, task, cases[k], _case_limits(limits, deadline - t1), t1,
                       attempts=1))
    except BackendError as e:  # a fresh JVM refused the spec's classes
        case = cases[batch[answered]]
        done(_unknown(case, str(e)), WORKER_DIED)
    if answered == 0:  # the spec went missing: its first case alone, the old way
        k = batch[0]
        t1 = time.monotonic()
        done(*_one(run, task, cases[k], _case_limits(limits, deadline - t1), t1))
    return answered


def _case_limits(limits: Limits, left: float) -> Limits:
    """A case never runs past the spec's budget."""
    if left >= limits.case_seconds:
        return limits
    return limits.model_copy(update={"case_seconds": max(0.5, left)})


def _interpret(case: Case, reply: dict[str, Any], seconds: float
               ) -> tuple[Verdict, str | None]:
    """A case's verdict from the worker's reply, and the failure kind that kept it from one
    (``FAILURE_KINDS``)."""
    def verdict(value: Truth, reason: str, failure: str | None = None
                ) -> tuple[Verdict, str | None]:
        return Verdict(case_id=case.id, bucket=case.bucket, value=value, engine=ENGINE,
                       reason=reason, seconds=seconds), failure

    failure = reply.get("failure")
    kind = failure if isinstance(failure, str) and failure in FAILURE_KINDS else None
    if "error" in reply:
        return verdict(Truth.unknown, f"worker error: {reply['error']}", kind)
    value = {"true": Truth.true, "false": Truth.false}.get(str(reply.get("value", "")),
                                                           Truth.unknown)
    reason = str(reply.get("reason", ""))
    if reply.get("exit"):
        reason += "; worker restarted"
    return verdict(value, reason, kind if value is Truth.unknown else None)


def _one(run: Run, task: Task, case: Case, limits: Limits, t0: float, attempts: int = 2
         ) -> tuple[Verdict, str | None]:
    """One case in a request of its own (after the stream lost its JVM or its spec); a JVM
    that dies before answering gets ``attempts - 1`` retries in a fresh one."""
    def verdict(value: Truth, reason: str, failure: str | None = None
                ) -> tuple[Verdict, str | None]:
        return Verdict(case_id=case.id, bucket=case.bucket, value=value, engine=ENGINE,
                       reason=reason, seconds=time.monotonic() - t0), failure

    try:
        args = ordered_args(task, run.unit, case.input)
    except (BackendError, KeyError) as e:
        return verdict(Truth.unknown, f"bad case: {e}")
    req = {"op": "eval", "key": run.key, "pred": case.bucket.predicate, "input": args,
           "output": case.output, "timeout_ms": int(limits.case_seconds * 1000)}
    for attempt in range(attempts):
        try:
            reply = run.request(req, timeout=limits.case_seconds + 15)
        except WorkerDied as e:
            hung = "did not answer" in str(e)
            if attempt < attempts - 1 and not hung:
                continue  # died between cases (e.g. killed by a limit): one retry
            return verdict(Truth.unknown, f"worker crashed or hung: {e}; restarted",
                           TIMEOUT if hung else WORKER_DIED)
        except BackendError as e:  # a fresh JVM refused the spec's classes
            return verdict(Truth.unknown, str(e), WORKER_DIED)
        if reply.get("missing"):
            run.worker.loaded.discard(run.key)
            continue
        return _interpret(case, reply, time.monotonic() - t0)
    return verdict(Truth.unknown, "worker lost the spec twice", WORKER_DIED)
