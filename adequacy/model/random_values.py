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
)
from adequacy.model.values import encode

__all__ = ["CHAR_POOL", "random_value"]

#: characters fresh chars and strings are drawn from (plain, printable, single UTF-16 units).
CHAR_POOL = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 _-.,!?é"


def random_int(ty: IntType, rng: random.Random, span: int = 10) -> int:
    lo, hi = ty.bounds
    a = -span if lo is None else max(lo, -span)
    b = span if hi is None else min(hi, span)
    return rng.randint(a, b)


def random_value(ty: Type, rng: random.Random, size: int = 3) -> Any:
    """A valid value of ``ty``; ``size`` bounds collection lengths and shrinks with depth."""
    sub = max(size - 1, 0)
    if isinstance(ty, NullableType):
        return random_value(ty.elem, rng, size)
    if isinstance(ty, BoolType):
        return rng.random() < 0.5
    if isinstance(ty, IntType):
        return random_int(ty, rng)
    if isinstance(ty, FloatType):
        return float_value(round(rng.uniform(-10.0, 10.0), 2), ty)
    if isinstance(ty, CharType):
        return rng.choice(CHAR_POOL)
    if isinstance(ty, StringType):
        return "".join(rng.choice(CHAR_POOL) for _ in range(rng.randint(0, max(size, 1) + 2)))
    if isinstance(ty, SeqType):
        return [random_value(ty.elem, rng, sub) for _ in range(rng.randint(0, size))]
    if isinstance(ty, (SetType, MapType)):
        kt = ty.elem if isinstance(ty, SetType) else ty.key
        out: list[Any] = []
        seen: set[str] = set()
        for _ in range(rng.randint(0, size)):
            k = random_value(kt, rng, sub)
            key = value_key(k, kt)
            if key in seen:
                continue
            seen.add(key)
            out.append(k if isinstance(ty, SetType) else [k, random_value(ty.value, rng, sub)])
        return out
    if isinstance(ty, MultisetType):
        return [random_value(ty.elem, rng, sub) for _ in range(rng.randint(0, size))]
    if isinstance(ty, OptionType):
        return None if rng.random() < 0.3 else {"some": random_value(ty.elem, rng, sub)}
    if isinstance(ty, TupleType):
        return [random_value(t, rng, sub) for t in ty.elems]
    if isinstance(ty, StructType):
        return {n: random_value(t, rng, sub) for n, t in ty.fields}
    raise TypeError(f"no generator for type {ty} ({encode(str(ty))})")  # pragma: no cover
