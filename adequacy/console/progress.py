"""Progress of one long command on stderr, shown only when stderr is a terminal.

Scoring hundreds of cases, proving with KeY or verifying can take minutes; a silent terminal
looks hung. The CLI opens a display (``terminal``); the runner opens one bar per engine run
(``engine_task``) and engines call ``advance`` per finished case. Without a display (a pipe, a
batch worker, a library caller) every call is a no-op, so engines need no flag.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from contextvars import ContextVar
from typing import Any

_display: ContextVar[Any] = ContextVar("adequacy_progress_display", default=None)
_task: ContextVar[Any] = ContextVar("adequacy_progress_task", default=None)


@contextlib.contextmanager
def terminal(enabled: bool = True) -> Iterator[None]:
    """Show progress for the duration of the block if stderr is a terminal."""
    if not enabled or not sys.stderr.isatty() or _display.get() is not None:
        yield
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        SpinnerColumn,
        TextColumn,
        TimeElapsedColumn,
    )
    p = Progress(SpinnerColumn(), TextColumn("{task.description}"), BarColumn(),
                 MofNCompleteColumn(), TimeElapsedColumn(),
                 console=Console(file=sys.stderr), transient=True)
    token = _display.set(p)
    p.start()
    try:
        yield
    finally:
        p.stop()
        _display.reset(token)


@contextlib.contextmanager
def engine_task(engine: str, cases: int) -> Iterator[None]:
    """One bar for one engine on ``cases`` cases."""
    p = _display.get()
    if p is None:
        yield
        return
    tid = p.add_task(f"{engine}: {cases} cases", total=cases)
    token = _task.set(tid)
    try:
        yield
    finally:
        _task.reset(token)
        p.update(tid, completed=cases)


def advance(n: int = 1) -> None:
    """An engine finished ``n`` more cases (no-op without a display)."""
    p = _display.get()
    tid = _task.get()
    if p is not None and tid is not None:
        p.advance(tid, n)


@contextlib.contextmanager
def phase(description: str) -> Iterator[None]:
    """A step without a case count (a proof): a pulsing bar with the elapsed time."""
    p = _display.get()
    if p is None:
        yield
        return
    tid = p.add_task(description, total=None)
    try:
        yield
    finally:
        p.remove_task(tid)
