"""Constraints vocabulary and the invalid-input generator."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from adequacy.errors import TaskError
from adequacy.model.task import Param
from adequacy.model.types import parse_type
from adequacy_mutators import invalid_candidates, parse_constraints, strictly_valid


def params(**types: str) -> list[Param]:
    return [Param(name=n, type=parse_type(t), type_text=t) for n, t in types.items()]


P = params(nums="array<i32>", k="i32", s="nullable<string>")


def test_vocabulary_parses_toml_shapes() -> None:
    table = {"unique_output": False, "k": [0, "nums.len - 1"],
             "nums": {"len": [1, 1000], "elem": [-1000, 1000], "sorted": True,
                      "distinct": True, "nonnull": True},
             "s.nonnull": True}
    cons = parse_constraints(table, P)
    assert not cons.unique_output
    assert {c.key for c in cons.items} == {"k", "nums.len", "nums.elem", "nums.sorted",
                                           "nums.distinct", "nums.nonnull", "s.nonnull"}
    ok = {"nums": [1, 2, 3], "k": 2, "s": "x"}
    assert cons.violations(ok) == []
    assert cons.violations({**ok, "k": 3}) == ["k"]
    assert cons.violations({**ok, "nums": [1, 1, 3]}) == ["nums.distinct"]
    assert cons.violations({**ok, "nums": [3, 2, 1]}) == ["nums.sorted"]
    assert set(cons.violations({**ok, "nums": None})) >= {"nums.len", "nums.nonnull"}
    assert cons.violations({**ok, "s": None}) == ["s.nonnull"]


@pytest.mark.parametrize("table,msg", [
    ({"nums.length": [1, 2]}, "no part 'length'"),
    ({"x": [1, 2]}, "not an argument"),
    ({"k.len": [1, 2]}, "len needs"),
    ({"nums.sorted": "yes"}, "sorted is"),
    ({"k": [0, "nums.size"]}, "bound"),
    ({"unique_output": 1}, "true or false"),
    ({"nums.elem": 5}, "[low, high]"),
])
def test_vocabulary_errors_name_the_key(table: dict[str, Any], msg: str) -> None:
    with pytest.raises(TaskError) as e:
        parse_constraints(table, P)
    assert msg in e.value.message
    assert e.value.field and e.value.field.startswith("constraints.")


def test_candidates_are_near_valid_boundaries() -> None:
    cons = parse_constraints({"nums": {"len": [1, 5], "elem": [-10, 10], "sorted": True,
                                       "distinct": True}, "k": [0, "nums.len - 1"]}, P[:2])
    inp = {"nums": [-3, 0, 4], "k": 1}
    cands = invalid_candidates(inp, P[:2], cons, n=50, seed=0, schema=False)
    by_op = {c.operator: c.input for c in cands}
    assert by_op["range.below"]["nums"] == [-11, 0, 4]  # first element: stays sorted
    assert by_op["range.above"]["nums"] == [-3, 0, 11]
    assert by_op["len.short"]["nums"] == []
    assert len(by_op["len.long"]["nums"]) == 6
    assert by_op["sorted.swap"]["nums"] == [0, -3, 4]
    assert by_op["distinct.copy_neighbour"]["nums"] == [-3, -3, 4]
    assert by_op["range.above"]["nums"] and {c.input["k"] for c in cands if c.target == "k"} \
        == {-1, 3}
    for c in cands:
        assert c.target in cons.violations(c.input)
        # near-valid: only the targeted constraint breaks, apart from k, whose bound is
        # nums.len - 1 and so moves with a length change
        assert set(cons.violations(c.input)) - {"k"} == {c.target} - {"k"} or \
            c.target == "k", c.operator


@st.composite
def constrained(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, Any]]:
    lo = draw(st.integers(-50, 50))
    hi = draw(st.integers(lo, lo + 60))
    a = draw(st.integers(0, 4))
    b = draw(st.integers(a, a + 6))
    sorted_ = draw(st.sampled_from([False, True, "strict", "desc"]))
    distinct = draw(st.booleans()) or sorted_ == "strict"
    n = draw(st.integers(a, b))
    assume(not distinct or hi - lo + 1 >= n)
    elems = st.integers(lo, hi)
    nums = draw(st.lists(elems, min_size=n, max_size=n, unique=distinct))
    if sorted_:
        nums.sort(reverse=sorted_ == "desc")
    k = draw(st.integers(0, max(len(nums), 0)))
    table: dict[str, Any] = {"nums": {"len": [a, b], "elem": [lo, hi], "sorted": sorted_,
                                      "distinct": distinct}, "k": [0, "nums.len"]}
    return table, {"nums": nums, "k": k}


@given(tc=constrained(), seed=st.integers(0, 1000))
def test_constraint_candidates_always_break_their_constraint(
        tc: tuple[dict[str, Any], dict[str, Any]], seed: int) -> None:
    table, inp = tc
    cons = parse_constraints(table, P[:2])
    assert cons.violations(inp) == []
    for c in invalid_candidates(inp, P[:2], cons, n=20, seed=seed):
        assert all(strictly_valid(c.input[p.name], p.type) for p in P[:2])
        if not c.operator.startswith("schema."):
            assert c.target in cons.violations(c.input), (c.operator, c.input)
    assert [c.input for c in invalid_candidates(inp, P[:2], cons, 20, seed)] == \
        [c.input for c in invalid_candidates(inp, P[:2], cons, 20, seed)]


def test_char_and_string_constraints() -> None:
    ps = params(c="char", w="string")
    cons = parse_constraints({"c": ["a", "z"], "w": {"len": [1, 3], "elem": ["a", "z"],
                                                     "distinct": True}}, ps)
    inp = {"c": "m", "w": "ab"}
    assert cons.violations(inp) == []
    cands = invalid_candidates(inp, ps, cons, 30, seed=1, schema=False)
    got = {(c.target, c.operator): c.input for c in cands}
    assert got[("c", "range.below")]["c"] == "`"
    assert got[("w.elem", "range.above")]["w"] == "a{"
    assert got[("w.distinct", "distinct.copy_neighbour")]["w"] == "aa"
    for c in cands:
        assert c.target in cons.violations(c.input)
