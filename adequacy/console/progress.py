"""Progress of one long command on stderr: a live display on a terminal, plain lines in a pipe.

Importing a dataset, building a harness with cargo or proving with KeY takes minutes; a silent
command looks hung, and in a pipe (CI logs, ``2>log``, a notebook) a live bar shows nothing.
So the CLI opens a display for a command (``terminal``) and the work reports into it:

- ``steps(description, total)``: a loop over known items (tasks, pairs), ``advance`` per item;
- ``phase(description)``: one step of unknown length (a cargo build, a proof);
- ``engine_task`` / ``advance``: the runner's bar per engine run, advanced by engines per case.

On a terminal that is a rich live display. Anywhere else it is one line per report, at most
one every ``ADEQUACY_PROGRESS_EVERY`` seconds (5 by default) per step, with a heartbeat for a
step that has gone quiet that long, and a closing line for a step that printed anything. A step
that ends sooner prints nothing, so quick commands stay quiet. ``ADEQUACY_PROGRESS`` (``auto``,
``bar``, ``lines``, ``off``) or ``set_mode`` (the CLI's ``--quiet``) overrides the choice.

Progress goes to stderr only: stdout carries results and JSON. Without a display (a library
caller, a batch worker) every call is a no-op, so the work needs no flag.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import time
from collections.abc import Iterator
from contextvars import ContextVar
from typing import Any, Literal, TextIO

Mode = Literal["bar", "lines", "off"]
MODES = ("auto", "bar", "lines", "off")

_display: ContextVar[Any] = ContextVar("adequacy_progress_display", default=None)
_task: ContextVar[Any] = ContextVar("adequacy_progress_task", default=None)
_forced: Mode | None = None
_open: list[Any] = []
"""Displays open in this process: a thread the command started (a pool worker, a thread
that starts JVMs) does not inherit the context variable, yet its steps belong to the
command's display."""


def _current() -> Any:
    d = _display.get()
    if d is None and _open:
        d = _open[-1]
    # a process forked from the command's (a batch worker) has a copy of the display, not the
    # display: its work is the parent's to report
    return d if d is not None and d.pid == os.getpid() else None


#: seconds between two lines of one step in a pipe (and before a quiet step's heartbeat).
DEFAULT_EVERY = 5.0


def set_mode(mode: str | None) -> None:
    """Force a mode for this process (``--quiet`` is ``off``); None: back to automatic."""
    global _forced
    if mode not in (None, "auto", "bar", "lines", "off"):
        raise ValueError(f"progress mode {mode!r}: expected one of {', '.join(MODES)}")
    _forced = None if mode in (None, "auto") else mode  # type: ignore[assignment]


def mode(stream: TextIO | None = None) -> Mode:
    """The mode a display opened now would use: forced, else ``$ADEQUACY_PROGRESS``, else a
    bar on a terminal and lines elsewhere (an unknown value of the variable counts as auto)."""
    if _forced is not None:
        return _forced
    env = os.environ.get("ADEQUACY_PROGRESS", "auto").strip().lower()
    if env in ("bar", "lines", "off"):
        return env  # type: ignore[return-value]
    return "bar" if _isatty(stream if stream is not None else sys.stderr) else "lines"


def _isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def every_seconds() -> float:
    """``$ADEQUACY_PROGRESS_EVERY`` (seconds, >= 0), else ``DEFAULT_EVERY``."""
    try:
        v = float(os.environ.get("ADEQUACY_PROGRESS_EVERY", DEFAULT_EVERY))
    except ValueError:
        return DEFAULT_EVERY
    return v if v >= 0 else DEFAULT_EVERY


def active() -> bool:
    """Whether a display is open (callers may skip building a description otherwise)."""
    return _current() is not None


@contextlib.contextmanager
def terminal(enabled: bool = True) -> Iterator[None]:
    """Show progress on stderr for the duration of the block (see the module's docstring);
    ``enabled=False`` (a command's ``--no-progress``) shows none. Nested calls reuse the
    display already open."""
    if not enabled or _current() is not None:
        yield
        return
    m = mode()
    if m == "off":
        yield
        return
    display: _Bar | _Lines = _Bar() if m == "bar" else _Lines(sys.stderr, every_seconds())
    token = _display.set(display)
    _open.append(display)
    display.start()
    try:
        yield
    finally:
        display.stop()
        _open.remove(display)
        _display.reset(token)


class Steps:
    """A handle on one counted step: ``advance`` per finished item, ``note`` for the item in
    hand (the task being generated). A no-op without a display."""

    def __init__(self, display: Any = None, tid: Any = None) -> None:
        self._display = display
        self._tid = tid

    def advance(self, n: int = 1, note: str | None = None) -> None:
        if self._display is not None:
            self._display.advance(self._tid, n, note)

    def note(self, text: str) -> None:
        if self._display is not None:
            self._display.note(self._tid, text)


@contextlib.contextmanager
def steps(description: str, total: int | None, unit: str = "") -> Iterator[Steps]:
    """A counted step (``total`` items; None when unknown). ``unit`` names the items in lines
    (``tasks``)."""
    d = _current()
    if d is None:
        yield Steps()
        return
    tid = d.add(description, total, unit)
    try:
        yield Steps(d, tid)
    finally:
        d.remove(tid)


@contextlib.contextmanager
def engine_task(engine: str, cases: int) -> Iterator[None]:
    """One bar for one engine on ``cases`` cases (``advance`` moves it)."""
    d = _current()
    if d is None:
        yield
        return
    tid = d.add(f"{engine}: {cases} cases", cases, "cases")
    token = _task.set(tid)
    try:
        yield
    finally:
        _task.reset(token)
        d.remove(tid, complete=True)  # the run is over: every case has its verdict


def advance(n: int = 1) -> None:
    """An engine finished ``n`` more cases (no-op without a display)."""
    d = _current()
    tid = _task.get()
    if d is not None and tid is not None:
        d.advance(tid, n, None)


@contextlib.contextmanager
def phase(description: str) -> Iterator[None]:
    """A step without a count (a proof, a build): a pulsing bar with the elapsed time, or in
    a pipe a line once it has lasted a while, a heartbeat while it lasts, and its duration."""
    d = _current()
    if d is None:
        yield
        return
    tid = d.add(description, None, "")
    try:
        yield
    finally:
        d.remove(tid)


def say(text: str, style: str | None = None) -> bool:
    """Print one line on stderr without breaking the display (a warning in the middle of a
    long step); False when no display is open, and the caller prints it itself."""
    d = _current()
    if d is None:
        return False
    d.say(text, style)
    return True


# -- the two displays ----------------------------------------------------------------------


class _Bar:
    """rich's live display on the terminal (transient: gone when the command ends)."""

    def __init__(self) -> None:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            SpinnerColumn,
            TextColumn,
            TimeElapsedColumn,
        )
        # what the command prints meanwhile goes above the display; stdout only when it is a
        # terminal too (a redirected stdout must keep every line, never see them moved)
        self.p = Progress(SpinnerColumn(), TextColumn("{task.description}"), BarColumn(),
                          MofNCompleteColumn(), TimeElapsedColumn(),
                          console=Console(file=sys.stderr), transient=True,
                          redirect_stdout=_isatty(sys.stdout), redirect_stderr=True)
        self.desc: dict[Any, str] = {}
        self.pid = os.getpid()

    def start(self) -> None:
        self.p.start()

    def stop(self) -> None:
        self.p.stop()

    def add(self, description: str, total: int | None, unit: str) -> Any:
        tid = self.p.add_task(description, total=total)
        self.desc[tid] = description
        return tid

    def advance(self, tid: Any, n: int, note: str | None) -> None:
        self.p.advance(tid, n)
        if note is not None:
            self.note(tid, note)

    def note(self, tid: Any, text: str) -> None:
        self.p.update(tid, description=f"{self.desc.get(tid, '')} {text}".strip())

    def remove(self, tid: Any, complete: bool = False) -> None:
        self.desc.pop(tid, None)
        self.p.remove_task(tid)

    def say(self, text: str, style: str | None) -> None:
        from rich.text import Text

        self.p.console.print(Text(text, style=style or ""), soft_wrap=True, highlight=False)


class _Step:
    __slots__ = ("description", "total", "unit", "done", "note", "start", "last", "printed")

    def __init__(self, description: str, total: int | None, unit: str, now: float) -> None:
        self.description, self.total, self.unit = description, total, unit
        self.done = 0
        self.note = ""
        self.start = self.last = now
        self.printed = False


def _seconds(s: float) -> str:
    if s < 60:
        return f"{s:.0f} s"
    m, sec = divmod(int(s + 0.5), 60)
    return f"{m} min {sec:02d} s" if m < 60 else f"{m // 60} h {m % 60:02d} min"


class _Lines:
    """Plain lines for a pipe: rate-limited per step, a heartbeat for a quiet step (from a
    daemon thread), a closing line for a step that printed anything."""

    def __init__(self, stream: TextIO, every: float) -> None:
        self.stream = stream
        self.every = every
        self.lock = threading.Lock()
        self.steps: dict[int, _Step] = {}
        self.next_id = 0
        self.stopped = threading.Event()
        self.thread: threading.Thread | None = None
        self.pid = os.getpid()

    def start(self) -> None:
        self.thread = threading.Thread(target=self._heartbeat, daemon=True,
                                       name="adequacy-progress")
        self.thread.start()

    def stop(self) -> None:
        self.stopped.set()
        if self.thread is not None:
            self.thread.join(timeout=2.0)

    def add(self, description: str, total: int | None, unit: str) -> int:
        with self.lock:
            tid = self.next_id
            self.next_id += 1
            s = _Step(description, total, unit, time.monotonic())
            self.steps[tid] = s
            if self.every == 0:
                self._emit(s, s.start)
            return tid

    def advance(self, tid: int, n: int, note: str | None) -> None:
        with self.lock:
            s = self.steps.get(tid)
            if s is None:
                return
            s.done += n
            if note is not None:
                s.note = note
            now = time.monotonic()
            if now - s.last >= self.every:
                self._emit(s, now)

    def note(self, tid: int, text: str) -> None:
        with self.lock:
            s = self.steps.get(tid)
            if s is not None:
                s.note = text

    def remove(self, tid: int, complete: bool = False) -> None:
        with self.lock:
            s = self.steps.pop(tid, None)
            if s is None or not s.printed:
                return
            if complete and s.total is not None:
                s.done = s.total
            now = time.monotonic()
            count = (f"{s.done}/{s.total}{' ' + s.unit if s.unit else ''}, "
                     if s.total is not None else "")
            self._write(f"{s.description}: done, {count}{_seconds(now - s.start)}")

    def say(self, text: str, style: str | None) -> None:
        with self.lock:
            self._write(text)

    def _heartbeat(self) -> None:
        tick = max(0.2, min(1.0, self.every / 2 or 0.2))
        while not self.stopped.wait(tick):
            with self.lock:
                now = time.monotonic()
                for s in list(self.steps.values()):
                    if now - s.last >= max(self.every, 0.5):
                        self._emit(s, now)

    def _emit(self, s: _Step, now: float) -> None:
        """One line for ``s`` (under the lock)."""
        s.last = now
        s.printed = True
        parts = [s.description + ":"]
        if s.total is not None:
            parts.append(f"{s.done}/{s.total}{' ' + s.unit if s.unit else ''}")
            if 0 < s.done < s.total and now - s.start >= 1:
                left = (now - s.start) / s.done * (s.total - s.done)
                parts.append(f"({_seconds(now - s.start)}, about {_seconds(left)} left)")
            else:
                parts.append(f"({_seconds(now - s.start)})")
        else:
            parts.append(f"running, {_seconds(now - s.start)}")
        if s.note:
            parts.append(s.note)
        self._write(" ".join(parts))

    def _write(self, line: str) -> None:
        try:
            self.stream.write(line + "\n")
            self.stream.flush()
        except (OSError, ValueError):  # a closed pipe must not end the work
            pass
