"""Fresh, small, valid values of a type, for inserting into collections and filling options.

Deterministic given the ``random.Random`` passed in. Values are kept small (|ints| <= 10,
collections of a few elements) because a mutant should look like a plausible wrong answer, not
like noise.
"""

from __future__ import annotations

import random
from typing import Any

from adequacy.model.identity import float_value, value_key
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

__all__ = ["CHAR_POOL", "random_value"]

#: characters fresh chars and strings are drawn from (plain, printable, single UTF-16 units).
CHAR_POOL = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 _-.,!?é"


def random_int(ty: IntType, rng: random.Random, span: int = 10) -> int:
    lo, hi = ty.bounds
    a = -span if lo is None else max(lo, -span)
    b = span if hi is None else min(hi, span)
    return rng.randint(a, b)


class _Random(TypeVisitor[[random.Random, int], Any]):
    """A valid value; ``size`` bounds collection lengths, parts get ``size - 1``."""

    def visit_nullable(self, ty: NullableType, rng: random.Random, size: int) -> Any:
        return random_value(ty.elem, rng, size)

    def visit_bool(self, ty: BoolType, rng: random.Random, size: int) -> Any:
        return rng.random() < 0.5

    def visit_int(self, ty: IntType, rng: random.Random, size: int) -> Any:
        return random_int(ty, rng)

    def visit_float(self, ty: FloatType, rng: random.Random, size: int) -> Any:
        return float_value(round(rng.uniform(-10.0, 10.0), 2), ty)

    def visit_char(self, ty: CharType, rng: random.Random, size: int) -> Any:
        return rng.choice(CHAR_POOL)

    def visit_string(self, ty: StringType, rng: random.Random, size: int) -> Any:
        return "".join(rng.choice(CHAR_POOL) for _ in range(rng.randint(0, max(size, 1) + 2)))

    def _elements(self, ty: SeqType | MultisetType, rng: random.Random, size: int) -> Any:
        sub = max(size - 1, 0)
        return [random_value(ty.elem, rng, sub) for _ in range(rng.randint(0, size))]

    visit_seq = visit_multiset = _elements

    def visit_set(self, ty: SetType, rng: random.Random, size: int) -> Any:
        return _distinct(ty.elem, None, rng, size)

    def visit_map(self, ty: MapType, rng: random.Random, size: int) -> Any:
        return _distinct(ty.key, ty.value, rng, size)

    def visit_option(self, ty: OptionType, rng: random.Random, size: int) -> Any:
        sub = max(size - 1, 0)
        return None if rng.random() < 0.3 else {"some": random_value(ty.elem, rng, sub)}

    def visit_tuple(self, ty: TupleType, rng: random.Random, size: int) -> Any:
        sub = max(size - 1, 0)
        return [random_value(t, rng, sub) for t in ty.elems]

    def visit_struct(self, ty: StructType, rng: random.Random, size: int) -> Any:
        sub = max(size - 1, 0)
        return {n: random_value(t, rng, sub) for n, t in ty.fields}


def _distinct(kt: Type, vt: Type | None, rng: random.Random, size: int) -> list[Any]:
    """Set elements (``vt`` None) or map pairs with distinct keys; a repeat is skipped."""
    sub = max(size - 1, 0)
    out: list[Any] = []
    seen: set[str] = set()
    for _ in range(rng.randint(0, size)):
        k = random_value(kt, rng, sub)
        key = value_key(k, kt)
        if key in seen:
            continue
        seen.add(key)
        out.append(k if vt is None else [k, random_value(vt, rng, sub)])
    return out


_RANDOM = _Random()


def random_value(ty: Type, rng: random.Random, size: int = 3) -> Any:
    """A valid value of ``ty``; ``size`` bounds collection lengths and shrinks with depth."""
    return visit(ty, _RANDOM, rng, size)
