"""Rendering typed JSON values for the exec_spec harness and the verifier driver."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from adequacy.model.types import parse_type
from adequacy.model.values import canonical
from adequacy_verus.render import decode_tokens, encode_tokens, rust_decoder, spec_expr

STRUCTS = {"Point": {"x": "i32", "y": "i32"}}

SAMPLES: list[tuple[str, Any]] = [
    ("i64", -9223372036854775808),
    ("u128", 340282366920938463463374607431768211455),
    ("int", 10**40),
    ("bool", True),
    ("char", "é"),
    ("char", " "),
    ("string", ""),
    ("string", "a b\n\"q\"\\ ✓"),
    ("seq<seq<i8>>", [[1, -2], [], [3]]),
    ("set<u8>", [3, 1]),
    ("multiset<i32>", [1, 1, 2]),
    ("map<char, string>", [["a", "x y"], ["b", ""]]),
    ("option<option<i16>>", {"some": None}),
    ("option<i16>", None),
    ("tuple<bool, char, string>", [False, "z", "zz"]),
    ("seq<Point>", [{"x": 1, "y": -1}]),
]


@pytest.mark.parametrize(("ty", "value"), SAMPLES)
def test_tokens_round_trip(ty: str, value: Any) -> None:
    t = parse_type(ty, STRUCTS)
    toks = encode_tokens(value, t)
    assert all(tok and not any(c.isspace() for c in tok) for tok in toks)
    back = decode_tokens(iter(toks), t)
    assert canonical(back, t) == canonical(value, t)


@given(st.lists(st.tuples(st.text(max_size=5), st.integers(-2**63, 2**63 - 1)), max_size=6))
def test_tokens_round_trip_generated(rows: list[tuple[str, int]]) -> None:
    t = parse_type("seq<tuple<string, i64>>")
    value = [[s, n] for s, n in rows]
    assert decode_tokens(iter(encode_tokens(value, t)), t) == value


def test_string_tokens_are_code_points() -> None:
    assert encode_tokens("hé", parse_type("string")) == ["2", "104", "233"]
    assert encode_tokens({"some": [7]}, parse_type("option<seq<u8>>")) == ["1", "1", "7"]


def test_rust_decoder_reads_fields_in_declared_order() -> None:
    t = parse_type("Point", STRUCTS)
    assert rust_decoder(t) == "ExecPoint { x: r.num::<i32>(), y: r.num::<i32>() }"
    assert "ExecMultiset { m }" in rust_decoder(parse_type("multiset<u8>"))
    assert rust_decoder(parse_type("tuple<bool, char>")) == "(r.boolean(), r.chr(), )"


@pytest.mark.parametrize(("ty", "value", "expected"), [
    ("i64", -5, "((-5int) as i64)"),
    ("i8", -128, "((-128int) as i8)"),
    ("u8", 7, "7u8"),
    ("int", -3, "(-3int)"),
    ("string", "a'b", "seq!['a', '\\'', 'b']"),
    ("string", "", "Seq::<char>::empty()"),
    ("seq<u8>", [], "Seq::<u8>::empty()"),
    ("option<bool>", {"some": True}, "Option::Some(true)"),
    ("tuple<u8>", [1], "(1u8,)"),
    ("map<u8, bool>", [[1, True]], "map![1u8 => true]"),
    ("multiset<u8>", [2, 2], "Multiset::<u8>::empty().insert(2u8).insert(2u8)"),
    ("Point", {"x": 1, "y": 2}, "Point { x: 1i32, y: 2i32 }"),
])
def test_spec_expressions(ty: str, value: Any, expected: str) -> None:
    assert spec_expr(value, parse_type(ty, STRUCTS)) == expected
