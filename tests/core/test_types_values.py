"""Type language and value validation, with the error paths a person acts on."""

from __future__ import annotations

import pytest

from adequacy.errors import TypeSyntaxError, ValueTypeError
from adequacy.model.types import (
    IntType,
    MapType,
    OptionType,
    SeqType,
    StructType,
    TupleType,
    parse_type,
)
from adequacy.model.values import canonical, encode, validate, value_hash


@pytest.mark.parametrize("text", [
    "bool", "char", "string", "i8", "u128", "usize", "isize", "int", "nat", "f32", "f64",
    "seq<i64>", "array<array<i32>>", "list<string>", "set<u8>", "multiset<char>",
    "map<string, seq<i64>>", "option<option<bool>>", "tuple<i32, string, seq<u8>>",
])
def test_parse_and_print_round_trip(text: str) -> None:
    assert str(parse_type(text)) == text
    assert parse_type(str(parse_type(text))) == parse_type(text)


def test_structs_resolve_fields() -> None:
    t = parse_type("seq<Point>", {"Point": {"x": "i64", "y": "i64"}})
    assert isinstance(t, SeqType) and isinstance(t.elem, StructType)
    assert [n for n, _ in t.elem.fields] == ["x", "y"]


@pytest.mark.parametrize("text,msg", [
    ("seq<", "ends too early"), ("map<i64>", "expected ','"), ("Foo", "unknown type 'Foo'"),
    ("i64 i64", "unexpected 'i64'"), ("seq<i64]", "unexpected character"),
])
def test_type_errors(text: str, msg: str) -> None:
    with pytest.raises(TypeSyntaxError, match=msg):
        parse_type(text)


def test_recursive_struct_rejected() -> None:
    with pytest.raises(TypeSyntaxError, match="recursive"):
        parse_type("Node", {"Node": {"next": "option<Node>"}})


def test_int_bounds() -> None:
    assert IntType("i8").bounds == (-128, 127)
    assert IntType("u64").bounds == (0, 2**64 - 1)
    assert IntType("nat").bounds == (0, None)


def test_error_path_points_into_the_value() -> None:
    with pytest.raises(ValueTypeError) as e:
        validate([1, 2, 3, "x"], parse_type("seq<i64>"), "output.result")
    assert e.value.field == "output.result[3]"
    assert 'expected i64, got "x"' in e.value.message


def test_out_of_range() -> None:
    with pytest.raises(ValueTypeError, match="i8 value 300 out of range"):
        validate(300, parse_type("i8"))
    with pytest.raises(ValueTypeError, match="out of range"):
        validate(-1, parse_type("nat"))
    validate(2**100, parse_type("int"))


@pytest.mark.parametrize("ty,value", [
    ("bool", 1), ("i64", True), ("i64", 1.5), ("char", "ab"), ("string", None),
    ("seq<i64>", None), ("set<i64>", [1, 1]), ("map<i64, bool>", [[1, True], [1, False]]),
    ("map<i64, bool>", [[1]]), ("option<i64>", 3), ("option<i64>", {"some": 1, "x": 2}),
    ("tuple<i64, bool>", [1]), ("f32", 1e39),
])
def test_rejects(ty: str, value: object) -> None:
    with pytest.raises(ValueTypeError):
        validate(value, parse_type(ty))


@pytest.mark.parametrize("ty,value", [
    ("array<i32>", None), ("nullable<string>", None), ("option<i64>", None),
    ("option<i64>", {"some": -3}), ("f64", "NaN"), ("f64", 2), ("multiset<i8>", [1, 1]),
    ("tuple<i64, bool>", [1, False]), ("map<string, i8>", [["a", 1], ["b", 2]]),
])
def test_accepts(ty: str, value: object) -> None:
    validate(value, parse_type(ty))


def test_struct_fields_checked() -> None:
    t = parse_type("P", {"P": {"x": "i64"}})
    validate({"x": 1}, t)
    with pytest.raises(ValueTypeError, match="missing field 'x'"):
        validate({}, t)
    with pytest.raises(ValueTypeError, match="no field 'y'"):
        validate({"x": 1, "y": 2}, t)


def test_canonical_sorts_sets_maps_not_seqs() -> None:
    assert canonical([3, 1, 2], parse_type("set<i64>")) == [1, 2, 3]
    assert canonical([3, 1, 2], parse_type("seq<i64>")) == [3, 1, 2]
    m = MapType(IntType("i64"), IntType("i64"))
    assert canonical([[2, 0], [1, 5]], m) == [[1, 5], [2, 0]]
    assert encode({"some": 1.0}, OptionType(parse_type("f64"))) == '{"some":1.0}'
    assert canonical(float("nan"), parse_type("f64")) == "NaN"


def test_hash_is_stable_and_order_insensitive_for_sets() -> None:
    s = parse_type("set<i64>")
    assert value_hash([1, 2], s) == value_hash([2, 1], s)
    assert value_hash([1, 2], parse_type("seq<i64>")) != value_hash([2, 1], parse_type("seq<i64>"))
    # pinned: the hash must not change between releases (cache keys depend on it)
    assert value_hash([1, 2], s) == value_hash([1, 2], TupleType((s,)).elems[0])
