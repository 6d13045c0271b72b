"""Task values as Python values and back (``runtime/pyvalues``): each type one reading."""

from __future__ import annotations

import collections
import math

import pytest

from adequacy.plugin import parse_type
from adequacy_python.pytypes import infer_type, problem, type_tree
from adequacy_python.runtime.pyvalues import ValueMismatch, decode, encode

ROUND_TRIPS = [
    ("int", 10**40), ("i8", -128), ("bool", True), ("string", "héllo"), ("char", "x"),
    ("f64", 1.5), ("list<int>", [1, 2, 3]), ("tuple<int, string>", [1, "a"]),
    ("map<string, int>", [["a", 1], ["b", 2]]), ("set<int>", [1, 2, 3]),
    ("option<int>", None), ("option<int>", {"some": 3}), ("list<option<string>>", [None, {"some": "a"}]),
    ("multiset<int>", [1, 1, 2]), ("set<tuple<int, int>>", [[0, 1], [2, 3]]),
]


@pytest.mark.parametrize("text,value", ROUND_TRIPS, ids=[f"{t}={v}" for t, v in ROUND_TRIPS])
def test_round_trip(text: str, value: object) -> None:
    t = type_tree(parse_type(text))
    assert encode(decode(value, t), t) == value


def test_python_readings() -> None:
    assert decode([[1, 2]], type_tree(parse_type("list<tuple<int, int>>"))) == [(1, 2)]
    assert decode([1, 1, 2], type_tree(parse_type("multiset<int>"))) == \
        collections.Counter({1: 2, 2: 1})
    assert math.isnan(decode("NaN", "float"))
    assert decode(3, "float") == 3.0 and isinstance(decode(3, "float"), float)
    assert encode(3, "float") == 3.0  # an int where the type says float: Python's tower
    assert encode(float("inf"), "float") == "Infinity"


@pytest.mark.parametrize("value,text", [(True, "int"), (1, "bool"), ([1, "a"], "list<int>"),
                                        ((1, 2), "tuple<int>"), (300, "i8"), ("ab", "char"),
                                        ([1], "tuple<int>"), ({1: 2}, "list<int>")])
def test_a_value_of_another_type_is_refused(value: object, text: str) -> None:
    with pytest.raises(ValueMismatch):
        encode(value, type_tree(parse_type(text)))


def test_sets_encode_in_one_order_whatever_the_hash_seed() -> None:
    t = type_tree(parse_type("set<string>"))
    assert encode({"b", "c", "a"}, t) == ["a", "b", "c"]


@pytest.mark.parametrize("text", ["set<list<int>>", "map<set<int>, int>",
                                  "option<option<int>>"])
def test_types_without_one_python_reading(text: str) -> None:
    assert problem(parse_type(text))


def test_types_from_examples() -> None:
    assert infer_type([[1, 2], []]) == "list<int>"
    assert infer_type([[1, 2.5]]) == "list<f64>"
    assert infer_type([None, 3]) == "option<int>"
    assert infer_type([(1, "a"), (2, "b")]) == "tuple<int, string>"
    assert infer_type([1, "a"]) is None
    assert infer_type([(1,), (1, 2)]) is None
