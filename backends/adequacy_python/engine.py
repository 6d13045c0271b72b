"""The ``exec`` engine: Python's own semantics, one sandboxed interpreter per spec.

Each ``check`` starts a fresh worker (``runtime/worker.py`` in the sandbox) for the spec and
stops it at the end, so nothing one spec leaves in an interpreter is seen by another; each case
is one request, so the worker holds no case but the current one. A case is decided when the
predicate returns (or an assertion fails, which rejects); it is ``unknown`` when the spec
raises another exception, runs out of time, memory or stack (a timer inside the worker for
Python loops, the parent's deadline for a built-in that never returns, the address-space limit
of the sandbox for memory), or kills its worker.

A spec whose value may depend on the hash seed or on object addresses (it builds sets, turns
values into text; ``PySpec.order_sensitive`` says why) is evaluated by two workers, whose hash
seeds differ (each interpreter draws its own); a case is decided only when both agree.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from adequacy.plugin import (
    FORBIDDEN,
    OUT_OF_MEMORY,
    STACK_OVERFLOW,
    TIMEOUT,
    WORKER_DIED,
    Case,
    EngineInfo,
    FailureStreak,
    Limits,
    LoadedSpec,
    Task,
    Truth,
    Verdict,
    engine_version,
)

from . import sandboxing
from .frontend import PySpec
from .pytypes import type_tree
from .workers import SPARE_WORKERS, HeldWorker, LoadFailed, WorkerDied, as_invalid, spec_load

NAME = "exec"
#: Seconds past the case limit before a worker that has not answered is killed (its timer
#: stops Python code at the limit; only a built-in that never returns needs the kill).
GRACE = 2.0
_KINDS = {"timeout": TIMEOUT, "out of memory": OUT_OF_MEMORY, "stack overflow": STACK_OVERFLOW,
          "forbidden": FORBIDDEN}


def _version() -> str:
    interp = sandboxing.interpreter()
    tool = f"python {interp.version}" if not isinstance(interp, str) else "python ?"
    return engine_version(tool, sandboxing.RUNTIME, Path(__file__),
                          Path(__file__).with_name("workers.py"),
                          Path(__file__).with_name("sandboxing.py"))


class ExecEngine:
    name = NAME

    def info(self) -> EngineInfo:
        interp = sandboxing.interpreter()
        if isinstance(interp, str):
            return EngineInfo(name=NAME, available=False, reason=interp, default=True,
                              fidelity=20)
        return EngineInfo(
            name=NAME, available=True, version=_version(), default=True, fidelity=20,
            reason=f"Python {interp.version} ({interp.executable}) in the sandbox",
            decides="every case the spec evaluates to a bool (an assertion failure is false);"
                    " unknown: another exception, a time/memory/stack limit, or a value that "
                    "differs between two hash seeds")

    def check(self, spec: LoadedSpec, task: Task, cases: Sequence[Case], limits: Limits
              ) -> list[Verdict]:
        data = spec.data
        assert isinstance(data, PySpec)
        if not cases:
            return []
        inputs = [[p.name, type_tree(p.type)] for p in task.inputs]
        outputs = [[p.name, type_tree(p.type)] for p in task.outputs]
        load = spec_load(data.text, inputs, outputs, limits)
        workers = [SPARE_WORKERS.take(limits, load, "python worker")]
        if data.order_sensitive:
            workers.append(SPARE_WORKERS.take(limits, load,
                                              "python worker (second hash seed)", seed=1))
        pool = ThreadPoolExecutor(max_workers=1) if len(workers) > 1 else None
        streak = FailureStreak(limits.timeout_streak)
        deadline = time.monotonic() + limits.spec_seconds
        out: list[Verdict] = []
        try:
            for c in cases:
                pred = c.bucket.predicate
                skip = streak.skip_reason(pred)
                if skip is None and time.monotonic() > deadline:
                    skip = f"not evaluated: the spec's time limit ({limits.spec_seconds:g}s) " \
                           "ran out"
                if skip is not None:
                    out.append(Verdict(case_id=c.id, bucket=c.bucket, value=Truth.unknown,
                                       engine=NAME, reason=skip))
                    continue
                t0 = time.monotonic()
                req = {"op": "eval", "pred": pred, "input": c.input,
                       "output": c.output if pred == "post" else None}
                try:
                    value, why, kind = _decide(workers, req, limits, pool, data)
                except LoadFailed as e:
                    raise as_invalid(e, spec.path, NAME) from None
                streak.note(pred, kind)
                out.append(Verdict(case_id=c.id, bucket=c.bucket, value=value, engine=NAME,
                                   reason=why, seconds=time.monotonic() - t0))
        finally:
            if pool is not None:
                pool.shutdown(wait=True)
            for w in workers:
                w.stop()
        return out


def _one(w: HeldWorker, req: dict[str, Any], limits: Limits) -> tuple[Truth, str, str | None]:
    try:
        r = w.ask(req, limits.case_seconds + GRACE)
    except WorkerDied as e:
        if "did not answer" in str(e):
            return Truth.unknown, f"timeout after {limits.case_seconds:g}s (in a built-in; " \
                                  "the worker was killed)", TIMEOUT
        return Truth.unknown, f"the worker died ({e})", WORKER_DIED
    v = r.get("v")
    if v not in ("true", "false", "unknown"):
        return Truth.unknown, f"the worker answered {str(r)[:200]}", WORKER_DIED
    kind = r.get("kind")
    return Truth(v), str(r.get("why", "")), _KINDS.get(kind) if kind else None


def _decide(workers: list[HeldWorker], req: dict[str, Any], limits: Limits,
            pool: ThreadPoolExecutor | None, data: PySpec) -> tuple[Truth, str, str | None]:
    if pool is None:
        return _one(workers[0], req, limits)
    second = pool.submit(_one, workers[1], req, limits)
    a = _one(workers[0], req, limits)
    b = second.result()
    if a[0] == Truth.unknown:
        return a
    if b[0] == Truth.unknown:
        return b
    if a[0] != b[0]:
        why = ", ".join(data.order_sensitive[:3])
        return (Truth.unknown, f"the value depends on the interpreter: two hash seeds gave "
                f"{a[0].value} and {b[0].value} (the spec uses {why})", None)
    return a
