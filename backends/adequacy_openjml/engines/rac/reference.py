"""The task's own method run on inputs in a sandboxed eval JVM: the reference of JML tasks.

Generating and mutating one task asks its reference about several batches of inputs (drawn
ones with the task's own probes, then invalid candidates, then the inputs whose mutants need
an output). A ``JvmReferenceSession`` serves all of them with one compile and one JVM: each
batch after the first reloads the reference's classes in a fresh class loader, so a batch
sees the reference's static state as a fresh JVM would (as when every batch had a JVM of its
own), and the inputs of a batch go in one streamed request (``runs``), each with its own time
limit. The JVM serves this one task's reference only and is killed when the session ends.
"""

from __future__ import annotations

import dataclasses
import threading
import time
from typing import Any

from adequacy.plugin import (
    OVERFLOW_REASON,
    BackendError,
    EngineUnavailable,
    Limits,
    ReferenceOutcome,
    Task,
    lanes,
)

from ...jml.load import find_target, original_source
from ...jml.members import IMMUTABLE_TYPES, SpecFile
from .build import Unit, build_unit
from .runs import CompileGap, ordered_args, post_fields, start_run, unit_key
from .worker import WorkerDied

__all__ = ["JvmReferenceSession", "reference_outcomes", "reference_unit", "run_reference"]

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


#: inputs per request when a batch is shared among lanes (each lane takes the next chunk).
CHUNK = 4
#: seconds a batch runs alone before it looks for an idle lane to help it.
HELP_AFTER = 1.0
#: most lanes (JVMs) one batch uses.
MAX_LANES = 4
#: seconds after which a batch may take one lane beyond the command's limit: a task that long
#: is likely what the whole command ends up waiting for (SGB_IntCube in an import).
LONG_BATCH = 20.0


def stateless(src: SpecFile) -> bool:
    """Whether the task's code keeps no state from one call to the next: no static field
    that can change (a non-final one, or a final array or object) in any class, nested ones
    included, and no enum. Such a reference gives each input the same outcome whichever JVM
    runs it and whatever ran before, so a batch may be shared among JVMs. Read from the
    tokens, so it errs towards "stateful" (the batch then runs in one JVM, in order)."""
    toks = src.java_tokens
    for i, t in enumerate(toks):
        if t.kind == "ident" and t.text == "enum":
            return False
        if not (t.kind == "ident" and t.text == "static"):
            continue
        decl: list[str] = []
        for u in toks[i + 1:]:
            if u.is_op("(", "{") or (u.kind == "ident" and u.text in (
                    "class", "interface", "record")):
                break  # a method, a static initialiser, a nested type: no field here
            if u.is_op(";", "="):
                # a field: final, of a type no method can change (``int``, ``String``)
                words = [w for w in decl if w not in ("final", "private", "public",
                                                      "protected", "transient", "volatile")]
                if "final" not in decl or len(words) != 2 or words[0] not in IMMUTABLE_TYPES:
                    return False
                break
            decl.append(u.text)
    return True


class _Lane:
    """One JVM of a session (``engine.Run``), with the reference loaded."""

    def __init__(self, run: Any) -> None:
        self.run = run
        self.batch = 0
        """The batch whose inputs it runs now (fresh statics at each new one)."""
        self.used = False
        self.busy = False


class JvmReferenceSession:
    """Batches of one task's reference inputs, one compile and one JVM for all of them.

    ``outcomes(inputs)`` answers as a one-batch ``reference_outcomes`` would: the batch's
    inputs in order, the reference's statics fresh at the batch's start, a JVM that dies (or
    asks to be replaced: a runaway thread, a full heap) replaced by a fresh one for the rest.

    A long batch of a ``stateless`` reference may take idle lanes (``adequacy.plugin.lanes``: an
    import's other tasks done, a core unused): helper JVMs of the same reference take chunks
    of the batch's inputs as the first one does, each input with its own time limit, and the
    outcomes are put back in the batch's order. ``close`` kills every JVM of the session; use
    it as a context manager."""

    def __init__(self, task: Task, limits: Limits, unit: Unit | None = None) -> None:
        self.task = task
        self.limits = limits
        self.unit = unit if unit is not None else reference_unit(task)
        self._lanes: list[_Lane] = []
        self._broken: str | None = None
        self._stateless: bool | None = None
        self.batches = 0
        self.helpers = 0
        """Helper lanes started (for tests and benchmarks)."""

    def __enter__(self) -> JvmReferenceSession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        for lane in self._lanes:
            lane.run.close()
        self._lanes = []

    @property
    def stateless(self) -> bool:
        """``stateless(task's code)`` (``adequacy.extensions.backend.ReferenceSession.stateless``)."""
        if self._stateless is None:
            self._stateless = stateless(original_source(self.task))
        return self._stateless

    def outcomes(self, inputs: list[dict[str, Any]], limits: Limits | None = None
                 ) -> list[ReferenceOutcome]:
        """The batch's outcomes; ``limits`` overrides the session's ``case_seconds`` for it
        (the JVM's heap is the session's)."""
        if not inputs:
            return []
        key = unit_key(self.unit)
        if self._broken is not None:
            return [ReferenceOutcome(kind="failed", reason=self._broken)] * len(inputs)
        if not self._lanes:
            lane = self._start(key)
            if lane is None:
                return [ReferenceOutcome(kind="failed", reason=self._broken or "")] * len(inputs)
        self.batches += 1
        seconds = (limits or self.limits).case_seconds
        out: list[ReferenceOutcome | None] = [None] * len(inputs)
        reqs: list[tuple[int, dict[str, Any]]] = []
        timeout_ms = int(seconds * 1000)
        for i, inp in enumerate(inputs):
            try:
                reqs.append((i, {"input": ordered_args(self.task, self.unit, inp),
                                 "timeout_ms": timeout_ms}))
            except (KeyError, BackendError) as e:
                out[i] = ReferenceOutcome(kind="failed", reason=str(e)[:200])
        if len(reqs) > CHUNK and self.stateless:
            self._shared(key, reqs, out, seconds)
        else:
            lane = self._lanes[0]
            self._fresh(lane, key)
            at = 0
            while at < len(reqs):
                at = self._send(lane, key, reqs, at, out, seconds)
        assert all(o is not None for o in out)
        return [o for o in out if o is not None]

    def _start(self, key: str) -> _Lane | None:
        """A new lane: the reference compiled (once per process) and loaded in a fresh JVM."""
        try:
            run = start_run(self.unit, key, None, self.limits)
        except (CompileGap, BackendError) as e:
            if isinstance(e, EngineUnavailable):
                raise
            if not self._lanes:
                self._broken = f"the reference did not compile: {e}"
            return None
        lane = _Lane(run)
        self._lanes.append(lane)
        return lane

    def _fresh(self, lane: _Lane, key: str) -> None:
        """The reference's statics as a fresh JVM has them, for the batch about to start:
        its classes again in a fresh class loader (a new JVM when that fails)."""
        if lane.batch == self.batches:
            return
        lane.batch = self.batches
        if lane.used and not self._reload(lane.run, key):
            lane.run.worker.stop()
        lane.used = True

    def _shared(self, key: str, reqs: list[tuple[int, dict[str, Any]]],
                out: list[ReferenceOutcome | None], seconds: float) -> None:
        """The batch in chunks: the session's first lane takes them in order, helpers (idle
        lanes) join after ``HELP_AFTER`` seconds and take the next ones."""
        chunks = [reqs[i:i + CHUNK] for i in range(0, len(reqs), CHUNK)]
        lock = threading.Lock()
        nxt = [0]
        stop = threading.Event()

        def take() -> list[tuple[int, dict[str, Any]]] | None:
            with lock:
                if nxt[0] >= len(chunks):
                    return None
                nxt[0] += 1
                return chunks[nxt[0] - 1]

        def work(lane: _Lane) -> None:
            self._fresh(lane, key)
            while (chunk := take()) is not None:
                at = 0
                while at < len(chunk):
                    at = self._send(lane, key, chunk, at, out, seconds)

        def helper(lane: _Lane) -> None:
            try:
                work(lane)
            except Exception as e:  # noqa: BLE001 - its chunk's inputs get no outcome
                failed.append(str(e)[:200])
            finally:
                lanes.give_back()

        helpers: list[threading.Thread] = []
        failed: list[str] = []

        started = time.monotonic()

        def watch() -> None:
            while not stop.wait(HELP_AFTER if not helpers else 0.5):
                with lock:
                    left = len(chunks) - nxt[0]
                long = time.monotonic() - started >= LONG_BATCH
                if left < 2 or len(helpers) + 1 >= MAX_LANES or not lanes.try_take(
                        extra=1 if long else 0):
                    if left < 2:
                        return
                    continue
                lane = next((x for x in self._lanes[1:] if not x.busy), None)
                if lane is None:
                    lane = self._start(key)
                if lane is None:
                    lanes.give_back()
                    return
                lane.busy = True
                self.helpers += 1
                t = threading.Thread(target=helper, args=(lane,), daemon=True,
                                     name="rac-reference-lane")
                helpers.append(t)
                t.start()

        for lane in self._lanes:
            lane.busy = False
        self._lanes[0].busy = True
        watcher = threading.Thread(target=watch, daemon=True, name="rac-reference-watch")
        watcher.start()
        try:
            work(self._lanes[0])
        finally:
            stop.set()
            watcher.join()
            for t in helpers:
                t.join()
        for i, o in enumerate(out):
            if o is None and any(i == j for j, _ in reqs):
                out[i] = ReferenceOutcome(kind="failed", reason="a helper JVM's thread "
                                          f"failed: {failed[0] if failed else 'unknown'}")

    def _reload(self, run: Any, key: str) -> bool:
        """The reference's classes again, in a fresh class loader of the same JVM."""
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

    def _send(self, lane: _Lane, key: str, reqs: list[tuple[int, dict[str, Any]]], at: int,
              out: list[ReferenceOutcome | None], seconds: float) -> int:
        """Stream ``reqs[at:]`` in ``lane``; the index of the first one still without an
        outcome."""
        run = lane.run
        part = reqs[at:]
        got = 0
        try:
            for reply in run.stream({"op": "runs", "key": key,
                                     "inputs": [r for _, r in part]}, timeout=seconds + 15):
                if reply.get("missing"):
                    run.worker.loaded.discard(key)
                    if got == 0:  # the spec went missing: this input alone, the old way
                        return at + self._one(run, key, part[0], out, seconds)
                    break
                if "i" not in reply or reply["i"] != got:
                    if "i" in reply:  # out of order: nothing more of this stream is trusted
                        run.worker.stop()
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

    def _one(self, run: Any, key: str, req: tuple[int, dict[str, Any]],
             out: list[ReferenceOutcome | None], seconds: float) -> int:
        try:
            reply = run.request({"op": "run", "key": key, **req[1]}, timeout=seconds + 15)
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
    with JvmReferenceSession(task, limits, unit) as s:
        return s.outcomes(inputs)


def run_reference(unit: Unit, task: Task, inputs: list[dict[str, Any]],
                  limits: Limits) -> list[dict[str, Any] | None]:
    """Outputs of the task's own method on each input (None: threw, timed out or crashed)."""
    return [o.output if o.kind == "returned" else None
            for o in reference_outcomes(unit, task, inputs, limits)]
