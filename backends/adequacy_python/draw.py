"""Seeded inputs drawn from a task's schema (``task from``): small values that reach edges.

Integers mostly from -10 to 10 (in half the draws from -1 to one past the longest collection
argument, since an integer beside a list is often an index or a count), strings and
collections of at most six elements over a small alphabet (repeats happen, as they must for
duplicates to be tested), floats from a set that holds zero, halves and negatives. The same
seed gives the same inputs; the values are JSON of the task format.
"""

from __future__ import annotations

import json
import random
from typing import Any

from adequacy.plugin import (
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

ALPHABET = "abcAB 1"
FLOATS = [0.0, 0.5, -0.5, 1.0, -1.0, 2.5, -3.25, 10.0, 0.1, 1e-3]


def _key(v: Any) -> str:
    return json.dumps(v, sort_keys=True)


Small = tuple[int, int]


class _Value(TypeVisitor[[random.Random, Small], Any]):
    """A drawn value of a type; ``small``: the range integers come from."""

    def visit_bool(self, t: BoolType, rng: random.Random, small: Small) -> Any:
        return rng.random() < 0.5

    def visit_int(self, t: IntType, rng: random.Random, small: Small) -> Any:
        lo, hi = t.bounds
        a = max(small[0], lo) if lo is not None else small[0]
        b = min(small[1], hi) if hi is not None else small[1]
        return rng.randint(a, b) if a <= b else (lo if lo is not None else 0)

    def visit_float(self, t: FloatType, rng: random.Random, small: Small) -> Any:
        return rng.choice(FLOATS)

    def visit_char(self, t: CharType, rng: random.Random, small: Small) -> Any:
        return rng.choice(ALPHABET)

    def visit_string(self, t: StringType, rng: random.Random, small: Small) -> Any:
        return "".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 6)))

    def visit_seq(self, t: SeqType, rng: random.Random, small: Small) -> Any:
        if t.kind == "array" and rng.random() < 0.1:
            return None
        return [value(t.elem, rng, small) for _ in range(rng.randint(0, 6))]

    def visit_multiset(self, t: MultisetType, rng: random.Random, small: Small) -> Any:
        return [value(t.elem, rng, small) for _ in range(rng.randint(0, 5))]

    def visit_set(self, t: SetType, rng: random.Random, small: Small) -> Any:
        seen: dict[str, Any] = {}
        for _ in range(rng.randint(0, 5)):
            v = value(t.elem, rng, small)
            seen.setdefault(_key(v), v)
        return list(seen.values())

    def visit_map(self, t: MapType, rng: random.Random, small: Small) -> Any:
        pairs: dict[str, list[Any]] = {}
        for _ in range(rng.randint(0, 4)):
            k = value(t.key, rng, small)
            pairs.setdefault(_key(k), [k, value(t.value, rng, small)])
        return list(pairs.values())

    def visit_option(self, t: OptionType, rng: random.Random, small: Small) -> Any:
        return None if rng.random() < 0.25 else {"some": value(t.elem, rng, small)}

    def visit_nullable(self, t: NullableType, rng: random.Random, small: Small) -> Any:
        return None if rng.random() < 0.25 else value(t.elem, rng, small)

    def visit_tuple(self, t: TupleType, rng: random.Random, small: Small) -> Any:
        return [value(e, rng, small) for e in t.elems]

    def visit_struct(self, t: StructType, rng: random.Random, small: Small) -> Any:
        raise ValueError(f"cannot draw values of {t}")


_VALUE = _Value()


def value(t: Type, rng: random.Random, small: Small = (-10, 10)) -> Any:
    return visit(t, _VALUE, rng, small)


def draw_inputs(params: list[tuple[str, Type]], n: int, seed: int = 0) -> list[dict[str, Any]]:
    """Up to ``n`` distinct inputs (fewer when the schema has fewer values)."""
    rng = random.Random(seed)
    out: dict[str, dict[str, Any]] = {}
    for i in range(n * 4):
        if len(out) >= n:
            break
        inp: dict[str, Any] = {}
        for name, t in params:
            if not isinstance(t, IntType):
                inp[name] = value(t, rng)
        longest = max([len(v) for v in inp.values() if isinstance(v, (list, str))], default=0)
        for name, t in params:
            if isinstance(t, IntType):
                small = (-1, longest + 1) if i % 2 else (-10, 10)
                inp[name] = value(t, rng, small)
        ordered = {name: inp[name] for name, _ in params}
        out.setdefault(_key(ordered), ordered)
    return list(out.values())
