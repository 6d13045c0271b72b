"""The built-in mutation operators, one list per constructor of the type language, and the
operators of a type: the registry's, from every plugin (``adequacy_mutation_operators``).

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
from typing import Any

from adequacy.extensions.operators import SKIP, MutationOperator, OperatorFn
from adequacy.extensions.registry import registry
from adequacy.model.identity import float_value, strictly_valid, value_key
from adequacy.model.random_values import CHAR_POOL, random_value
from adequacy.model.types import (
    BoolType,
    CharType,
    FloatType,
    IntType,
    MapType,
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
from adequacy.model.values import as_float

__all__ = ["BUILTIN_OPERATORS", "mutate_once", "operators_for"]

OpFn = OperatorFn


def _op(name: str, constructor: str, fn: OpFn, deterministic: bool = False,
        applies: Callable[[Type], bool] | None = None) -> MutationOperator:
    return MutationOperator(name=name, constructor=constructor, fn=fn,
                            deterministic=deterministic, applies=applies)


def _is_array(ty: Type) -> bool:
    return isinstance(ty, SeqType) and ty.kind == "array"


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
    _op("int.plus_one", "int", _leaf(lambda v, t, r: v + 1), deterministic=True),
    _op("int.minus_one", "int", _leaf(lambda v, t, r: v - 1), deterministic=True),
    _op("int.plus_two", "int", _leaf(lambda v, t, r: v + 2), deterministic=True),
    _op("int.minus_two", "int", _leaf(lambda v, t, r: v - 2), deterministic=True),
    _op("int.negate", "int", _leaf(lambda v, t, r: -v), deterministic=True),
    _op("int.zero", "int", _leaf(lambda v, t, r: 0), deterministic=True),
    _op("int.min", "int", _leaf(_int_bound(0)), deterministic=True),
    _op("int.max", "int", _leaf(_int_bound(1)), deterministic=True),
    _op("int.nearby", "int", _leaf(_int_nearby)),
    _op("int.double", "int", _leaf(lambda v, t, r: 2 * v), deterministic=True),
]

BOOL_OPS = [_op("bool.flip", "bool", _leaf(lambda v, t, r: not v), deterministic=True)]


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
    _op("float.scale", "float", _float_op(lambda x, r: x * r.choice([2.0, 0.5, 10.0, 0.1]))),
    _op("float.negate", "float", _float_op(lambda x, r: -x), deterministic=True),
    _op("float.plus_one", "float", _float_op(lambda x, r: x + 1.0), deterministic=True),
    _op("float.minus_one", "float", _float_op(lambda x, r: x - 1.0), deterministic=True),
    _op("float.zero", "float", _float_op(lambda x, r: 0.0), deterministic=True),
    _op("float.round", "float", _float_op(lambda x, r: float(round(x)) if math.isfinite(x)
                                          else 0.0), deterministic=True),
    _op("float.nan", "float", _float_op(lambda x, r: math.nan), deterministic=True),
    _op("float.inf", "float", _float_op(lambda x, r: math.inf), deterministic=True),
    _op("float.neg_inf", "float", _float_op(lambda x, r: -math.inf), deterministic=True),
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
    _op("char.next", "char", _leaf(lambda v, t, r: _shift(v, 1)), deterministic=True),
    _op("char.prev", "char", _leaf(lambda v, t, r: _shift(v, -1)), deterministic=True),
    _op("char.case_flip", "char", _leaf(lambda v, t, r: _case_flip(v)), deterministic=True),
    _op("char.other", "char", _leaf(lambda v, t, r: _other_char(v, r))),
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
    _op("string.edit", "string", _leaf(lambda v, t, r: _str_edit(v, r))),
    _op("string.drop_char", "string", _leaf(lambda v, t, r: _str_drop(v, r))),
    _op("string.duplicate_char", "string", _leaf(lambda v, t, r: _str_dup(v, r))),
    _op("string.insert_char", "string", _leaf(lambda v, t, r: _str_insert(v, r))),
    _op("string.reverse", "string", _leaf(lambda v, t, r: v[::-1]), deterministic=True),
    _op("string.swapcase", "string", _leaf(lambda v, t, r: v.swapcase()), deterministic=True),
    _op("string.upper", "string", _leaf(lambda v, t, r: v.upper()), deterministic=True),
    _op("string.lower", "string", _leaf(lambda v, t, r: v.lower()), deterministic=True),
    _op("string.empty", "string", _leaf(lambda v, t, r: ""), deterministic=True),
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
    _op("seq.drop", "seq", _seq(_drop)),
    _op("seq.insert", "seq", _seq(_insert)),
    _op("seq.duplicate", "seq", _seq(_duplicate)),
    _op("seq.swap", "seq", _seq(_swap)),
    _op("seq.reverse", "seq", _seq(lambda items, t, r: ("", items[::-1])), deterministic=True),
    _op("seq.sort", "seq", _seq(_sorted(False)), deterministic=True),
    _op("seq.sort_desc", "seq", _seq(_sorted(True)), deterministic=True),
    _op("seq.change_elem", "seq", _seq(_change_elem)),
    _op("seq.empty", "seq", _seq(_empty), deterministic=True),
]
ARRAY_NULL_OPS = [
    _op("array.null", "seq", _to_null, deterministic=True, applies=_is_array),
    _op("array.from_null", "seq", _from_null, applies=_is_array),
]

MULTISET_OPS = [
    _op("multiset.drop", "multiset", _seq(_drop)),
    _op("multiset.add", "multiset", _seq(_insert)),
    _op("multiset.duplicate", "multiset", _seq(_duplicate)),
    _op("multiset.change_elem", "multiset", _seq(_change_elem)),
    _op("multiset.empty", "multiset", _seq(_empty), deterministic=True),
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
    _op("set.drop", "set", _seq(_drop)),
    _op("set.add", "set", _seq(_set_add)),
    _op("set.change_elem", "set", _seq(_change_elem)),
    _op("set.empty", "set", _seq(_empty), deterministic=True),
]

MAP_OPS = [
    _op("map.drop", "map", _seq(_drop)),
    _op("map.add", "map", _seq(_set_add)),
    _op("map.change_value", "map", _seq(_map_change(1))),
    _op("map.change_key", "map", _seq(_map_change(0))),
    _op("map.empty", "map", _seq(_empty), deterministic=True),
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
    _op("option.none", "option", _opt_none, deterministic=True),
    _op("option.some", "option", _opt_some),
    _op("option.change", "option", _opt_change),
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


TUPLE_OPS = [_op("tuple.change_field", "tuple", _tuple_change)]
STRUCT_OPS = [_op("struct.change_field", "struct", _struct_change)]
NULLABLE_OPS = [
    _op("nullable.null", "nullable", _to_null, deterministic=True),
    _op("nullable.from_null", "nullable", _from_null),
]


def _unwrap(op: MutationOperator) -> MutationOperator:
    """The operator of a nullable's element type, applied to the non-null value."""
    def run(v: Any, t: Any, rng: random.Random) -> Any:
        return SKIP if v is None else op.fn(v, t.elem, rng)

    return MutationOperator(name=op.name, constructor="nullable", fn=run,
                            description=op.description, deterministic=op.deterministic)


BUILTIN_OPERATORS: list[MutationOperator] = [
    *INT_OPS, *BOOL_OPS, *FLOAT_OPS, *CHAR_OPS, *STRING_OPS, *SEQ_OPS, *ARRAY_NULL_OPS,
    *SET_OPS, *MULTISET_OPS, *MAP_OPS, *OPTION_OPS, *TUPLE_OPS, *STRUCT_OPS, *NULLABLE_OPS]
"""Registered through ``adequacy_mutation_operators`` (``adequacy_mutators.plugin``)."""


class _OperatorsFor(TypeVisitor[[], list[MutationOperator]]):
    """Every operator that may apply to values of a type: the registered operators of its
    constructor; a nullable's own and its element's, unwrapped."""

    def visit_nullable(self, ty: NullableType) -> list[MutationOperator]:
        # a nullable array is already nullable: keep one pair of null operators
        inner = [_unwrap(op) for op in operators_for(ty.elem) if not op.name.startswith("array.")]
        return self._registered(ty) + inner

    def _registered(self, ty: Type) -> list[MutationOperator]:
        return [op for op in registry().operators_of(ty.constructor) if op.applies_to(ty)]

    visit_bool = visit_int = visit_float = visit_char = visit_string = _registered
    visit_seq = visit_set = visit_multiset = visit_map = _registered
    visit_option = visit_tuple = visit_struct = _registered


_OPERATORS_FOR = _OperatorsFor()


def operators_for(ty: Type) -> list[MutationOperator]:
    """Every operator that may apply to values of ``ty``, in registration order."""
    return visit(ty, _OPERATORS_FOR)


def all_operator_names() -> list[str]:
    """Names of every registered operator (for docs and report tables)."""
    return list(registry().operators)
