"""The shape of a task's own valid inputs, and fresh inputs drawn to look like them.

Generated valid inputs must stay where the task's cases say the function is meant to be used:
a reference computes *some* output on any input, but a value outside the examples' ranges (a
factorial past the overflow, an unsorted array given to a binary search) may break a
precondition that no oracle knows, and a case that calls such an input valid would fail a
faithful spec. So the profile records, per position in the type (``arr``, ``arr.elem``, ...),
the observed ranges of numbers and lengths, the characters used, whether null or an empty
option was seen, and whether every observed sequence was sorted or free of duplicates; and, for
the top-level numbers and lengths, every order between two of them that held on all examples
(``lo <= hi``, ``k <= arr.len``). Draws stay inside slightly widened ranges that never cross
zero or one where the examples do not, and keep every observed order.

Plain ``random.Random`` (seeded), not Hypothesis: Hypothesis is a test dependency and its
strategies cannot be drawn from reproducibly outside a test.
"""

from __future__ import annotations

import contextlib
import random
import string
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from adequacy.model.identity import float_value, value_key
from adequacy.model.random_values import CHAR_POOL, random_value
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

__all__ = ["Profile", "input_space_size", "profile_inputs"]

#: largest finite input space counted exactly (beyond it, "finite" is of no practical use).
SPACE_CAP = 4096


class _Space(TypeVisitor[[], "int | None"]):
    """How many values a type has (uncapped; None: infinitely many)."""

    def _infinite(self, t: Type) -> int | None:
        return None

    visit_char = visit_string = visit_float = _infinite
    visit_seq = visit_set = visit_multiset = visit_map = _infinite

    def visit_bool(self, t: BoolType) -> int | None:
        return 2

    def visit_int(self, t: IntType) -> int | None:
        lo, hi = t.bounds
        return None if lo is None or hi is None else hi - lo + 1

    def _or_none(self, t: OptionType | NullableType) -> int | None:
        e = _space(t.elem)
        return None if e is None else e + 1

    visit_option = visit_nullable = _or_none

    def visit_tuple(self, t: TupleType) -> int | None:
        return _product(t.elems)

    def visit_struct(self, t: StructType) -> int | None:
        return _product(tuple(ft for _, ft in t.fields))


def _product(elems: tuple[Type, ...]) -> int | None:
    n = 1
    for et in elems:
        e = _space(et)
        if e is None:
            return None
        n *= e
    return n


_SPACE = _Space()


def _space(t: Type) -> int | None:
    """How many values ``t`` has, when few (at most ``SPACE_CAP``); None otherwise."""
    n = visit(t, _SPACE)
    return n if n is not None and n <= SPACE_CAP else None


def input_space_size(params: Sequence[Any]) -> int | None:
    """How many inputs the signature's types admit, when at most ``SPACE_CAP`` (two bools:
    4); None for an infinite or larger space."""
    n = 1
    for p in params:
        e = _space(p.type)
        if e is None:
            return None
        n *= e
        if n > SPACE_CAP:
            return None
    return n

Path = tuple[str, ...]


@dataclass
class _Slot:
    """What was seen at one position of the type."""

    nums: list[float] = field(default_factory=list)
    lens: list[int] = field(default_factory=list)
    chars: set[str] = field(default_factory=set)
    char_values: bool = False
    """The chars seen were ``char`` values (not the letters of strings): see ``_char_pool``."""
    null: bool = False
    none: bool = False
    sorted_asc: bool = True
    sorted_desc: bool = True
    strict: bool = True
    distinct: bool = True
    long_samples: int = 0
    """Samples of length >= 2 (sortedness and distinctness are judged on these only)."""


def _widen(lo: float, hi: float, integral: bool) -> tuple[float, float]:
    span = hi - lo
    margin = max(span / 4, 2 if integral else 1.0)
    a, b = lo - margin, hi + margin
    if lo >= 0:
        a = max(a, 0)
    if lo >= 1:
        a = max(a, 1)
    if hi <= 0:
        b = min(b, 0)
    if hi <= -1:
        b = min(b, -1)
    if integral:
        return int(a), int(b)
    return a, b


CHAR_CLASSES = (string.ascii_lowercase, string.ascii_uppercase, string.digits,
                string.punctuation + " ")
"""ASCII classes a ``char`` position may widen to (see ``_char_pool``)."""
CHAR_CLASS_WIDEN = 3
"""Distinct members of a class the examples must use before the whole class is drawn."""


def _char_pool(s: _Slot) -> list[str]:
    """The characters to draw at a position: the examples' own, and for ``char`` values (not
    the letters of strings) every ASCII class of which the examples use at least
    ``CHAR_CLASS_WIDEN`` members, as numbers widen past the observed range. A single ``char``
    has no other dimension to vary: a task whose examples already use every character they
    contain (SpecGenBench's ChangeCase: 69 distinct) admitted no new input, so the reference ran
    on too few inputs for any inference. Strings keep exactly the observed letters, and so does a
    class seen fewer times (``'0'``/``'1'`` does not open the other digits: a binary-digit
    precondition nobody states)."""
    pool = set(s.chars)
    if s.char_values:
        for cls in CHAR_CLASSES:
            if len(pool.intersection(cls)) >= CHAR_CLASS_WIDEN:
                pool.update(cls)
    return sorted(pool)


class Profile:
    """Observed shape of valid inputs; ``draw(rng)`` makes a new input of the same shape."""

    def __init__(self, params: Sequence[Any]) -> None:
        self.params = list(params)
        self.slots: dict[Path, _Slot] = {}
        self.samples = 0
        self._scalars: list[list[float]] = []
        self.orders: list[tuple[int, int]] = []
        """(a, b): top-level scalar a <= scalar b held on every example."""

    # -- observing ---------------------------------------------------------------------------

    def _slot(self, path: Path) -> _Slot:
        return self.slots.setdefault(path, _Slot())

    def _see(self, v: Any, t: Type, path: Path) -> None:
        s = self._slot(path)
        if v is None:
            if isinstance(t, OptionType):
                s.none = True
            else:
                s.null = True
            return
        visit(t, _OBSERVE, self, s, v, path)

    def observe(self, inp: dict[str, Any]) -> None:
        self.samples += 1
        for p in self.params:
            self._see(inp.get(p.name), p.type, (p.name,))
        self._scalars.append(self._scalar_row(inp))

    def _scalar_row(self, inp: dict[str, Any]) -> list[float]:
        """The top-level numbers and lengths (nan where absent), for the orders between them."""
        row: list[float] = []
        for p in self.params:
            v = inp.get(p.name)
            if isinstance(v, bool) or v is None:
                row.append(float("nan"))
            elif isinstance(v, (int, float)):
                row.append(float(v))
            elif isinstance(v, (str, list)):
                row.append(float(len(v)))
            else:
                row.append(float("nan"))
        return row

    def finish(self) -> Profile:
        """Fix the orders between top-level scalars that held on every example (3 at least)."""
        rows = self._scalars
        n = len(self.params)
        if len(rows) >= 3:
            for a in range(n):
                for b in range(n):
                    if a == b:
                        continue
                    vals = [(r[a], r[b]) for r in rows]
                    if all(x == x and y == y and x <= y for x, y in vals) and any(
                            x < y for x, y in vals):
                        self.orders.append((a, b))
        return self

    # -- drawing -----------------------------------------------------------------------------

    def _num(self, t: IntType | FloatType, s: _Slot | None, rng: random.Random) -> Any:
        integral = isinstance(t, IntType)
        if s is None or not s.nums:
            if isinstance(t, IntType):
                return random_value(t, rng)
            return float_value(round(rng.uniform(-10.0, 10.0), 2), t)
        lo, hi = _widen(min(s.nums), max(s.nums), integral)
        if isinstance(t, IntType):
            tlo, thi = t.bounds
            lo = int(lo) if tlo is None else max(int(lo), tlo)
            hi = int(hi) if thi is None else min(int(hi), thi)
            r = rng.random()
            if r < 0.08:
                return int(min(s.nums))
            if r < 0.16:
                return int(max(s.nums))
            return rng.randint(lo, hi)
        return float_value(round(rng.uniform(lo, hi), 2), t)

    def _len(self, s: _Slot | None, rng: random.Random) -> int:
        if s is None or not s.lens:
            return rng.randint(0, 3)
        lo, hi = min(s.lens), max(s.lens)
        hi = max(hi, lo)
        return rng.randint(lo, hi)

    def _char(self, s: _Slot | None, rng: random.Random) -> str:
        pool = _char_pool(s) if s is not None and s.chars else list(CHAR_POOL)
        return rng.choice(pool)

    def _value(self, t: Type, path: Path, rng: random.Random) -> Any:
        return visit(t, _DRAW, self, self.slots.get(path), path, rng)

    def keeps_orders(self, inp: dict[str, Any]) -> bool:
        row = self._scalar_row(inp)
        return all(row[a] == row[a] and row[b] == row[b] and row[a] <= row[b]
                   for a, b in self.orders)

    def draw(self, rng: random.Random, tries: int = 20) -> dict[str, Any] | None:
        """An input of the examples' shape keeping every observed order; None when ``tries``
        draws all broke one."""
        for _ in range(tries):
            inp = {p.name: self._value(p.type, (p.name,), rng) for p in self.params}
            if self.keeps_orders(inp):
                return inp
        return None


class _Observe(TypeVisitor[[Profile, _Slot, Any, Path], None]):
    """Record a non-null value ``v`` seen at ``path`` (slot ``s``) in the profile."""

    def visit_nullable(self, t: NullableType, prof: Profile, s: _Slot, v: Any, path: Path
                       ) -> None:
        prof._see(v, t.elem, path)

    def visit_bool(self, t: BoolType, prof: Profile, s: _Slot, v: Any, path: Path) -> None:
        pass

    def _number(self, t: IntType | FloatType, prof: Profile, s: _Slot, v: Any, path: Path
                ) -> None:
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            s.nums.append(float(v))

    visit_int = visit_float = _number

    def visit_char(self, t: CharType, prof: Profile, s: _Slot, v: Any, path: Path) -> None:
        s.chars.add(v)
        s.char_values = True

    def visit_string(self, t: StringType, prof: Profile, s: _Slot, v: Any, path: Path) -> None:
        s.lens.append(len(v))
        s.chars.update(v)

    def _elements(self, t: SeqType | SetType | MultisetType, prof: Profile, s: _Slot, v: Any,
                  path: Path) -> None:
        s.lens.append(len(v))
        et = t.elem
        for e in v:
            prof._see(e, et, (*path, "elem"))
        if len(v) >= 2:
            s.long_samples += 1
            try:
                keys = [_order_key(e) for e in v]
                pairs = list(zip(keys, keys[1:], strict=False))
                s.sorted_asc &= all(a <= b for a, b in pairs)
                s.sorted_desc &= all(a >= b for a, b in pairs)
                s.strict &= all(a != b for a, b in pairs)
            except TypeError:
                s.sorted_asc = s.sorted_desc = False
            s.distinct &= len({value_key(e, et) for e in v}) == len(v)

    visit_seq = visit_set = visit_multiset = _elements

    def visit_map(self, t: MapType, prof: Profile, s: _Slot, v: Any, path: Path) -> None:
        s.lens.append(len(v))
        for k, x in v:
            prof._see(k, t.key, (*path, "key"))
            prof._see(x, t.value, (*path, "value"))

    def visit_option(self, t: OptionType, prof: Profile, s: _Slot, v: Any, path: Path) -> None:
        prof._see(v.get("some"), t.elem, (*path, "some"))

    def visit_tuple(self, t: TupleType, prof: Profile, s: _Slot, v: Any, path: Path) -> None:
        for i, (x, et) in enumerate(zip(v, t.elems, strict=True)):
            prof._see(x, et, (*path, str(i)))

    def visit_struct(self, t: StructType, prof: Profile, s: _Slot, v: Any, path: Path) -> None:
        for n, ft in t.fields:
            prof._see(v.get(n), ft, (*path, n))


class _Draw(TypeVisitor[[Profile, "_Slot | None", Path, random.Random], Any]):
    """A fresh value at ``path`` shaped like what the profile saw there (slot ``s``)."""

    def visit_nullable(self, t: NullableType, prof: Profile, s: _Slot | None, path: Path,
                       rng: random.Random) -> Any:
        if s is not None and s.null and rng.random() < 0.1:
            return None
        return prof._value(t.elem, path, rng)

    def visit_bool(self, t: BoolType, prof: Profile, s: _Slot | None, path: Path,
                   rng: random.Random) -> Any:
        return rng.random() < 0.5

    def _number(self, t: IntType | FloatType, prof: Profile, s: _Slot | None, path: Path,
                rng: random.Random) -> Any:
        return prof._num(t, s, rng)

    visit_int = visit_float = _number

    def visit_char(self, t: CharType, prof: Profile, s: _Slot | None, path: Path,
                   rng: random.Random) -> Any:
        return prof._char(s, rng)

    def visit_string(self, t: StringType, prof: Profile, s: _Slot | None, path: Path,
                     rng: random.Random) -> Any:
        n = prof._len(s, rng)
        return "".join(prof._char(s, rng) for _ in range(n))

    def visit_seq(self, t: SeqType, prof: Profile, s: _Slot | None, path: Path,
                  rng: random.Random) -> Any:
        if t.kind == "array" and s is not None and s.null and rng.random() < 0.1:
            return None
        return self._elements(t, prof, s, path, rng)

    def _elements(self, t: SeqType | SetType | MultisetType, prof: Profile, s: _Slot | None,
                  path: Path, rng: random.Random) -> Any:
        n = prof._len(s, rng)
        epath = (*path, "elem")
        distinct = isinstance(t, SetType) or (
            s is not None and s.long_samples >= 2 and (s.distinct or s.strict))
        items: list[Any] = []
        seen: set[str] = set()
        for _ in range(n * 5):
            if len(items) >= n:
                break
            e = prof._value(t.elem, epath, rng)
            k = value_key(e, t.elem)
            if distinct and k in seen:
                continue
            seen.add(k)
            items.append(e)
        if s is not None and s.long_samples >= 2 and (s.sorted_asc or s.sorted_desc):
            with contextlib.suppress(TypeError):
                items.sort(key=_order_key, reverse=not s.sorted_asc)
        return items

    visit_set = visit_multiset = _elements

    def visit_map(self, t: MapType, prof: Profile, s: _Slot | None, path: Path,
                  rng: random.Random) -> Any:
        n = prof._len(s, rng)
        out: list[Any] = []
        keys: set[str] = set()
        for _ in range(n * 5):
            if len(out) >= n:
                break
            k = prof._value(t.key, (*path, "key"), rng)
            if value_key(k, t.key) in keys:
                continue
            keys.add(value_key(k, t.key))
            out.append([k, prof._value(t.value, (*path, "value"), rng)])
        return out

    def visit_option(self, t: OptionType, prof: Profile, s: _Slot | None, path: Path,
                     rng: random.Random) -> Any:
        if s is not None and s.none and rng.random() < 0.3:
            return None
        return {"some": prof._value(t.elem, (*path, "some"), rng)}

    def visit_tuple(self, t: TupleType, prof: Profile, s: _Slot | None, path: Path,
                    rng: random.Random) -> Any:
        return [prof._value(et, (*path, str(i)), rng) for i, et in enumerate(t.elems)]

    def visit_struct(self, t: StructType, prof: Profile, s: _Slot | None, path: Path,
                     rng: random.Random) -> Any:
        return {n: prof._value(ft, (*path, n), rng) for n, ft in t.fields}


_OBSERVE = _Observe()
_DRAW = _Draw()


def _order_key(e: Any) -> Any:
    if isinstance(e, bool) or e is None:
        raise TypeError("no order")
    if isinstance(e, (int, float, str)):
        return e
    if isinstance(e, list):
        return tuple(_order_key(x) for x in e)
    raise TypeError("no order")


def profile_inputs(params: Sequence[Any], inputs: Sequence[dict[str, Any]]) -> Profile:
    """The profile of ``inputs`` (the task's own valid inputs)."""
    prof = Profile(params)
    for inp in inputs:
        prof.observe(inp)
    return prof.finish()
