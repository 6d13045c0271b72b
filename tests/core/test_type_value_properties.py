"""Property tests of the task type language and its values (Hypothesis).

What the verdict cache and every engine rely on: a type prints to text that parses back to
the same type; a value that fits its type keeps fitting once canonicalised; the canonical
form is a fixed point that survives a JSON round trip; and two writings of one set or map
(another element order) get the same key, while two different values get different keys.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from adequacy.errors import ValueTypeError
from adequacy.model.types import (
    INT_WIDTHS,
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
    parse_type,
)
from adequacy.model.values import canonical, encode, validate, value_hash

pytestmark = pytest.mark.property

SCALARS: list[Type] = [BoolType(), CharType(), StringType(), FloatType("f32"), FloatType("f64"),
                       IntType("int"), IntType("nat"), *(IntType(n) for n in INT_WIDTHS)]


def _compound(inner: st.SearchStrategy[Type]) -> st.SearchStrategy[Type]:
    return st.one_of(
        st.builds(SeqType, inner, st.sampled_from(["seq", "array", "list"])),
        st.builds(SetType, inner), st.builds(MultisetType, inner),
        st.builds(MapType, inner, inner), st.builds(OptionType, inner),
        st.builds(NullableType, inner),
        st.lists(inner, min_size=1, max_size=3).map(lambda ts: TupleType(tuple(ts))))


TYPES = st.recursive(st.sampled_from(SCALARS), _compound, max_leaves=6)


def _ints(t: IntType) -> st.SearchStrategy[int]:
    lo, hi = t.bounds
    return st.integers(min_value=lo, max_value=hi)


def _unique(elems: st.SearchStrategy[Any], ty: Type, key: Any = None
            ) -> st.SearchStrategy[list[Any]]:
    """Lists whose elements (or the keys ``key`` picks) differ once canonicalised."""
    pick = key or (lambda v: v)
    return st.lists(elems, max_size=4, unique_by=lambda v: encode(pick(v), ty))


def values_of(t: Type) -> st.SearchStrategy[Any]:
    """Values that fit ``t`` (the JSON form a task's cases file holds)."""
    if isinstance(t, BoolType):
        return st.booleans()
    if isinstance(t, IntType):
        return _ints(t)
    if isinstance(t, FloatType):
        finite = st.floats(width=32 if t.name == "f32" else 64)
        return st.one_of(finite, st.sampled_from(["NaN", "Infinity", "-Infinity"]))
    if isinstance(t, CharType):
        return st.characters(exclude_categories=["Cs"])
    if isinstance(t, StringType):
        return st.text(st.characters(exclude_categories=["Cs"]), max_size=6)
    if isinstance(t, NullableType):
        return st.one_of(st.none(), values_of(t.elem))
    if isinstance(t, SeqType):
        items = st.lists(values_of(t.elem), max_size=4)
        return st.one_of(st.none(), items) if t.kind == "array" else items
    if isinstance(t, SetType):
        return _unique(values_of(t.elem), t.elem)
    if isinstance(t, MultisetType):
        return st.lists(values_of(t.elem), max_size=4)
    if isinstance(t, MapType):
        pairs = st.tuples(values_of(t.key), values_of(t.value)).map(list)
        return _unique(pairs, t.key, key=lambda p: p[0])
    if isinstance(t, OptionType):
        return st.one_of(st.none(), values_of(t.elem).map(lambda v: {"some": v}))
    if isinstance(t, TupleType):
        return st.tuples(*(values_of(e) for e in t.elems)).map(list)
    raise AssertionError(f"no strategy for {t}")


@st.composite
def typed_values(draw: st.DrawFn) -> tuple[Type, Any]:
    t = draw(TYPES)
    return t, draw(values_of(t))


@given(TYPES)
def test_a_type_prints_to_text_that_parses_back_to_it(t: Type) -> None:
    assert parse_type(str(t)) == t
    assert str(parse_type(str(t))) == str(t)


@given(st.lists(st.sampled_from(SCALARS), min_size=1, max_size=4))
def test_a_struct_type_resolves_its_fields_from_the_table(fields: list[Type]) -> None:
    table = {"Point": {f"f{i}": str(t) for i, t in enumerate(fields)}}
    s = parse_type("seq<Point>", table)
    assert isinstance(s, SeqType) and isinstance(s.elem, StructType)
    assert s.elem.fields == tuple((f"f{i}", t) for i, t in enumerate(fields))


@given(typed_values())
def test_canonical_form_fits_is_a_fixed_point_and_survives_json(tv: tuple[Type, Any]) -> None:
    t, v = tv
    validate(v, t)
    c = canonical(v, t)
    validate(c, t)
    assert canonical(c, t) == c
    text = encode(v, t)
    assert encode(json.loads(text), t) == text
    assert value_hash(json.loads(text), t) == value_hash(v, t)


@given(st.data())
def test_element_order_does_not_change_a_set_or_map_key(data: st.DataObject) -> None:
    elem = data.draw(st.sampled_from(SCALARS))
    t = data.draw(st.sampled_from([SetType(elem), MultisetType(elem), MapType(elem, elem)]))
    v = data.draw(values_of(t))
    shuffled = data.draw(st.permutations(v))
    assert encode(shuffled, t) == encode(v, t)
    et = elem if not isinstance(t, MapType) else TupleType((elem, elem))
    seq = SeqType(et)
    if [encode(x, et) for x in shuffled] != [encode(x, et) for x in v]:
        # order is meaning for a sequence: another order is another value
        assert encode(list(shuffled), seq) != encode(v, seq)


@given(st.data())
def test_distinct_ints_get_distinct_keys_and_out_of_range_is_refused(data: st.DataObject
                                                                        ) -> None:
    t = data.draw(st.sampled_from([IntType(n) for n in INT_WIDTHS]))
    a, b = data.draw(_ints(t)), data.draw(_ints(t))
    assert (value_hash(a, t) == value_hash(b, t)) == (a == b)
    lo, hi = t.bounds
    assert lo is not None and hi is not None
    with pytest.raises(ValueTypeError):
        validate(data.draw(st.sampled_from([lo - 1, hi + 1])), t)
