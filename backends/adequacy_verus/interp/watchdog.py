"""A hard stop for one case: an exception delivered into the evaluating thread at 1.5x its time.

The budget (``runtime.Budget``) is cooperative: it is looked at every 1024 steps and before
each built-in that says what it costs. Work that no step pays for (hashing a long tuple inside
a ``set!`` literal, comparing nested sequences, one closure call that costs milliseconds)
could still run long between two looks. CPython lets one thread raise an exception in another
(``PyThreadState_SetAsyncExc``); it arrives at the thread's next bytecode, so after at most one
C call, and every large C call is priced and refused by the budget beforehand. The exception
is an ``Abort``, which nothing in the evaluator absorbs, so the case ends ``unknown``.

An exception sent to a thread arrives wherever that thread is, so the evaluating thread takes
the monitor's lock only through the C lock itself (a ``with`` on it cannot be cut between
acquiring and releasing, where the Python-level ``Condition.__enter__``/``__exit__`` can and
would leave the lock held for good), and a sent exception is never withdrawn: withdrawing
(``PyThreadState_SetAsyncExc(tid, NULL)``) leaves CPython's eval breaker raised, so every
later call and loop of the process takes the slow path, and under a tracer (coverage, a
debugger) the thread spins forever on its next call. A case that finishes after its exception
was sent lets the exception arrive in ``disarm`` and drops it there.
"""

from __future__ import annotations

import ctypes
import os
import threading
import time

from .values import Abort


class Overrun(Abort):
    """Raised in the evaluating thread by the watchdog (CPython instantiates it without
    arguments, so the message is fixed here)."""

    def __init__(self) -> None:
        super().__init__("timeout: the case ran past 1.5 times its time limit (stopped by "
                         "the watchdog)")


def _set_async_exc(tid: int, exc: type[BaseException]) -> None:
    """``exc`` raised in thread ``tid`` at its next bytecode (never withdrawn: see above)."""
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(tid), ctypes.py_object(exc))


class _Monitor:
    """One daemon thread for every watchdog of the process: arming a case is a dictionary
    entry and a notify, not a thread start (a ``threading.Timer`` per case cost about 0.3 ms,
    ten times the evaluation of a typical case)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.cond = threading.Condition(self.lock)
        """The monitor thread waits on it; the evaluating threads take ``lock`` directly."""
        self.armed: dict[int, tuple[float, int]] = {}
        """token -> (deadline on the monotonic clock, id of the evaluating thread)"""
        self.count = 0
        self.thread: threading.Thread | None = None

    def arm(self, seconds: float) -> int:
        with self.lock:
            self.count += 1
            self.armed[self.count] = (time.monotonic() + seconds, threading.get_ident())
            if self.thread is None or not self.thread.is_alive():
                self.thread = threading.Thread(target=self._run, name="interp-watchdog",
                                               daemon=True)
                self.thread.start()
            self.cond.notify()
            return self.count

    def disarm(self, token: int) -> None:
        """Once this returns, no exception of this token can arrive: still armed, it is taken
        off under the lock the firing thread holds; already sent, it arrives here (or has
        arrived) and is dropped."""
        with self.lock:
            fired = self.armed.pop(token, None) is None
        if fired:
            try:  # noqa: SIM105 - suppress() would run Python code where it could arrive first
                _let_it_arrive()
            except Overrun:
                pass

    def _run(self) -> None:
        with self.cond:
            while True:
                if not self.armed:
                    self.cond.wait()
                    continue
                token, (deadline, tid) = min(self.armed.items(), key=lambda kv: kv[1][0])
                wait = deadline - time.monotonic()
                if wait > 0:
                    self.cond.wait(wait)
                    continue
                del self.armed[token]
                _set_async_exc(tid, Overrun)


def _let_it_arrive() -> None:
    """A few loop rounds: a pending exception is raised at the first backward jump."""
    for _ in range(8):
        pass


_MONITOR = _Monitor()


def _fresh_monitor_in_child() -> None:
    """A forked child (the batch's process pool forks) inherits the monitor without its
    thread, and with its lock possibly held by that thread at the fork: arming would wait
    forever. The child starts with a monitor of its own."""
    global _MONITOR
    _MONITOR = _Monitor()


os.register_at_fork(after_in_child=_fresh_monitor_in_child)


class Watchdog:
    """Armed around one case on the evaluating thread; ``disarm`` guarantees that no
    exception arrives after it returns (a pending one arrives in it and is dropped)."""

    def __init__(self, seconds: float) -> None:
        self.token = _MONITOR.arm(seconds)

    def disarm(self) -> None:
        _MONITOR.disarm(self.token)


__all__ = ["Overrun", "Watchdog"]
