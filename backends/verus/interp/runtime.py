"""What the interp compiler and the quantifier compiler share: compiled code's type, the
evaluation budget, lexical scopes, compiled functions and the bool check of three-valued logic.

A module of its own so that ``compiler`` (which compiles quantifiers through ``quant``) and
``quant`` (which needs these) import each other's needs at the top level without a cycle:
``runtime`` <- ``quant`` <- ``compiler``.
"""

from __future__ import annotations

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


class Budget:
    """Step, time and depth limits of one evaluation."""

    __slots__ = ("steps", "limit", "deadline", "depth", "max_depth", "seconds")

    def __init__(self, steps: int, seconds: float, max_depth: int = 20000) -> None:
        self.steps = 0
        self.limit = steps
        self.seconds = seconds
        self.deadline = time.monotonic() + seconds
        self.depth = 0
        self.max_depth = max_depth

    def tick(self, n: int = 1) -> None:
        self.steps += n
        if self.steps > self.limit:
            raise Abort(f"step limit ({self.limit} steps) exceeded")
        if time.monotonic() > self.deadline:
            raise Abort(f"timeout after {self.seconds:g}s")


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


__all__ = ["Budget", "Code", "CompileError", "FnCode", "Scope", "truth"]
