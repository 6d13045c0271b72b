"""What the interp compiler and the quantifier compiler share: compiled code's type, the
evaluation budget, lexical scopes, compiled functions and the bool check of three-valued logic.

A module of its own so that ``compiler`` (which compiles quantifiers through ``quant``) and
``quant`` (which needs these) import each other's needs at the top level without a cycle:
``runtime`` <- ``quant`` <- ``compiler``.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..syntax import ast as A
from .values import Abort, Undef, show

Code = Callable[[list[Any]], Any]


class CompileError(Exception):
    """A name that resolves to nothing: the spec is wrong, not merely unsupported."""

    def __init__(self, message: str, line: int | None) -> None:
        self.message = message
        self.line = line
        super().__init__(f"line {line}: {message}" if line else message)


MB = 1024 * 1024
STEP_SECONDS = 1e-6
"""About what one step costs (one spec call, one quantifier instance, 128 copied elements or
8 hashed ones): a built-in about to charge more steps than fit before the deadline (with
half the case's time as slack) is refused at once instead of overrunning the case limit."""


def _rss_reader() -> Callable[[], int] | None:
    """Resident set size of this process in bytes (Linux ``/proc/self/statm``, ~2 us), or
    None where there is no such file (then only the estimates below guard memory)."""
    try:
        fd = os.open("/proc/self/statm", os.O_RDONLY)
        page = os.sysconf("SC_PAGE_SIZE")
        int(os.pread(fd, 64, 0).split()[1])
    except (OSError, ValueError, IndexError, AttributeError):
        return None

    def rss() -> int:
        return int(os.pread(fd, 64, 0).split()[1]) * page
    return rss


rss_bytes = _rss_reader()


class Budget:
    """Step, time, depth and memory limits of one evaluation.

    interp runs inside our own process (a batch worker, the MCP server), so nothing outside it
    can stop a case: every limit is checked here, before the work it would pay for. Steps are
    charged by spec calls, closure calls and quantifier instances, and by built-ins in
    proportion to the elements they produce or visit (``charge``); every 1024 steps the clock
    and the process's resident memory are looked at. Memory is the growth of the resident set
    since the case started, plus (``reserve``) the estimated size of what a built-in is about
    to allocate, so one ``Set::range`` cannot jump past the cap between two looks."""

    __slots__ = ("steps", "limit", "deadline", "depth", "max_depth", "seconds", "mem_limit",
                 "rss0")

    def __init__(self, steps: int, seconds: float, max_depth: int = 20000,
                 memory_mb: int | None = None) -> None:
        self.steps = 0
        self.limit = steps
        self.seconds = seconds
        self.deadline = time.monotonic() + seconds
        self.depth = 0
        self.max_depth = max_depth
        self.mem_limit = memory_mb * MB if memory_mb is not None and rss_bytes else None
        self.rss0 = rss_bytes() if self.mem_limit is not None and rss_bytes else 0

    def tick(self, n: int = 1) -> None:
        self.steps += n
        if self.steps > self.limit:
            raise Abort(f"step limit ({self.limit} steps) exceeded")
        if time.monotonic() > self.deadline:
            raise Abort(f"timeout after {self.seconds:g}s")
        if self.mem_limit is not None:
            self.reserve(0, "evaluation")

    def charge(self, n: int) -> None:
        """Pay ``n`` steps before doing their work; looks at the limits every 1024 steps, and
        refuses at once work that could not finish before the deadline (plus half the case
        time), so that a single built-in call cannot overshoot the case limit twofold."""
        s = self.steps
        self.steps = s + n
        if (s >> 10) != (self.steps >> 10):
            if n >= 1024 and time.monotonic() + n * STEP_SECONDS > (
                    self.deadline + self.seconds / 2):
                raise Abort(f"timeout after {self.seconds:g}s (a built-in of about {n} steps "
                            "would run past it)")
            self.tick(0)

    def reserve(self, nbytes: int, what: str) -> None:
        """Refuse (``Abort``, "out of memory") when the resident set's growth since the case
        started, plus ``nbytes`` about to be allocated, would pass the memory limit."""
        if self.mem_limit is None or rss_bytes is None:
            return
        grown = rss_bytes() - self.rss0
        if grown + nbytes > self.mem_limit:
            need = f"; {what} needs about {nbytes // MB} MiB more" if nbytes >= MB else ""
            raise Abort(f"out of memory: the case grew by {max(grown, 0) // MB} MiB{need} "
                        f"(memory limit {self.mem_limit // MB} MiB)")


_LOCAL = threading.local()


def current() -> Budget | None:
    """The budget of the evaluation running on this thread (``Program.call_fn`` sets it), for
    built-ins, which have no program at hand."""
    return getattr(_LOCAL, "budget", None)


def set_current(b: Budget | None) -> Budget | None:
    """Install ``b`` for this thread; returns the previous one (to restore)."""
    old = getattr(_LOCAL, "budget", None)
    _LOCAL.budget = b
    return old


class Scope:
    """Lexical names -> frame slots (and written types, when known) within one function."""

    def __init__(self, counter: list[int], parent: Scope | None = None) -> None:
        self.vars: dict[str, tuple[int, A.TypeRef | None]] = {}
        self.parent = parent
        self.counter = counter

    def child(self) -> Scope:
        return Scope(self.counter, self)

    def bind(self, name: str, ty: A.TypeRef | None = None) -> int:
        slot = self.counter[0]
        self.counter[0] += 1
        self.vars[name] = (slot, ty)
        return slot

    def lookup(self, name: str) -> tuple[int, A.TypeRef | None] | None:
        s: Scope | None = self
        while s is not None:
            if name in s.vars:
                return s.vars[name]
            s = s.parent
        return None


@dataclass
class FnCode:
    item: A.FnItem
    nslots: int = 0
    body: Code | None = None
    param_slots: list[int] = field(default_factory=list)
    compiling: bool = False


def truth(v: Any, line: int) -> bool:
    """``v`` as a Python bool; a non-bool is undefined (a type error the front end missed)."""
    if v is True or v is False:
        return v
    raise Undef(f"expected a bool, got {show(v)}", line)


__all__ = ["MB", "Budget", "current", "rss_bytes", "set_current", "Code", "CompileError", "FnCode", "Scope", "truth"]
