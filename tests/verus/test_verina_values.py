"""VERINA value strings -> typed JSON, printed back, and checked for the round trip."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from adequacy_verus.verina.lean_types import LeanType, parse_lean_type
from adequacy_verus.verina.lean_values import LeanValueError, convert, parse_text, print_value


def lt(text: str) -> LeanType:
    return parse_lean_type(text)


@pytest.mark.parametrize(("lean", "raw", "value"), [
    ("Int", -5, -5),
    ("Int", "-5", -5),
    ("Nat", "10", 10),
    ("Bool", True, True),
    ("Bool", "false", False),
    ("List Int", "[2, 2, 3]", [2, 2, 3]),
    ("List Int", "[]", []),
    ("List Int", [4, 5, 1], [4, 5, 1]),
    ("Array Int", "#[1, -2]", [1, -2]),
    ("Array Int", "#[]", []),
    ("Array (Array Nat)", "#[#[1, 2], #[]]", [[1, 2], []]),
    ("List (List Nat)", "[[3, 1], [4, 2]]", [[3, 1], [4, 2]]),
    # top-level strings and chars are stored raw; nested ones are Lean literals
    ("String", "abc", "abc"),
    ("String", "No 'x' in Nixon", "No 'x' in Nixon"),
    ("String", "", ""),
    ("Char", "x", "x"),
    ("Char", "'a'", "a"),
    ("Array Char", "#['X','Y']", ["X", "Y"]),
    ("List Char", "['x', 'y']", ["x", "y"]),
    ("List String", '["a", "b\\"c"]', ["a", 'b"c']),
    ("Option Int", "some 3", {"some": 3}),
    ("Option Int", "none", None),
    ("Option Nat", "some (0)", {"some": 0}),
    ("Option Char", "some ('a')", {"some": "a"}),
    ("Option (Nat × Nat)", "some (0, 1)", {"some": [0, 1]}),
    ("Int × Int", "(1, -2)", [1, -2]),
    ("(Array Int × Bool)", "(#[0, 10], true)", [[0, 10], True]),
    ("(List Nat × List Nat)", "([], [1, 3])", [[], [1, 3]]),
    ("List (Char × Nat)", "[('a', 2), ('b', 3)]", [["a", 2], ["b", 3]]),
    ("Map Int Int", "⟨[(1, 10), (2, 20)]⟩", [[1, 10], [2, 20]]),
    ("Map Int Int", "⟨[]⟩", []),
    ("UInt8 × UInt8", "(1, 255)", [1, 255]),
])
def test_convert(lean: str, raw: Any, value: Any) -> None:
    assert convert(raw, lt(lean)) == value


@pytest.mark.parametrize(("lean", "raw", "words"), [
    ("Nat", 6285195213566005335561053533150026217291776, "out of range"),
    ("Nat", -1, "out of range"),
    ("Int", 9223372036854775808, "out of range"),
    ("UInt8", 256, "out of range"),
    ("List Nat", "[1, 18446744073709551616]", "out of range"),
    ("List Int", "[1, 2", "ends early"),
    ("List Int", "[1, 2] 3", "unexpected"),
    ("Array Int", "#[1, x]", "expected an integer"),
    ("Bool", "yes", "true or false"),
    ("Option Int", "just 3", "none or some"),
    ("Char", "ab", "Char literal"),
    ("Int", 1.5, "does not fit"),
    ("List Int", "[1, 2,]", "expected an integer"),
])
def test_bad_values_say_why(lean: str, raw: Any, words: str) -> None:
    with pytest.raises(LeanValueError) as e:
        convert(raw, lt(lean))
    assert words in str(e.value)


def test_round_trip_catches_the_wrong_bracket() -> None:
    # the parser is not lenient about brackets: a List written as #[..] is refused
    with pytest.raises(LeanValueError):
        convert("#[1, 2]", lt("List Int"))


def test_round_trip_ignores_whitespace_and_atom_parentheses() -> None:
    assert convert("[5,7]", lt("List Nat")) == [5, 7]
    assert convert("  [ 1 ,2 ]", lt("List Int")) == [1, 2]
    assert convert("[(1), (-2)]", lt("List Int")) == [1, -2]


@pytest.mark.parametrize(("lean", "value", "text"), [
    ("Option Int", {"some": -1}, "some (-1)"),
    ("Option Int", {"some": 1}, "some 1"),
    ("Option (Nat × Nat)", {"some": [0, 1]}, "some (0, 1)"),
    ("Option (Option Int)", {"some": None}, "some (none)"),
    ("List String", ["a\nb", "q\"", "\\"], '["a\\nb", "q\\"", "\\\\"]'),
    ("Array Char", ["'"], "#['\\'']"),
])
def test_print(lean: str, value: Any, text: str) -> None:
    assert print_value(value, lt(lean)) == text
    assert parse_text(text, lt(lean)) == value


_ints = st.integers(min_value=-(2**63), max_value=2**63 - 1)
_nats = st.integers(min_value=0, max_value=2**64 - 1)
_text = st.text(alphabet=st.characters(codec="utf-8"), max_size=8)


@given(st.lists(st.tuples(_ints, _nats, _text, st.characters(codec="utf-8"),
                          st.none() | st.booleans()), max_size=5))
def test_print_parse_round_trip(rows: list[tuple[int, int, str, str, bool | None]]) -> None:
    ty = lt("Array (Int × Nat × List String × Char × Option Bool)")
    value = [[a, b, [s], c, None if o is None else {"some": o}] for a, b, s, c, o in rows]
    text = print_value(value, ty)
    assert parse_text(text, ty) == value
    assert convert(text, ty) == value
