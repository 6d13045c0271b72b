"""Output mutants respect what the language makes impossible: the post-state of an
in-place array parameter keeps its length and stays non-null (JLS 10.7: "once an array object
is created, its length never changes"; the parameter still refers to the same object)."""

from __future__ import annotations

from adequacy.model.task import Param
from adequacy.model.types import parse_type
from adequacy_mutators import output_mutants


def _p(name: str, ty: str) -> Param:
    return Param(name=name, type=parse_type(ty), type_text=ty)


def test_in_place_array_keeps_its_length_and_reference() -> None:
    outs = [_p("a", "array<i32>")]
    ins = [_p("a", "array<i32>")]
    before = {"a": [3, 1, 2, 5]}
    after = {"a": [1, 2, 3, 5]}
    free = output_mutants(after, outs, 40, seed=1)
    # without the input, some operator changes the length or makes it null: the test can fail
    assert any(m.value["a"] is None or len(m.value["a"]) != 4 for m in free)
    ms = output_mutants(after, outs, 40, seed=1, inputs=before, input_params=ins)
    assert ms, "element changes remain possible"
    assert all(isinstance(m.value["a"], list) and len(m.value["a"]) == 4 for m in ms)
    assert all(m.value != after for m in ms)


def test_a_null_array_stays_null_and_other_fields_still_mutate() -> None:
    outs = [_p("result", "i32"), _p("a", "array<i32>")]
    ins = [_p("a", "array<i32>")]
    ms = output_mutants({"result": 0, "a": None}, outs, 10, seed=2,
                        inputs={"a": None}, input_params=ins)
    assert ms and all(m.value["a"] is None for m in ms)
    assert all(m.value["result"] != 0 for m in ms)


def test_a_result_array_is_free() -> None:
    # a returned array is a new object: its length is the method's choice
    outs = [_p("result", "array<i32>")]
    ins = [_p("a", "array<i32>")]
    ms = output_mutants({"result": [1, 2]}, outs, 40, seed=1, inputs={"a": [1, 2]},
                        input_params=ins)
    assert any(m.value["result"] is None or len(m.value["result"]) != 2 for m in ms)
