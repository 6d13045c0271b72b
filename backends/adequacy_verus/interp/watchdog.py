"""A hard stop for one case: an exception delivered into the evaluating thread at 1.5x its time.

The budget (``runtime.Budget``) is cooperative: it is looked at every 1024 steps and before
each built-in that says what it costs. Work that no step pays for (hashing a long tuple inside
a ``set!`` literal, comparing nested sequences, one closure call that costs milliseconds)
could still run long between two looks. CPython lets one thread raise an exception in another
(``PyThreadState_SetAsyncExc``); it arrives at the thread's next bytecode, so after at most one
C call, and every large C call is priced and refused by the budget beforehand. The exception
is an ``Abort``, which nothing in the evaluator absorbs, so the case ends ``unknown``.
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


def _set_async_exc(tid: int, exc: type[BaseException] | None) -> None:
    """``exc`` raised in thread ``tid`` at its next bytecode; None withdraws a pending one."""
    ctypes.pythonapi.PyThreadState_SetAsyncExc(
        ctypes.c_ulong(tid), ctypes.py_object(exc) if exc is not None else None)


class _Monitor:
    """One daemon thread for every watchdog of the process: arming a case is a dictionary
    entry and a notify, not a thread start (a ``threading.Timer`` per case cost about 0.3 ms,
    ten times the evaluation of a typical case)."""

    def __init__(self) -> None:
        self.cond = threading.Condition()
        self.armed: dict[int, tuple[float, int]] = {}
        """token -> (deadline on the monotonic clock, id of the evaluating thread)"""
        self.count = 0
        self.thread: threading.Thread | None = None

    def arm(self, seconds: float) -> int:
        with self.cond:
            self.count += 1
            self.armed[self.count] = (time.monotonic() + seconds, threading.get_ident())
            if self.thread is None or not self.thread.is_alive():
                self.thread = threading.Thread(target=self._run, name="interp-watchdog",
                                               daemon=True)
                self.thread.start()
            self.cond.notify()
            return self.count

    def disarm(self, token: int) -> None:
        """Under the lock the firing thread holds: once this returns, no exception of this
        token can arrive (one still pending is withdrawn)."""
        with self.cond:
            entry = self.armed.pop(token, None)
            tid = entry[1] if entry is not None else threading.get_ident()
            _set_async_exc(tid, None)

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
    exception arrives after it returns (a pending one is withdrawn)."""

    def __init__(self, seconds: float) -> None:
        self.token = _MONITOR.arm(seconds)

    def disarm(self) -> None:
        _MONITOR.disarm(self.token)


__all__ = ["Overrun", "Watchdog"]
