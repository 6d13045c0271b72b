"""The task's own method run on inputs in a sandboxed eval JVM: the reference of JML tasks.

Generating and mutating one task asks its reference about several batches of inputs (drawn
ones with the task's own probes, then invalid candidates, then the inputs whose mutants need
an output). A ``ReferenceSession`` serves all of them with one compile and one JVM: each
batch after the first reloads the reference's classes in a fresh class loader, so a batch
sees the reference's static state as a fresh JVM would (as when every batch had a JVM of its
own), and the inputs of a batch go in one streamed request (``runs``), each with its own time
limit. The JVM serves this one task's reference only and is killed when the session ends.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from adequacy.backend import OVERFLOW_REASON, Limits, ReferenceOutcome
from adequacy.errors import BackendError, EngineUnavailable
from adequacy.tasks import Task

from ...jml.load import find_target, original_source
from .build import Unit, build_unit
from .worker import WorkerDied

__all__ = ["ReferenceSession", "reference_outcomes", "reference_unit", "run_reference"]

#: errors of the JVM, not of the method's domain: a deep recursion on a big valid input and
#: a full heap say nothing about whether the input is valid.
OVERFLOW = "adequacy.rac.Overflow"
SAFE_MATH = " (JML's safe math for code, OpenJML's default)"
_JVM_ERRORS = ("java.lang.StackOverflowError", "java.lang.OutOfMemoryError",
               "java.lang.ThreadDeath", "java.lang.SecurityException",
               "java.lang.VirtualMachineError", "java.lang.InternalError",
               "java.lang.LinkageError", "java.lang.NoClassDefFoundError",
               "java.lang.ExceptionInInitializerError")


def reference_unit(task: Task) -> Unit:
    """The task's own code, unspecified, for running the reference method."""
    from .engine import post_fields

    src = original_source(task)
    cls, method = find_target(src, task, str(task.skeleton_path))
    # checked: an input on which the task's code overflows is outside its domain under JML's
    # safe math (OpenJML's default for code), never a valid input with a wrapped output
    return dataclasses.replace(build_unit(src, cls, method, [], post_fields(task)),
                               checked=True)


def _outcome(task: Task, unit: Unit, reply: dict[str, Any]) -> ReferenceOutcome:
    output = reply.get("output") if reply.get("ok") else None
    if isinstance(output, dict):
        return ReferenceOutcome(kind="returned", output=_task_output(task, unit, output))
    reason = str(reply.get("reason", ""))
    if reply.get("timeout"):
        return ReferenceOutcome(kind="timeout", reason=reason)
    if reply.get("failure") or not reason.startswith("reference threw "):
        return ReferenceOutcome(kind="failed", reason=reason or "no output")
    thrown = reason[len("reference threw "):].split(":", 1)[0].strip()
    if thrown == OVERFLOW:
        return ReferenceOutcome(kind="threw", reason=OVERFLOW_REASON + SAFE_MATH + reason.split(
            OVERFLOW, 1)[1][:120])
    if thrown in _JVM_ERRORS or thrown.endswith("Error"):
        return ReferenceOutcome(kind="failed", reason=f"the JVM raised {thrown}")
    return ReferenceOutcome(kind="threw", reason=thrown)


def _task_output(task: Task, unit: Unit, output: dict[str, Any]) -> dict[str, Any]:
    """The reference's output under the task's names (the Java parameter names may differ)."""
    wanted = {p.name for p in task.outputs}
    java_names = [n for _t, n in unit.params]
    task_names = [p.name for p in task.inputs]
    renamed: dict[str, Any] = {}
    for k, v in output.items():
        if k in java_names and k not in wanted and len(task_names) == len(java_names):
            k = task_names[java_names.index(k)]
        if k in wanted:
            renamed[k] = v
    return renamed


class ReferenceSession:
    """Batches of one task's reference inputs, one compile and one JVM for all of them.

    ``outcomes(inputs)`` answers as a one-batch ``reference_outcomes`` would: the batch's
    inputs in order, the reference's statics fresh at the batch's start, a JVM that dies (or
    asks to be replaced: a runaway thread, a full heap) replaced by a fresh one for the rest.
    ``close`` kills the JVM; use it as a context manager."""

    def __init__(self, task: Task, limits: Limits, unit: Unit | None = None) -> None:
        self.task = task
        self.limits = limits
        self.unit = unit if unit is not None else reference_unit(task)
        self._run: Any = None
        self._broken: str | None = None
        self.batches = 0

    def __enter__(self) -> ReferenceSession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self._run is not None:
            self._run.close()
            self._run = None

    def outcomes(self, inputs: list[dict[str, Any]], limits: Limits | None = None
                 ) -> list[ReferenceOutcome]:
        """The batch's outcomes; ``limits`` overrides the session's ``case_seconds`` for it
        (the JVM's heap is the session's)."""
        if not inputs:
            return []
        from .engine import CompileGap, start_run, unit_key

        key = unit_key(self.unit)
        if self._broken is not None:
            return [ReferenceOutcome(kind="failed", reason=self._broken)] * len(inputs)
        if self._run is None:
            try:
                self._run = start_run(self.unit, key, None, self.limits)
            except (CompileGap, BackendError) as e:
                if isinstance(e, EngineUnavailable):
                    raise
                self._broken = f"the reference did not compile: {e}"
                return [ReferenceOutcome(kind="failed", reason=self._broken)] * len(inputs)
        elif not self._reload(key):
            # no fresh statics to be had in this JVM: a fresh JVM gives them
            self._run.worker.stop()
        self.batches += 1
        return self._stream(key, inputs, (limits or self.limits).case_seconds)

    def _reload(self, key: str) -> bool:
        """The reference's classes again, in a fresh class loader of the same JVM."""
        run = self._run
        if not run.worker.alive() or key not in run.worker.loaded:
            return True  # the next request starts a fresh JVM (or loads afresh)
        u = self.unit
        try:
            reply = run.worker.request({
                "op": "reload", "key": key, "class": u.class_name, "classes": run.classes,
                "params": [list(p) for p in u.params], "result": u.result,
                "method": u.method, "static": u.static, "result_param": u.result_param,
                "post_fields": [list(f) for f in u.post_fields], "cases": u.plan},
                timeout=60.0)
        except WorkerDied:
            return True
        return bool(reply.get("ok"))

    def _stream(self, key: str, inputs: list[dict[str, Any]], seconds: float
                ) -> list[ReferenceOutcome]:
        from .engine import ordered_args

        out: list[ReferenceOutcome | None] = [None] * len(inputs)
        reqs: list[tuple[int, dict[str, Any]]] = []
        timeout_ms = int(seconds * 1000)
        for i, inp in enumerate(inputs):
            try:
                reqs.append((i, {"input": ordered_args(self.task, self.unit, inp),
                                 "timeout_ms": timeout_ms}))
            except (KeyError, BackendError) as e:
                out[i] = ReferenceOutcome(kind="failed", reason=str(e)[:200])
        at = 0
        while at < len(reqs):
            at = self._send(key, reqs, at, out, seconds)
        assert all(o is not None for o in out)
        return [o for o in out if o is not None]

    def _send(self, key: str, reqs: list[tuple[int, dict[str, Any]]], at: int,
              out: list[ReferenceOutcome | None], seconds: float) -> int:
        """Stream ``reqs[at:]``; the index of the first one still without an outcome."""
        part = reqs[at:]
        got = 0
        try:
            for reply in self._run.stream({"op": "runs", "key": key,
                                           "inputs": [r for _, r in part]},
                                          timeout=seconds + 15):
                if reply.get("missing"):
                    self._run.worker.loaded.discard(key)
                    if got == 0:  # the spec went missing: this input alone, the old way
                        return at + self._one(key, part[0], out, seconds)
                    break
                if "i" not in reply or reply["i"] != got:
                    if "i" in reply:  # out of order: nothing more of this stream is trusted
                        self._run.worker.stop()
                    if got == 0:
                        out[part[0][0]] = ReferenceOutcome(
                            kind="failed", reason=str(reply.get("error", reply))[:200])
                        return at + 1
                    break
                out[part[got][0]] = _outcome(self.task, self.unit, reply)
                got += 1
                if reply.get("end"):
                    break
        except (WorkerDied, BackendError) as e:
            # the input in flight has no outcome (as a one-input request that lost its JVM)
            out[part[got][0]] = ReferenceOutcome(kind="failed", reason=str(e)[:200])
            got += 1
        return at + got

    def _one(self, key: str, req: tuple[int, dict[str, Any]],
             out: list[ReferenceOutcome | None], seconds: float) -> int:
        try:
            reply = self._run.request({"op": "run", "key": key, **req[1]},
                                      timeout=seconds + 15)
        except (WorkerDied, BackendError) as e:
            out[req[0]] = ReferenceOutcome(kind="failed", reason=str(e)[:200])
            return 1
        out[req[0]] = _outcome(self.task, self.unit, reply)
        return 1


def reference_outcomes(unit: Unit, task: Task, inputs: list[dict[str, Any]],
                       limits: Limits) -> list[ReferenceOutcome]:
    """What the task's own method did on each input: returned (with its output), threw an
    exception (its class), timed out, or gave no outcome (a crash, an error of the JVM)."""
    if not inputs:
        return []
    with ReferenceSession(task, limits, unit) as s:
        return s.outcomes(inputs)


def run_reference(unit: Unit, task: Task, inputs: list[dict[str, Any]],
                  limits: Limits) -> list[dict[str, Any] | None]:
    """Outputs of the task's own method on each input (None: threw, timed out or crashed)."""
    return [o.output if o.kind == "returned" else None
            for o in reference_outcomes(unit, task, inputs, limits)]
