"""Lanes of CPU-bound work in one command: how many may be busy at once, and who may add one.

A command that works on several tasks at once (``adequacy import``: ``--jobs N`` tasks, each
running its reference in a JVM) keeps N lanes busy. Near its end fewer tasks remain than
lanes: a task whose batch of reference inputs is long may then take the idle lanes for
helpers (more JVMs on the same batch) instead of leaving cores unused while it finishes
alone. ``held`` marks a lane busy for the duration of a task; ``try_take`` / ``give_back``
add and end a helper (a batch that has run long may take one lane more than the limit: it
is what the command waits for). Without ``configure`` the limit is one lane, so library callers never
get helpers they did not ask for.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator

_lock = threading.Lock()
_limit = 1
_busy = 0


@contextlib.contextmanager
def limit(n: int) -> Iterator[None]:
    """At most ``n`` lanes busy during the block (nested blocks: the innermost holds)."""
    global _limit
    with _lock:
        old, _limit = _limit, max(1, n)
    try:
        yield
    finally:
        with _lock:
            _limit = old


@contextlib.contextmanager
def held() -> Iterator[None]:
    """One lane busy for the block: a task's own work, which always runs (it never waits)."""
    global _busy
    with _lock:
        _busy += 1
    try:
        yield
    finally:
        with _lock:
            _busy -= 1


def try_take(extra: int = 0) -> bool:
    """Take an idle lane for a helper; False when every lane is busy. ``extra``: lanes it
    may take beyond the limit (a batch on the critical path: the one that has run long)."""
    global _busy
    with _lock:
        if _busy >= _limit + extra:
            return False
        _busy += 1
        return True


def give_back() -> None:
    """End a helper that ``try_take`` allowed."""
    global _busy
    with _lock:
        _busy = max(0, _busy - 1)


def idle() -> int:
    """Lanes free now (for tests and benchmarks)."""
    with _lock:
        return max(0, _limit - _busy)
