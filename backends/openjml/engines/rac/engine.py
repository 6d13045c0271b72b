"""The ``rac`` engine: evaluate a spec's precondition or postcondition on cases in the worker.

Each spec is translated once (``build.build_unit``) into a Java unit kept with the loaded spec,
compiled once per worker, and evaluated case by case with JML's default semantics (bigint spec
math, short-circuit logic, undefined values as ``unknown``)."""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Sequence
from typing import Any

from adequacy import progress
from adequacy.backend import EngineInfo, Limits, LoadedSpec, TimeoutStreak
from adequacy.errors import BackendError, EngineUnavailable, SpecInvalid
from adequacy.tasks import Case, Task
from adequacy.toolchain import find_java
from adequacy.verdicts import Truth, Verdict

from ...jml import load as jml_load
from ...jml.load import JmlSpec, find_target, original_source, spec_data
from .build import Unit, build_unit, compile_errors
from .worker import POOL, Worker, WorkerDied

ENGINE = "rac"
VERSION = "rac-3"  # 3: a refused action makes the case unknown even when caught


def unit_key(unit: Unit) -> str:
    h = hashlib.sha256(unit.source.encode())
    h.update(json.dumps([unit.plan, unit.params, unit.result, unit.method, unit.static,
                            unit.result_param]).encode())
    return h.hexdigest()[:24]


class RacEngine:
    """JML runtime checking in a persistent, sandboxed JVM (the JML default chain)."""

    name = ENGINE

    def info(self) -> EngineInfo:
        java = find_java()
        ok = java is not None and java.javac is not None
        return EngineInfo(
            name=ENGINE, available=ok, version=VERSION, default=True, fidelity=20,
            capabilities=("pre", "post", "post_state"),
            reason="JML runtime checking in a persistent JVM (bigint spec math)" if ok else
            "needs a JDK: java and javac on PATH or JAVA_HOME",
            decides="every case whose clauses evaluate with JML's semantics; unknown for "
                    "undefined values, bigint/real arithmetic outside its math, object "
                    "identity, fields after the call, unbounded quantifiers (docs/jml.md)")

    def check(self, spec: LoadedSpec, task: Task, cases: Sequence[Case], limits: Limits
              ) -> list[Verdict]:
        info = self.info()
        if not info.available:
            raise EngineUnavailable(info.reason)
        data = spec_data(spec, task)
        # rac computes every arithmetic mode, so JmlSpec.math_gap (KeY's) does not apply
        return check(unit_for(data), data.file, task, cases, limits)


def unit_for(spec: JmlSpec) -> Unit:
    """rac's Java unit for the spec, translated once and kept with it. A clause the
    translator cannot express is rac's gap: ``SpecInvalid(engine="rac")`` at the spec's line,
    which the runner turns into ``unknown`` for rac's cases."""
    unit = spec.compiled.get(ENGINE)
    if unit is None:
        try:
            unit = build_unit(spec.source, spec.cls, spec.method, spec.cases)
        except SpecInvalid as e:
            raise SpecInvalid(e.message, file=e.file, line=e.line, engine=ENGINE) from e
        spec.compiled[ENGINE] = unit
    assert isinstance(unit, Unit)
    return unit


def reference_unit(task: Task) -> Unit:
    """The task's own code, unspecified, for running the reference method."""
    src = original_source(task)
    cls, method = find_target(src, task, str(task.skeleton_path))
    return build_unit(src, cls, method, [])


def ordered_args(task: Task, unit: Unit, inputs: dict[str, Any]) -> list[Any]:
    """Arguments in the Java method's order (``jml.load.ordered_args``)."""
    return jml_load.ordered_args(task, unit.params, unit.method, inputs)


def _heap(limits: Limits) -> int:
    return max(128, min(1024, limits.memory_mb // 2))


def _ensure(worker: Worker, unit: Unit, key: str, file: str | None, limits: Limits) -> None:
    if key in worker.loaded and worker.alive():
        return
    reply = worker.request({"op": "compile", "key": key, "class": unit.class_name,
                            "source": unit.source, "params": [list(p) for p in unit.params],
                            "result": unit.result, "method": unit.method,
                            "static": unit.static, "result_param": unit.result_param,
                            "cases": unit.plan},
                           timeout=max(60.0, limits.spec_seconds / 4))
    if reply.get("ok"):
        worker.loaded.add(key)
        return
    if "errors" in reply:
        raise CompileGap(compile_errors(unit, reply["errors"], file))
    raise BackendError(f"rac worker: {reply.get('error', reply)}")


class CompileGap(Exception):
    """javac refused the translated unit: a gap of this engine (its translation, or Java it
    cannot host), not a verdict on the spec, which only the front end may call invalid."""

    def __init__(self, error: SpecInvalid) -> None:
        where = f"{error.file}:{error.line}: " if error.line else ""
        super().__init__(f"rac cannot compile this spec: {where}{error.message}")


def check(unit: Unit, file: str | None, task: Task, cases: Sequence[Case],
          limits: Limits, gap: str | None = None) -> list[Verdict]:
    """One verdict per case; a hang or crash costs that case only (the worker restarts).
    ``gap`` (``JmlSpec.math_gap``) or a compile failure makes every case unknown.

    The spec's budget holds for the whole call, and a predicate that keeps timing out is
    given up after ``limits.timeout_streak`` timeouts in a row (its other cases are unknown)."""
    if gap is not None:
        return [Verdict(case_id=c.id, bucket=c.bucket, value=Truth.unknown, engine=ENGINE,
                        reason=f"outside rac's semantics: {gap}") for c in cases]
    key = unit_key(unit)
    verdicts: list[Verdict] = []
    deadline = time.monotonic() + limits.spec_seconds
    streak = TimeoutStreak(limits.timeout_streak)
    worker = POOL.acquire(_heap(limits))
    try:
        for case in cases:
            t0 = time.monotonic()
            skip = streak.skip_reason(case.bucket.predicate)
            if skip is None and t0 > deadline:
                skip = f"spec time limit ({limits.spec_seconds:g}s) reached"
            if skip is not None:
                verdicts.append(Verdict(case_id=case.id, bucket=case.bucket, value=Truth.unknown,
                                        engine=ENGINE, reason=skip))
                continue
            try:
                v, timed_out = _one(worker, unit, key, file, task, case,
                                    _case_limits(limits, deadline - t0), t0)
            except CompileGap as e:
                verdicts += [Verdict(case_id=c.id, bucket=c.bucket, value=Truth.unknown,
                                     engine=ENGINE, reason=str(e))
                             for c in cases[len(verdicts):]]
                break
            streak.note(case.bucket.predicate, timed_out)
            verdicts.append(v)
            progress.advance()
    finally:
        POOL.release(worker)
    return verdicts


def _case_limits(limits: Limits, left: float) -> Limits:
    """A case never runs past the spec's budget."""
    if left >= limits.case_seconds:
        return limits
    return limits.model_copy(update={"case_seconds": max(0.5, left)})


def _one(worker: Worker, unit: Unit, key: str, file: str | None, task: Task, case: Case,
         limits: Limits, t0: float) -> tuple[Verdict, bool]:
    """The case's verdict, and whether it ran out of time."""
    def verdict(value: Truth, reason: str, timed_out: bool = False) -> tuple[Verdict, bool]:
        return Verdict(case_id=case.id, bucket=case.bucket, value=value, engine=ENGINE,
                       reason=reason, seconds=time.monotonic() - t0), timed_out

    try:
        args = ordered_args(task, unit, case.input)
    except (BackendError, KeyError) as e:
        return verdict(Truth.unknown, f"bad case: {e}")
    req = {"op": "eval", "key": key, "pred": case.bucket.predicate, "input": args,
           "output": case.output, "timeout_ms": int(limits.case_seconds * 1000)}
    for attempt in range(2):
        try:
            _ensure(worker, unit, key, file, limits)
            reply = worker.request(req, timeout=limits.case_seconds + 15)
        except WorkerDied as e:
            hung = "did not answer" in str(e)
            if attempt == 0 and not hung:
                continue  # died between cases (e.g. killed by a limit): one retry
            return verdict(Truth.unknown, f"worker crashed or hung: {e}; restarted", hung)
        if reply.get("missing"):
            worker.loaded.discard(key)
            continue
        if "error" in reply:
            return verdict(Truth.unknown, f"worker error: {reply['error']}")
        value = {"true": Truth.true, "false": Truth.false}.get(reply.get("value", ""),
                                                               Truth.unknown)
        reason = str(reply.get("reason", ""))
        if reply.get("exit"):
            reason += "; worker restarted"
        return verdict(value, reason, bool(reply.get("timeout")))
    return verdict(Truth.unknown, "worker lost the spec twice")


def run_reference(unit: Unit, task: Task, inputs: list[dict[str, Any]],
                  limits: Limits) -> list[dict[str, Any] | None]:
    """Outputs of the task's own method on each input (None: threw, timed out or crashed)."""
    key = unit_key(unit)
    out: list[dict[str, Any] | None] = []
    worker = POOL.acquire(_heap(limits))
    try:
        for inp in inputs:
            try:
                args = ordered_args(task, unit, inp)
                _ensure(worker, unit, key, None, limits)
                reply = worker.request({"op": "run", "key": key, "input": args,
                                        "timeout_ms": int(limits.case_seconds * 1000)},
                                       timeout=limits.case_seconds + 15)
            except (WorkerDied, KeyError, BackendError, CompileGap):
                out.append(None)
                continue
            if reply.get("missing"):
                worker.loaded.discard(key)
                out.append(None)
                continue
            output = reply.get("output") if reply.get("ok") else None
            if output is not None:
                wanted = {p.name for p in task.outputs}
                java_names = [n for _t, n in unit.params]
                task_names = [p.name for p in task.inputs]
                renamed: dict[str, Any] = {}
                for k, v in output.items():
                    if k in java_names and k not in wanted and len(task_names) == len(java_names):
                        k = task_names[java_names.index(k)]
                    if k in wanted:
                        renamed[k] = v
                output = renamed
            out.append(output)
    finally:
        POOL.release(worker)
    return out
