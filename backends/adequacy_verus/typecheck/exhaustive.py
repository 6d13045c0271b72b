"""``match`` exhaustiveness through nested patterns, as rustc decides it (E0004).

Why: the top-level check in ``patterns`` counts ``Some(Color::Red) => ..`` as covering every
``Some``, so a spec whose match misses ``Some(Color::Blue)`` was scored, where Verus (rustc's
match checking) rejects it. This is the usefulness algorithm rustc uses (Maranget, "Warnings
for pattern matching", 2007): a match is exhaustive when no value escapes every unguarded arm.
Constructors are known for ``bool``, ``Option``, the module's enums and structs, and tuples;
integers, ``char`` and strings are infinite domains, where only a catch-all covers what no
literal names. Wherever the checker is unsure (a range pattern, a column of unknown type with
a constructor pattern in it, a generic field) it answers "exhaustive": only a missing value
it can exhibit is reported, and the message shows it, as rustc does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from ..syntax import ast as A
from . import types as Ty
from .scope import Module
from .types import UNKNOWN, T


class PatternTypes(Protocol):
    """What this needs of ``patterns.PatternChecker`` (a protocol: no import cycle)."""

    m: Module

    def _binding(self, p: A.Pat) -> A.Pat: ...

    def variant_fields(self, en: A.EnumItem, v: A.Variant) -> list[tuple[str, T]]: ...

    def struct_fields(self, t: T) -> dict[str, T] | None: ...

_BUDGET = 20_000
"""Calls of ``_missing`` one match may take; past it the match is taken as exhaustive."""


class _Unsure(Exception):
    pass


@dataclass(frozen=True)
class _Ctor:
    name: str
    shown: str
    fields: list[T]
    names: list[str] | None = None
    """Field names of a struct-like constructor (for ``S { f: p, .. }`` patterns)."""
    style: str = "tuple"
    """How a witness shows it: ``tuple`` (``Some(_)``), ``unit``, ``struct``, ``paren``."""


class Exhaustiveness:
    def __init__(self, checker: PatternTypes) -> None:
        self.c = checker
        self.calls = 0

    def witness(self, arms: list[A.Pat], t: T) -> str | None:
        """A value no pattern of ``arms`` matches, shown as rustc shows it, or None when the
        patterns are exhaustive (or the checker cannot tell)."""
        try:
            w = self._missing([[p] for p in arms], [t])
        except (_Unsure, RecursionError):
            return None
        return w[0] if w is not None else None

    # ------------------------------------------------------------ constructors
    def ctors(self, t: T) -> list[_Ctor] | None:
        m = self.c.m
        if t.name == "bool":
            return [_Ctor("true", "true", [], style="unit"),
                    _Ctor("false", "false", [], style="unit")]
        if t.name == "Option":
            return [_Ctor("Some", "Some", [t.args[0] if t.args else UNKNOWN]),
                    _Ctor("None", "None", [], style="unit")]
        if t.name == "tuple":
            return [_Ctor("()", "", list(t.args), style="paren")]
        if t.name in m.enums:
            en = m.enums[t.name]
            if en.generics and not t.args:
                return None
            env = dict(zip(en.generics, t.args, strict=False))
            out = []
            for v in en.variants:
                fs = self.c.variant_fields(en, v)
                types = [Ty.subst(ft, env) if env else ft for _f, ft in fs]
                style = {"unit": "unit", "struct": "struct"}.get(v.kind, "tuple")
                out.append(_Ctor(v.name, f"{en.name}::{v.name}", types,
                                 [f for f, _t in fs] if v.kind == "struct" else None, style))
            return out
        if t.name in m.structs:
            fd = self.c.struct_fields(t)
            if fd is None:
                return None
            s = m.structs[t.name]
            return [_Ctor(t.name, t.name, list(fd.values()), list(fd),
                          "tuple" if s.tuple_struct else "struct")]
        return None

    # ------------------------------------------------------------ patterns
    def _norm(self, p: A.Pat) -> A.Pat:
        p = self.c._binding(p)
        while isinstance(p, A.PBind) and p.sub is not None:
            p = self.c._binding(p.sub)
        return p

    def _is_wild(self, p: A.Pat) -> bool:
        return isinstance(p, A.PWild) or isinstance(p, A.PBind) and p.sub is None

    def _head(self, p: A.Pat, ctors: list[_Ctor]) -> tuple[_Ctor, list[A.Pat]]:
        """The constructor a pattern starts with and its sub-patterns, one per field."""
        if isinstance(p, A.PLit) and isinstance(p.value, bool):
            return (ctors[0] if p.value else ctors[1]), []
        if isinstance(p, A.PTuple) and ctors[0].style == "paren":
            return ctors[0], _spread(p.elems, len(ctors[0].fields))
        if isinstance(p, A.PVariant):
            name = p.path[-1]
            c = next((c for c in ctors if c.name == name), None)
            if c is None:
                raise _Unsure
            if p.elems is not None:
                return c, _spread(p.elems, len(c.fields))
            if p.fields is not None:
                if c.names is None:
                    raise _Unsure
                given = dict(p.fields)
                return c, [given.get(n, A.PWild(p.line)) for n in c.names]
            if c.fields:
                raise _Unsure
            return c, []
        raise _Unsure

    # ------------------------------------------------------------ the algorithm
    def _missing(self, rows: list[list[A.Pat]], types: list[T]) -> list[str] | None:
        """Values (one per column) no row matches, or None when every value is matched."""
        self.calls += 1
        if self.calls > _BUDGET:
            raise _Unsure
        if not types:
            return [] if not rows else None
        expanded: list[list[A.Pat]] = []
        for r in rows:
            for alt in _alts(self._norm(r[0])):
                expanded.append([self._norm(alt), *r[1:]])
        rows = expanded
        t, rest = types[0], types[1:]
        ctors = self.ctors(t)
        heads = [r[0] for r in rows if not self._is_wild(r[0])]
        if ctors is None:
            # an infinite domain (integers, char, strings): only literals are understood
            if any(not isinstance(h, A.PLit) for h in heads) or heads and not (
                    Ty.is_int(t) or t.name in ("char", "str", "String")):
                raise _Unsure
            if t.name in ("u8", "i8") and len(heads) >= 256:
                raise _Unsure
            w = self._missing([r[1:] for r in rows if self._is_wild(r[0])], rest)
            return None if w is None else ["_", *w]
        used = {self._head(h, ctors)[0].name for h in heads}
        if all(c.name in used for c in ctors):
            for c in ctors:
                sub: list[list[A.Pat]] = []
                for r in rows:
                    if self._is_wild(r[0]):
                        sub.append([A.PWild(0)] * len(c.fields) + r[1:])
                    else:
                        hc, args = self._head(r[0], ctors)
                        if hc.name == c.name:
                            sub.append(args + r[1:])
                w = self._missing(sub, c.fields + rest)
                if w is not None:
                    n = len(c.fields)
                    return [_show(c, w[:n]), *w[n:]]
            return None
        w = self._missing([r[1:] for r in rows if self._is_wild(r[0])], rest)
        if w is None:
            return None
        if not heads:
            return ["_", *w]  # no row names a constructor here: any value is missing
        c = next(c for c in ctors if c.name not in used)
        return [_show(c, ["_"] * len(c.fields)), *w]


def _alts(p: A.Pat) -> list[A.Pat]:
    if isinstance(p, A.POr):
        return [x for a in p.alts for x in _alts(a)]
    return [p]


def _spread(elems: list[A.Pat], n: int) -> list[A.Pat]:
    """Sub-patterns with a ``..`` rest widened to wildcards, one per field."""
    rest = [k for k, x in enumerate(elems) if isinstance(x, A.PWild) and x.rest]
    if not rest:
        if len(elems) != n:
            raise _Unsure  # an arity error, reported by ``pattern``
        return list(elems)
    k = rest[0]
    fill = n - (len(elems) - 1)
    if fill < 0:
        raise _Unsure
    line = elems[k].line
    return elems[:k] + [A.PWild(line)] * fill + elems[k + 1:]


def _show(c: _Ctor, args: list[str]) -> str:
    if c.style == "unit":
        return c.shown
    if c.style == "paren":
        return "(" + ", ".join(args) + ("," if len(args) == 1 else "") + ")"
    if c.style == "struct":
        names = c.names or []
        inner = ", ".join(f"{n}: {a}" for n, a in zip(names, args, strict=False))
        return f"{c.shown} {{ {inner} }}"
    return f"{c.shown}({', '.join(args)})"
