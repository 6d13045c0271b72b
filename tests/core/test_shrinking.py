"""The typed shrinker: candidates stay in the type and are strictly smaller, so a greedy
shrink ends; and greedy shrinking reaches the minimal forms worked out by hand below."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from adequacy.model.task import Param
from adequacy.model.types import Type, parse_type
from adequacy.search.shrinking import candidates, dict_candidates, size_key
from adequacy_mutators import strictly_valid
from adequacy_mutators.strategies import types, values


def _params(**kw: str) -> list[Param]:
    return [Param(name=n, type=parse_type(t), type_text=t) for n, t in kw.items()]


def _greedy(start: dict[str, Any], params: list[Param], holds: Any) -> dict[str, Any]:
    order = [p.name for p in params]
    cur = start
    while True:
        better = [c for c in dict_candidates(cur, params)
                  if size_key(c, order) < size_key(cur, order) and holds(c)]
        if not better:
            return cur
        cur = min(better, key=lambda c: size_key(c, order))


@given(st.data())
def test_candidates_stay_in_the_type_and_get_smaller(data: st.DataObject) -> None:
    ty: Type = data.draw(types(max_leaves=4))
    v = data.draw(values(ty))
    p = [Param(name="x", type=ty, type_text=str(ty))]
    for c in list(dict_candidates({"x": v}, p))[:200]:
        assert strictly_valid(c["x"], ty)
        assert size_key(c, ["x"]) < size_key({"x": v}, ["x"])


def test_list_with_a_big_element_shrinks_to_the_smallest_such_list() -> None:
    # "some element exceeds 5": minimal is one element, the smallest int above 5, i.e. [6]
    p = _params(xs="seq<i64>")
    got = _greedy({"xs": [9, -3, 12, 0]}, p, lambda c: any(x > 5 for x in c["xs"]))
    assert got == {"xs": [6]}


def test_equal_numbers_across_fields_shrink_together() -> None:
    # "target occurs at index 0 and 1": one field at a time cannot lower 4 (the other field
    # still says 4), lowering it everywhere at once reaches [0, 0] / 0
    p = _params(arr="seq<i64>", target="i64")

    def holds(c: dict[str, Any]) -> bool:
        a = c["arr"]
        return len(a) >= 2 and a[0] == a[1] == c["target"]

    assert _greedy({"arr": [4, 4, 7], "target": 4}, p, holds) == {"arr": [0, 0], "target": 0}


def test_unsigned_and_option_and_string_shrink_toward_their_simplest_value() -> None:
    assert 0 in list(candidates(200, parse_type("u8")))
    assert all(x >= 0 for x in candidates(200, parse_type("u8")))
    assert list(candidates({"some": 3}, parse_type("option<i64>")))[0] is None
    assert "" in list(candidates("hello", parse_type("string")))
    assert list(candidates(0, parse_type("i64"))) == []
    assert list(candidates([], parse_type("seq<i64>"))) == []
