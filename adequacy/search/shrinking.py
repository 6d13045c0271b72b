"""Typed shrinking: smaller values of a type, and the order that says what "smaller" means.

A counterexample found by random search carries noise (long lists, large numbers) that hides
why the spec is wrong. ``candidates`` proposes simpler values of the same type, the biggest
simplifications first (empty, halves, one element fewer, then each part made simpler), and
``size_key`` is the well-founded order a shrinker accepts a candidate by: strictly smaller
key, so a greedy loop always ends. Values are JSON values in the conventions of
``adequacy.model.values``; every candidate is checked by ``strictly_valid`` before it is offered.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from adequacy.model.types import (
    BoolType,
    CharType,
    FloatType,
    IntType,
    MapType,
    MultisetType,
    NullableType,
    OptionType,
    SeqType,
    SetType,
    StringType,
    StructType,
    TupleType,
    Type,
    TypeVisitor,
    visit,
)
from adequacy_mutators import strictly_valid, value_key

__all__ = ["candidates", "dict_candidates", "size_key"]

#: candidates per part before a shrinker moves on (keeps one round's batch small).
PER_PART = 24


def _size(v: Any) -> tuple[int, int]:
    """(structure size, magnitude): collections count their elements, numbers their size."""
    if v is None:  # null, an option's None: simpler than any value
        return (0, 0)
    if isinstance(v, bool):
        return (1, int(v))
    if isinstance(v, int):
        return (1, abs(v))
    if isinstance(v, float):
        return (1, int(min(abs(v), 1e18)) + (0 if v == int(v) else 1))
    if isinstance(v, str):
        return (1 + len(v), sum(abs(ord(c) - ord("a")) for c in v))
    if isinstance(v, list):  # each element costs one more than itself: [None] > []
        parts = [_size(x) for x in v]
        return (1 + sum(1 + p[0] for p in parts), sum(p[1] for p in parts))
    if isinstance(v, dict):  # an option's {"some": x} or a struct: one more than its parts
        parts = [_size(x) for x in v.values()]
        return (1 + sum(p[0] for p in parts), sum(p[1] for p in parts))
    return (1, 0)


def size_key(values: dict[str, Any], order: list[str]) -> tuple[int, int, str]:
    """Total order on a whole input or output: structure, then magnitude, then its text."""
    s = [_size(values[n]) for n in order if n in values]
    return (sum(a for a, _ in s), sum(b for _, b in s), repr([values.get(n) for n in order]))


def _ints(v: int, ty: IntType) -> Iterator[int]:
    lo, hi = ty.bounds
    target = 0 if (lo is None or lo <= 0) and (hi is None or hi >= 0) else (lo if lo and lo > 0
                                                                         else hi)
    if target is None:
        return
    half = v // 2 if v > 0 else -((-v) // 2)
    step = 1 if v > target else -1
    small = range(target + 1, target + 17) if v > target else range(target - 1, target - 17, -1)
    for x in (target, half, half + step, v - step, v - 2 * step, -v, *small):
        if x != v and abs(x - target) < abs(v - target):
            yield x


def _list_candidates(v: list[Any], part: Callable[[Any], Iterator[Any]]
                     ) -> Iterator[list[Any]]:
    """Shorter lists first, then each item made simpler by ``part`` (an element's candidates,
    or a map pair's with its key then its value simpler)."""
    n = len(v)
    if n == 0:
        return
    yield []
    if n > 1:
        yield v[: n // 2]
        yield v[n // 2:]
        for i in range(min(n, PER_PART)):
            yield [v[i]]
    for i in range(min(n, PER_PART)):
        yield v[:i] + v[i + 1:]
    for i in range(min(n, PER_PART)):
        for e in part(v[i]):
            yield [*v[:i], e, *v[i + 1:]]


class _Simpler(TypeVisitor[[Any], Iterator[Any]]):
    """Simpler values of a non-null value, unchecked and possibly repeated (``candidates``
    filters)."""

    def visit_nullable(self, ty: NullableType, v: Any) -> Iterator[Any]:
        yield None
        yield from candidates(v, ty.elem)

    def visit_bool(self, ty: BoolType, v: Any) -> Iterator[Any]:
        if v:
            yield False

    def visit_int(self, ty: IntType, v: Any) -> Iterator[Any]:
        yield from _ints(v, ty)

    def visit_float(self, ty: FloatType, v: Any) -> Iterator[Any]:
        if isinstance(v, float) and v != 0.0:
            yield 0.0
            if v != int(v):
                yield float(int(v))

    def visit_char(self, ty: CharType, v: Any) -> Iterator[Any]:
        if v != "a":
            yield "a"

    def visit_string(self, ty: StringType, v: Any) -> Iterator[Any]:
        if v:
            yield ""
            yield v[: len(v) // 2]
            if len(v) > 1:
                yield from dict.fromkeys(v[:PER_PART])  # each character alone
            for i in range(min(len(v), PER_PART)):
                yield v[:i] + v[i + 1:]
            for i in range(min(len(v), PER_PART)):
                if v[i] != "a":
                    yield v[:i] + "a" + v[i + 1:]

    def _elements(self, ty: SeqType | SetType | MultisetType, v: Any) -> Iterator[Any]:
        return _list_candidates(v, lambda e: candidates(e, ty.elem))

    visit_seq = visit_set = visit_multiset = _elements

    def visit_map(self, ty: MapType, v: Any) -> Iterator[Any]:
        def pair(p: list[Any]) -> Iterator[list[Any]]:
            k, x = p
            for k2 in candidates(k, ty.key):
                yield [k2, x]
            for x2 in candidates(x, ty.value):
                yield [k, x2]

        return _list_candidates(v, pair)

    def visit_option(self, ty: OptionType, v: Any) -> Iterator[Any]:
        yield None
        for x in candidates(v["some"], ty.elem):
            yield {"some": x}

    def visit_tuple(self, ty: TupleType, v: Any) -> Iterator[Any]:
        for i, et in enumerate(ty.elems):
            for x in candidates(v[i], et):
                yield [*v[:i], x, *v[i + 1:]]

    def visit_struct(self, ty: StructType, v: Any) -> Iterator[Any]:
        for name, ft in ty.fields:
            for x in candidates(v[name], ft):
                yield {**v, name: x}


_SIMPLER = _Simpler()


def _raw(v: Any, ty: Type) -> Iterator[Any]:
    return iter(()) if v is None else visit(ty, _SIMPLER, v)


def candidates(v: Any, ty: Type) -> Iterator[Any]:
    """Simpler valid values of ``ty`` than ``v``, biggest simplifications first, no repeats.

    An ``array`` may shrink to ``null`` (a null reference is a value the language has); an
    ``option`` to ``None``; nothing ever leaves the type.
    """
    if isinstance(ty, SeqType) and ty.kind == "array" and v is not None and strictly_valid(
            None, ty):
        yield None
    seen = {value_key(v, ty)}
    count = 0
    for x in _raw(v, ty):
        if count >= 4 * PER_PART:
            return
        if not strictly_valid(x, ty):
            continue
        k = value_key(x, ty)
        if k in seen:
            continue
        seen.add(k)
        count += 1
        yield x


def _named(name: str, xs: Iterator[Any]) -> Iterator[tuple[str, Any]]:
    for x in xs:
        yield name, x


def _ints_in(v: Any, out: set[int]) -> None:
    if isinstance(v, bool) or v is None:
        return
    if isinstance(v, int):
        out.add(v)
    elif isinstance(v, list):
        for x in v:
            _ints_in(x, out)
    elif isinstance(v, dict):
        for x in v.values():
            _ints_in(x, out)


def _replace_int(v: Any, old: int, new: int) -> Any:
    if isinstance(v, bool) or v is None:
        return v
    if isinstance(v, int):
        return new if v == old else v
    if isinstance(v, list):
        return [_replace_int(x, old, new) for x in v]
    if isinstance(v, dict):
        return {k: _replace_int(x, old, new) for k, x in v.items()}
    return v


def _together(values: dict[str, Any], params: list[Any]) -> Iterator[dict[str, Any]]:
    """Every occurrence of one number made smaller at once, across fields: a counterexample
    that needs ``target`` to equal an element (``[4, 4]``, ``4``) shrinks to ``[0, 0]``, ``0``,
    which no change of one field at a time reaches."""
    nums: set[int] = set()
    for p in params:
        if p.name in values:
            _ints_in(values[p.name], nums)
    for n in sorted((x for x in nums if x != 0), key=abs)[:8]:
        half = n // 2 if n > 0 else -((-n) // 2)
        step = 1 if n > 0 else -1
        for new in (0, half, half + step, n - step, n - 2 * step):
            if new == n or abs(new) >= abs(n) or new in nums and new != 0:
                continue
            cand = {k: _replace_int(v, n, new) for k, v in values.items()}
            if all(strictly_valid(cand[p.name], p.type) for p in params if p.name in cand):
                yield cand


def dict_candidates(values: dict[str, Any], params: list[Any]) -> Iterator[dict[str, Any]]:
    """Candidates of a whole input or output dict: one number lowered everywhere at once
    first, then one field at a time, fields in turn so that every field gets its big
    simplifications before any gets its small ones."""
    yield from _together(values, params)
    streams = [_named(p.name, candidates(values[p.name], p.type))
               for p in params if p.name in values]
    while streams:
        alive = []
        for s in streams:
            got = next(s, None)
            if got is None:
                continue
            alive.append(s)
            name, x = got
            yield {**values, name: x}
        streams = alive
