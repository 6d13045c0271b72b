"""Lean signature types -> the type language, and the refusals with their reasons."""

from __future__ import annotations

import pytest

from adequacy_verus.verina.lean_types import LeanType, LeanTypeError, parse_lean_type, schema_text


@pytest.mark.parametrize(("lean", "schema"), [
    ("Int", "i64"),
    ("Nat", "u64"),
    ("Bool", "bool"),
    ("Char", "char"),
    ("String", "string"),
    ("UInt8", "u8"),
    ("List Int", "seq<i64>"),
    ("Array Nat", "seq<u64>"),
    ("List (Int)", "seq<i64>"),
    ("Array (Array Int)", "seq<seq<i64>>"),
    ("List (List Nat)", "seq<seq<u64>>"),
    ("Option Nat", "option<u64>"),
    ("Option (Nat × Nat)", "option<tuple<u64, u64>>"),
    ("Int × Int", "tuple<i64, i64>"),
    ("(Int × Int)", "tuple<i64, i64>"),
    ("Prod Nat Nat", "tuple<u64, u64>"),
    ("List (Prod Int Int)", "seq<tuple<i64, i64>>"),
    ("(Array Int × Bool)", "tuple<seq<i64>, bool>"),
    ("(List Nat × List Nat)", "tuple<seq<u64>, seq<u64>>"),
    ("List (Char × Nat)", "seq<tuple<char, u64>>"),
    ("UInt8 × UInt8", "tuple<u8, u8>"),
    # × is right-associative in Lean and (a, b, c) is how Lean prints the nested pair
    ("Int × Nat × Bool", "tuple<i64, u64, bool>"),
    # VERINA's task-local association-list structure
    ("Map Int Int", "seq<tuple<i64, i64>>"),
])
def test_mapped_types(lean: str, schema: str) -> None:
    assert schema_text(parse_lean_type(lean)) == schema


def test_list_and_array_stay_distinct_lean_types() -> None:
    # both map to seq<i64> but print differently, so the Lean tree keeps them apart
    assert parse_lean_type("List Int") == LeanType("List", (LeanType("Int"),))
    assert parse_lean_type("Array Int") == LeanType("Array", (LeanType("Int"),))


@pytest.mark.parametrize(("lean", "what", "words"), [
    ("Float", "Float", "floating-point"),
    ("List Float", "Float", "floating-point"),
    ("Int × Float", "Float", "floating-point"),
    ("Int -> Bool", "function", "function"),
    ("Nat → Nat", "function", "function"),
    ("HashMap Int Nat", "HashMap", "HashMap"),
    ("Prop", "Prop", "proposition"),
    ("Foo", "Foo", "unknown Lean type"),
])
def test_refused_types_say_why(lean: str, what: str, words: str) -> None:
    with pytest.raises(LeanTypeError) as e:
        schema_text(parse_lean_type(lean))
    assert e.value.what == what
    assert words in str(e.value)


@pytest.mark.parametrize("bad", ["List", "(Int", "Int)", "Int × ", "List Int $"])
def test_malformed_types_do_not_parse(bad: str) -> None:
    with pytest.raises(LeanTypeError):
        schema_text(parse_lean_type(bad))
