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
import threading

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


class Watchdog:
    """Armed around one case on the evaluating thread; ``disarm`` guarantees that no
    exception arrives after it returns (a pending one is withdrawn)."""

    def __init__(self, seconds: float) -> None:
        self.tid = threading.get_ident()
        self.lock = threading.Lock()
        self.armed = True
        self.timer = threading.Timer(seconds, self._fire)
        self.timer.daemon = True
        self.timer.start()

    def _fire(self) -> None:
        with self.lock:
            if self.armed:
                _set_async_exc(self.tid, Overrun)

    def disarm(self) -> None:
        self.timer.cancel()
        with self.lock:
            if self.armed:
                self.armed = False
                _set_async_exc(self.tid, None)


__all__ = ["Overrun", "Watchdog"]
