"""A task's own Python code (reference, checker, validator, a mutant of the reference), run
only in a limited child process.

Tasks are untrusted input (docs/sandbox.md, "Trust model"): a ``reference.py`` that came with
a downloaded benchmark is a stranger's code, so it is never imported into our process. One
sandboxed worker per thread of use (``pycode_child.py``: the system Python, ``-I -S -B``, no
network, nothing of the file system but the interpreter and its standard library, memory and
process limits) receives the module's source as text and runs each batch of calls in a
forked child, every call on a fresh module, so no state of one call reaches the next, no
output of the code can pass for a reply, and a call that loops is killed at its deadline
while the worker lives on.

``TaskFunction(path, name)`` is the handle: ``load()`` checks that the file imports and
defines the function (a ``TaskError`` naming the file and line otherwise), ``call_many``
returns one ``CodeOutcome`` per argument list, and calling the handle like the function
returns the value or raises ``CodeThrew`` / ``CodeTimeout`` / ``CodeFailed``, so oracles
written against a plain function keep working.
"""

from __future__ import annotations

import hashlib
import json
import math
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from adequacy.errors import BackendError, TaskError, WorkerDied
from adequacy.sandbox.mounts import View
from adequacy.sandbox.run import SandboxLimits
from adequacy.sandbox.worker import JsonLineWorker, Launch, renew_after_fork

__all__ = ["CodeFailed", "CodeOutcome", "CodeThrew", "CodeTimeout", "TaskFunction",
           "run_source"]

CHILD = Path(__file__).with_name("pycode_child.py")
#: seconds one call may take unless the caller says otherwise.
CALL_SECONDS = 5.0
#: seconds importing the module may take (checked once per source).
LOAD_SECONDS = 20.0
#: calls sent to the worker in one request (its reply is one line).
CHUNK = 64
MEMORY_MB = 1024


class CodeThrew(Exception):  # noqa: N818 - named for what the code did
    """The task's code raised an exception of its own on this call (data, not our failure)."""

    def __init__(self, reason: str, type_name: str = "") -> None:
        super().__init__(reason)
        self.reason = reason
        self.type_name = type_name or reason.split(":", 1)[0]


class CodeTimeout(TimeoutError):
    """The call did not finish within its seconds (it was killed)."""


class CodeFailed(Exception):  # noqa: N818
    """No outcome: a crash, out of memory, a deep recursion, ``exit()``, a value JSON cannot
    hold, or a worker that could not run it."""


@dataclass(frozen=True)
class CodeOutcome:
    kind: Literal["returned", "threw", "timeout", "failed"]
    value: Any = None
    reason: str = ""
    type_name: str = ""
    """The exception's class (``threw``)."""

    def unwrap(self) -> Any:
        """The value, or the exception that says why there is none."""
        if self.kind == "returned":
            return self.value
        if self.kind == "threw":
            raise CodeThrew(self.reason, self.type_name)
        if self.kind == "timeout":
            raise CodeTimeout(self.reason or "the call did not finish in time")
        raise CodeFailed(self.reason or "no outcome")


def _launch() -> Launch:
    from adequacy.sandbox import exec_lock

    found = exec_lock.python()
    if found is None:
        raise BackendError("no Python interpreter to run the task's Python code in the sandbox")
    exe, needs = found
    source = CHILD.read_text(encoding="utf-8")
    limits = SandboxLimits(memory_mb=MEMORY_MB, cpu_seconds=None, file_size_mb=1,
                           open_files=64, processes=8)
    return [exe, "-I", "-S", "-B", "-c", source], limits, View(ro=needs)


class _Worker(JsonLineWorker):
    def __init__(self) -> None:
        super().__init__("task code worker", _launch, start_seconds=60.0,
                         workdir_prefix="adequacy-pycode-")
        self.loaded: set[str] = set()

    def on_start(self) -> None:
        self.loaded = set()


class _Pool:
    """Idle workers; one is taken per request batch and given back (threads never share one)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.idle: list[_Worker] = []

    def take(self) -> _Worker:
        with self.lock:
            return self.idle.pop() if self.idle else _Worker()

    def give(self, w: _Worker) -> None:
        with self.lock:
            if len(self.idle) < 4:
                self.idle.append(w)
                return
        w.stop()

    def stop_all(self) -> None:
        with self.lock:
            idle, self.idle = self.idle, []
        for w in idle:
            w.stop()


POOL = _Pool()
renew_after_fork(POOL)


def _outcome(raw: Any) -> CodeOutcome:
    if not isinstance(raw, dict):
        return CodeOutcome("failed", reason="unreadable outcome")
    kind = raw.get("kind")
    if kind == "returned":
        return CodeOutcome("returned", value=raw.get("value"))
    if kind == "threw":
        return CodeOutcome("threw", reason=str(raw.get("reason", ""))[:200],
                           type_name=str(raw.get("type", ""))[:80])
    if kind == "timeout":
        return CodeOutcome("timeout", reason="the call did not finish in time")
    return CodeOutcome("failed", reason=str(raw.get("reason", "no outcome"))[:200])


class TaskFunction:
    """One function of one Python source (a task's file, or a mutant's text), run sandboxed.

    ``display`` names the file in messages (``reference/reference.py``)."""

    def __init__(self, path: Path | None, function: str, *, source: str | None = None,
                 seconds: float = CALL_SECONDS, display: str | None = None) -> None:
        if source is None:
            if path is None:
                raise ValueError("a path or a source")
            try:
                source = path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as e:
                raise TaskError(f"cannot read: {e}", file=str(path)) from None
        self.path = path
        self.function = function
        self.source = source
        self.seconds = seconds
        self.display = display or (str(path) if path is not None else "<source>")
        self.key = hashlib.sha256(json.dumps([source, function]).encode()).hexdigest()[:32]
        self.checked = False

    def _ensure(self, w: _Worker) -> None:
        if self.key in w.loaded and w.alive():
            return
        if not w.alive():
            w.stop()
            w.start()
        r = w.request({"op": "load", "key": self.key, "source": self.source,
                       "file": self.path.name if self.path else "<source>",
                       "function": self.function, "seconds": LOAD_SECONDS},
                      LOAD_SECONDS + 15)
        if not r.get("ok"):
            line = r.get("line")
            raise TaskError(f"importing failed: {r.get('error', 'unknown error')}",
                            file=self.display, line=line if isinstance(line, int) else None)
        w.loaded.add(self.key)
        self.checked = True

    def load(self) -> TaskFunction:
        """Check that the source imports and defines the function (``TaskError`` naming the
        file and line otherwise); returns self."""
        w = POOL.take()
        try:
            self._ensure(w)
        except WorkerDied as e:
            w.stop()
            raise TaskError(f"importing failed: {e}", file=self.display) from None
        finally:
            if w.alive():
                POOL.give(w)
        return self

    def call_many(self, calls: Sequence[Sequence[Any]], seconds: float | None = None
                  ) -> list[CodeOutcome]:
        """One outcome per argument list, in order. A worker that dies or hangs (the code
        killed it, a limit of ours) gives ``failed`` for the calls it held; the next request
        starts a fresh one."""
        secs = float(seconds if seconds is not None else self.seconds)
        secs = secs if math.isfinite(secs) and secs > 0 else CALL_SECONDS
        out: list[CodeOutcome] = []
        for at in range(0, len(calls), CHUNK):
            chunk = [list(c) for c in calls[at:at + CHUNK]]
            out += self._chunk(chunk, secs)
        return out

    def _chunk(self, chunk: list[list[Any]], secs: float) -> list[CodeOutcome]:
        w = POOL.take()
        try:
            for _attempt in range(2):
                self._ensure(w)
                try:
                    r = w.request({"op": "calls", "key": self.key, "calls": chunk,
                                   "seconds": secs}, len(chunk) * (secs + 1.0) + 15.0)
                except WorkerDied as e:
                    if len(chunk) == 1:
                        return [CodeOutcome("failed", reason=f"the worker died: {e}")]
                    # one call killed the worker (the code can signal its parent): each call
                    # again on its own, so only that call loses its word
                    w.stop()
                    return [self._chunk([c], secs)[0] for c in chunk]
                if r.get("unloaded"):
                    w.loaded.discard(self.key)
                    continue
                outs = r.get("outcomes")
                if not r.get("ok") or not isinstance(outs, list) or len(outs) != len(chunk):
                    return [CodeOutcome("failed", reason=str(r.get("error", r))[:200])
                            ] * len(chunk)
                return [_outcome(o) for o in outs]
            return [CodeOutcome("failed", reason="the worker lost the code")] * len(chunk)
        except (TypeError, ValueError) as e:  # arguments JSON cannot carry
            return [CodeOutcome("failed", reason=f"cannot send the arguments: {e}")] * len(chunk)
        finally:
            if w.alive():
                POOL.give(w)
            else:
                w.stop()

    def __call__(self, *args: Any) -> Any:
        return self.call_many([args])[0].unwrap()


def run_source(source: str, function: str, calls: Sequence[Sequence[Any]], *,
               seconds: float = CALL_SECONDS, display: str = "<source>") -> list[CodeOutcome]:
    """``call_many`` of a source text that is not a file (a mutant of a reference): a source
    that does not import gives ``failed`` for every call, with the reason."""
    f = TaskFunction(None, function, source=source, seconds=seconds, display=display)
    try:
        f.load()
    except TaskError as e:
        return [CodeOutcome("failed", reason=f"does not import: {e}")] * len(calls)
    return f.call_many(calls, seconds)
