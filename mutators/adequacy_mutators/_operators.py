"""Named mutation operators, one list per type of the type language.

An operator takes ``(value, type, rng)`` and returns a candidate value, or ``SKIP`` when it does
not apply (``seq.swap`` on one element, ``int.max`` on ``int``). Operators on containers change
one part through ``mutate_once`` on the part's type, so nesting (``array<array<i32>>``,
``map<string, set<u8>>``) needs no special cases; their names chain as
``seq.change_elem>int.plus_one``. Operators do not guarantee that the result differs from the
input or validates: the caller (``_outputs.mutants``) filters on both.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from adequacy.model.identity import float_value, strictly_valid, value_key
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
)
from adequacy.model.values import as_float

__all__ = ["SKIP", "Operator", "mutate_once", "operators_for"]

SKIP: Any = object()
"""Returned by an operator that does not apply to the value."""

#: ``fn(value, type, rng) -> (inner operator name or "", new value) | SKIP``
OpFn = Callable[[Any, Any, random.Random], Any]


@dataclass(frozen=True)
class Operator:
    name: str
    fn: OpFn

    def apply(self, value: Any, ty: Type, rng: random.Random) -> tuple[str, Any] | None:
        """The operator's full name and candidate, or None when it does not apply."""
        res = self.fn(value, ty, rng)
        if res is SKIP:
            return None
        inner, new = res
        return (f"{self.name}>{inner}" if inner else self.name), new


def _leaf(f: Callable[[Any, Any, random.Random], Any]) -> OpFn:
    def run(v: Any, t: Any, rng: random.Random) -> Any:
        if v is None:
            return SKIP
        new = f(v, t, rng)
        return SKIP if new is SKIP else ("", new)

    return run


def mutate_once(value: Any, ty: Type, rng: random.Random) -> tuple[str, Any] | None:
    """One random mutation of ``value`` that validates and differs from it, or None."""
    ops = list(operators_for(ty))
    rng.shuffle(ops)
    orig = value_key(value, ty)
    for op in ops:
        res = op.apply(value, ty, rng)
        if res is None:
            continue
        if strictly_valid(res[1], ty) and value_key(res[1], ty) != orig:
            return res
    return None


# ---------------------------------------------------------------- integers and booleans

def _int_bound(which: int) -> Callable[[int, IntType, random.Random], Any]:
    def f(v: int, t: IntType, rng: random.Random) -> Any:
        b = t.bounds[which]
        return SKIP if b is None else b
    return f


def _int_nearby(v: int, t: IntType, rng: random.Random) -> int:
    return v + rng.choice([-1, 1]) * rng.randint(3, 10)


INT_OPS = [
    Operator("int.plus_one", _leaf(lambda v, t, r: v + 1)),
    Operator("int.minus_one", _leaf(lambda v, t, r: v - 1)),
    Operator("int.plus_two", _leaf(lambda v, t, r: v + 2)),
    Operator("int.minus_two", _leaf(lambda v, t, r: v - 2)),
    Operator("int.negate", _leaf(lambda v, t, r: -v)),
    Operator("int.zero", _leaf(lambda v, t, r: 0)),
    Operator("int.min", _leaf(_int_bound(0))),
    Operator("int.max", _leaf(_int_bound(1))),
    Operator("int.nearby", _leaf(_int_nearby)),
    Operator("int.double", _leaf(lambda v, t, r: 2 * v)),
]

BOOL_OPS = [Operator("bool.flip", _leaf(lambda v, t, r: not v))]


# ---------------------------------------------------------------- floats

#: relative distance a float mutant keeps from its original, so that a spec comparing floats
#: with a tolerance (``Math.abs(r - e) < 1e-6``) still sees a wrong answer.
FLOAT_MIN_REL = 1e-3


def _float_op(f: Callable[[float, random.Random], float]) -> OpFn:
    def run(v: Any, t: FloatType, rng: random.Random) -> Any:
        if v is None:
            return SKIP
        x = as_float(v)
        # NaN has no neighbours: mutate it as if it were 0.0
        y = f(0.0, rng) if math.isnan(x) else f(x, rng)
        if math.isfinite(x) and math.isfinite(y) and abs(y - x) <= FLOAT_MIN_REL * max(1.0, abs(x)):
            return SKIP
        return "", float_value(y, t)

    return run


FLOAT_OPS = [
    Operator("float.scale", _float_op(lambda x, r: x * r.choice([2.0, 0.5, 10.0, 0.1]))),
    Operator("float.negate", _float_op(lambda x, r: -x)),
    Operator("float.plus_one", _float_op(lambda x, r: x + 1.0)),
    Operator("float.minus_one", _float_op(lambda x, r: x - 1.0)),
    Operator("float.zero", _float_op(lambda x, r: 0.0)),
    Operator("float.round", _float_op(lambda x, r: float(round(x)) if math.isfinite(x) else 0.0)),
    Operator("float.nan", _float_op(lambda x, r: math.nan)),
    Operator("float.inf", _float_op(lambda x, r: math.inf)),
    Operator("float.neg_inf", _float_op(lambda x, r: -math.inf)),
]


# ---------------------------------------------------------------- chars and strings

def _char_ok(c: str) -> bool:
    return len(c) == 1 and ord(c) <= 0xFFFF and not 0xD800 <= ord(c) <= 0xDFFF


def _shift(c: str, d: int) -> Any:
    n = ord(c) + d
    if 0xD800 <= n <= 0xDFFF:
        n += d * 0x800
    return chr(n) if 0 <= n <= 0xFFFF else SKIP


def _case_flip(c: str) -> Any:
    s = c.swapcase()
    return s if _char_ok(s) else SKIP


def _other_char(c: str, rng: random.Random) -> str:
    return rng.choice(CHAR_POOL)


CHAR_OPS = [
    Operator("char.next", _leaf(lambda v, t, r: _shift(v, 1))),
    Operator("char.prev", _leaf(lambda v, t, r: _shift(v, -1))),
    Operator("char.case_flip", _leaf(lambda v, t, r: _case_flip(v))),
    Operator("char.other", _leaf(lambda v, t, r: _other_char(v, r))),
]


def _str_edit(s: str, rng: random.Random) -> Any:
    if not s:
        return SKIP
    i = rng.randrange(len(s))
    c = rng.choice([_shift(s[i], 1), _shift(s[i], -1), _other_char(s[i], rng)])
    return SKIP if c is SKIP else s[:i] + c + s[i + 1:]


def _str_drop(s: str, rng: random.Random) -> Any:
    if not s:
        return SKIP
    i = rng.randrange(len(s))
    return s[:i] + s[i + 1:]


def _str_dup(s: str, rng: random.Random) -> Any:
    if not s:
        return SKIP
    i = rng.randrange(len(s))
    return s[:i + 1] + s[i:]


def _str_insert(s: str, rng: random.Random) -> str:
    i = rng.randint(0, len(s))
    return s[:i] + _other_char("", rng) + s[i:]


STRING_OPS = [
    Operator("string.edit", _leaf(lambda v, t, r: _str_edit(v, r))),
    Operator("string.drop_char", _leaf(lambda v, t, r: _str_drop(v, r))),
    Operator("string.duplicate_char", _leaf(lambda v, t, r: _str_dup(v, r))),
    Operator("string.insert_char", _leaf(lambda v, t, r: _str_insert(v, r))),
    Operator("string.reverse", _leaf(lambda v, t, r: v[::-1])),
    Operator("string.swapcase", _leaf(lambda v, t, r: v.swapcase())),
    Operator("string.upper", _leaf(lambda v, t, r: v.upper())),
    Operator("string.lower", _leaf(lambda v, t, r: v.lower())),
    Operator("string.empty", _leaf(lambda v, t, r: "")),
]


# ---------------------------------------------------------------- sequences and multisets

def _sort_key(t: Type) -> Callable[[Any], Any]:
    base = t.elem if isinstance(t, NullableType) else t
    if isinstance(base, (IntType, BoolType)):
        return lambda x: (x is None, 0 if x is None else x)
    if isinstance(base, FloatType):
        def fk(x: Any) -> Any:
            f = math.nan if x is None else as_float(x)
            return (math.isnan(f), 0.0 if math.isnan(f) else f)
        return fk
    if isinstance(base, (CharType, StringType)):
        return lambda x: (x is None, "" if x is None else x)
    return lambda x: value_key(x, t)


def _fresh_elem(items: list[Any], et: Type, rng: random.Random) -> Any:
    """A new element: usually a neighbour of an existing one (keeps 2-D rows the same shape)."""
    if items and rng.random() < 0.7:
        base = rng.choice(items)
        res = mutate_once(base, et, rng)
        if res is not None:
            return res[1]
    return random_value(et, rng)


def _seq(f: Callable[[list[Any], Any, random.Random], Any]) -> OpFn:
    def run(v: Any, t: Any, rng: random.Random) -> Any:
        if v is None:
            return SKIP
        return f(list(v), t, rng)

    return run


def _drop(items: list[Any], t: Any, rng: random.Random) -> Any:
    if not items:
        return SKIP
    del items[rng.randrange(len(items))]
    return "", items


def _insert(items: list[Any], t: Any, rng: random.Random) -> Any:
    items.insert(rng.randint(0, len(items)), _fresh_elem(items, t.elem, rng))
    return "", items


def _duplicate(items: list[Any], t: Any, rng: random.Random) -> Any:
    if not items:
        return SKIP
    i = rng.randrange(len(items))
    items.insert(i, items[i])
    return "", items


def _swap(items: list[Any], t: Any, rng: random.Random) -> Any:
    keys = [value_key(x, t.elem) for x in items]
    pairs = [(i, j) for i in range(len(items)) for j in range(i + 1, min(len(items), i + 8))
             if keys[i] != keys[j]]
    if not pairs:
        return SKIP
    i, j = rng.choice(pairs)
    items[i], items[j] = items[j], items[i]
    return "", items


def _sorted(desc: bool) -> Callable[[list[Any], Any, random.Random], Any]:
    def f(items: list[Any], t: Any, rng: random.Random) -> Any:
        return "", sorted(items, key=_sort_key(t.elem), reverse=desc)
    return f


def _change_elem(items: list[Any], t: Any, rng: random.Random) -> Any:
    if not items:
        return SKIP
    i = rng.randrange(len(items))
    res = mutate_once(items[i], t.elem, rng)
    if res is None:
        return SKIP
    items[i] = res[1]
    return res[0], items


def _empty(items: list[Any], t: Any, rng: random.Random) -> Any:
    return "", []


def _to_null(v: Any, t: Any, rng: random.Random) -> Any:
    return SKIP if v is None else ("", None)


def _from_null(v: Any, t: Any, rng: random.Random) -> Any:
    if v is not None:
        return SKIP
    inner = t.elem if isinstance(t, NullableType) else t
    if isinstance(inner, SeqType):
        return "", [random_value(inner.elem, rng) for _ in range(rng.randint(0, 3))]
    return "", random_value(inner, rng)


SEQ_OPS = [
    Operator("seq.drop", _seq(_drop)),
    Operator("seq.insert", _seq(_insert)),
    Operator("seq.duplicate", _seq(_duplicate)),
    Operator("seq.swap", _seq(_swap)),
    Operator("seq.reverse", _seq(lambda items, t, r: ("", items[::-1]))),
    Operator("seq.sort", _seq(_sorted(False))),
    Operator("seq.sort_desc", _seq(_sorted(True))),
    Operator("seq.change_elem", _seq(_change_elem)),
    Operator("seq.empty", _seq(_empty)),
]
ARRAY_NULL_OPS = [Operator("array.null", _to_null), Operator("array.from_null", _from_null)]

MULTISET_OPS = [
    Operator("multiset.drop", _seq(_drop)),
    Operator("multiset.add", _seq(_insert)),
    Operator("multiset.duplicate", _seq(_duplicate)),
    Operator("multiset.change_elem", _seq(_change_elem)),
    Operator("multiset.empty", _seq(_empty)),
]


# ---------------------------------------------------------------- sets and maps

def _set_add(items: list[Any], t: Any, rng: random.Random) -> Any:
    kt = t.elem if isinstance(t, SetType) else t.key
    keys = {value_key(x if isinstance(t, SetType) else x[0], kt) for x in items}
    existing = items if isinstance(t, SetType) else [p[0] for p in items]
    for _ in range(8):
        k = _fresh_elem(existing, kt, rng)
        if value_key(k, kt) not in keys:
            items.append(k if isinstance(t, SetType) else [k, random_value(t.value, rng)])
            return "", items
    return SKIP


def _map_change(which: int) -> Callable[[list[Any], Any, random.Random], Any]:
    def f(items: list[Any], t: MapType, rng: random.Random) -> Any:
        if not items:
            return SKIP
        i = rng.randrange(len(items))
        pair = list(items[i])
        res = mutate_once(pair[which], t.key if which == 0 else t.value, rng)
        if res is None:
            return SKIP
        pair[which] = res[1]
        items[i] = pair
        return res[0], items
    return f


SET_OPS = [
    Operator("set.drop", _seq(_drop)),
    Operator("set.add", _seq(_set_add)),
    Operator("set.change_elem", _seq(_change_elem)),
    Operator("set.empty", _seq(_empty)),
]

MAP_OPS = [
    Operator("map.drop", _seq(_drop)),
    Operator("map.add", _seq(_set_add)),
    Operator("map.change_value", _seq(_map_change(1))),
    Operator("map.change_key", _seq(_map_change(0))),
    Operator("map.empty", _seq(_empty)),
]


# ---------------------------------------------------------------- options, tuples, structs

def _opt_none(v: Any, t: Any, rng: random.Random) -> Any:
    return SKIP if v is None else ("", None)


def _opt_some(v: Any, t: OptionType, rng: random.Random) -> Any:
    return SKIP if v is not None else ("", {"some": random_value(t.elem, rng)})


def _opt_change(v: Any, t: OptionType, rng: random.Random) -> Any:
    if v is None:
        return SKIP
    res = mutate_once(v["some"], t.elem, rng)
    return SKIP if res is None else (res[0], {"some": res[1]})


OPTION_OPS = [
    Operator("option.none", _opt_none),
    Operator("option.some", _opt_some),
    Operator("option.change", _opt_change),
]


def _tuple_change(v: Any, t: TupleType, rng: random.Random) -> Any:
    if v is None or not t.elems:
        return SKIP
    i = rng.randrange(len(t.elems))
    res = mutate_once(v[i], t.elems[i], rng)
    if res is None:
        return SKIP
    new = list(v)
    new[i] = res[1]
    return res[0], new


def _struct_change(v: Any, t: StructType, rng: random.Random) -> Any:
    if v is None or not t.fields:
        return SKIP
    name, ft = t.fields[rng.randrange(len(t.fields))]
    res = mutate_once(v[name], ft, rng)
    if res is None:
        return SKIP
    return f"{name}:{res[0]}", {**v, name: res[1]}


TUPLE_OPS = [Operator("tuple.change_field", _tuple_change)]
STRUCT_OPS = [Operator("struct.change_field", _struct_change)]
NULLABLE_OPS = [Operator("nullable.null", _to_null), Operator("nullable.from_null", _from_null)]


def _unwrap(op: Operator) -> Operator:
    """The operator of a nullable's element type, applied to the non-null value."""
    def run(v: Any, t: Any, rng: random.Random) -> Any:
        return SKIP if v is None else op.fn(v, t.elem, rng)

    return Operator(op.name, run)


def operators_for(ty: Type) -> list[Operator]:
    """Every operator that may apply to values of ``ty``."""
    if isinstance(ty, NullableType):
        # a nullable array is already nullable: keep one pair of null operators
        inner = [_unwrap(op) for op in operators_for(ty.elem) if not op.name.startswith("array.")]
        return NULLABLE_OPS + inner
    if isinstance(ty, BoolType):
        return BOOL_OPS
    if isinstance(ty, IntType):
        return INT_OPS
    if isinstance(ty, FloatType):
        return FLOAT_OPS
    if isinstance(ty, CharType):
        return CHAR_OPS
    if isinstance(ty, StringType):
        return STRING_OPS
    if isinstance(ty, SeqType):
        return SEQ_OPS + (ARRAY_NULL_OPS if ty.kind == "array" else [])
    if isinstance(ty, SetType):
        return SET_OPS
    if isinstance(ty, MultisetType):
        return MULTISET_OPS
    if isinstance(ty, MapType):
        return MAP_OPS
    if isinstance(ty, OptionType):
        return OPTION_OPS
    if isinstance(ty, TupleType):
        return TUPLE_OPS
    if isinstance(ty, StructType):
        return STRUCT_OPS
    raise TypeError(f"no mutation operators for type {ty}")  # pragma: no cover


def all_operator_names() -> list[str]:
    """Names of every operator (for docs and report tables)."""
    groups = [INT_OPS, BOOL_OPS, FLOAT_OPS, CHAR_OPS, STRING_OPS, SEQ_OPS, ARRAY_NULL_OPS,
              SET_OPS, MULTISET_OPS, MAP_OPS, OPTION_OPS, TUPLE_OPS, STRUCT_OPS, NULLABLE_OPS]
    return [op.name for g in groups for op in g]
