"""Property tests: every mutant validates, differs from its original, is unique, is reproducible."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from adequacy.model.task import Param
from adequacy.model.types import Type, parse_type
from adequacy.model.values import encode, validate
from adequacy_mutators import mutants, output_mutants, strictly_valid, value_key
from adequacy_mutators.strategies import types, values


@st.composite
def typed_values(draw: st.DrawFn) -> tuple[Type, Any]:
    ty = draw(types(max_leaves=4))
    return ty, draw(values(ty, max_size=3))


@given(tv=typed_values(), n=st.integers(1, 8), seed=st.integers(0, 2**32))
@pytest.mark.slow
def test_mutants_validate_differ_and_are_unique(tv: tuple[Type, Any], n: int, seed: int) -> None:
    ty, v = tv
    ms = mutants(v, ty, n, seed)
    assert len(ms) <= n
    keys = set()
    for m in ms:
        validate(m.value, ty)
        assert strictly_valid(m.value, ty)
        assert encode(m.value, ty) != encode(v, ty)
        k = value_key(m.value, ty)
        assert k != value_key(v, ty)
        assert k not in keys
        keys.add(k)


@given(tv=typed_values(), seed=st.integers(0, 2**32))
@pytest.mark.slow
def test_mutants_are_deterministic_per_seed(tv: tuple[Type, Any], seed: int) -> None:
    ty, v = tv
    assert mutants(v, ty, 5, seed) == mutants(v, ty, 5, seed)


@given(a=typed_values(), b=typed_values(), n=st.integers(1, 6))
@pytest.mark.slow
def test_output_dict_mutants_change_one_field(a: tuple[Type, Any], b: tuple[Type, Any],
                                              n: int) -> None:
    params = [Param(name="x", type=a[0], type_text=str(a[0])),
              Param(name="result", type=b[0], type_text=str(b[0]))]
    out = {"x": a[1], "result": b[1]}
    ms = output_mutants(out, params, n, seed=3)
    assert ms  # every type has an operator: no mutant at all would pass vacuously
    seen = set()
    for m in ms:
        changed = [p.name for p in params if value_key(m.value[p.name], p.type)
                   != value_key(out[p.name], p.type)]
        assert len(changed) == 1
        assert m.operator.startswith(changed[0] + ".")
        key = tuple(value_key(m.value[p.name], p.type) for p in params)
        assert key not in seen
        seen.add(key)


# Values the original Spec-Harness mutator got wrong: its mutants equalled the original output.
@pytest.mark.parametrize("text,value", [
    ("i32", 0), ("int", 0), ("bool", False), ("string", ""), ("string", "abba"),
    ("string", "AAA"), ("f64", 0.0), ("f64", -0.0), ("f64", "NaN"), ("f64", 1e308),
    ("f32", 3.4028234663852886e38), ("char", "a"), ("char", "\uffff"), ("char", "\x00"),
    ("array<nullable<string>>", ["a", None, ""]), ("array<string>", []),
    ("map<string, i32>", []), ("map<char, array<i64>>", [["a", [1, 1]]]),
    ("array<array<array<i8>>>", [[[127, -128]], []]), ("u8", 255), ("nat", 0),
    ("array<f64>", [0.0, -0.0]), ("set<f64>", [0.0]), ("multiset<i8>", [1, 1]),
    ("option<tuple<bool, char>>", None),
])
def test_tricky_originals(text: str, value: Any) -> None:
    ty = parse_type(text)
    ms = mutants(value, ty, 10, seed=0)
    assert ms, f"no mutant for {text} {value!r}"
    for m in ms:
        assert strictly_valid(m.value, ty)
        assert value_key(m.value, ty) != value_key(value, ty)


def test_negative_zero_is_not_a_mutant_of_zero() -> None:
    ty = parse_type("f64")
    assert value_key(-0.0, ty) == value_key(0.0, ty)
    assert all(m.value not in (0.0, -0.0) for m in mutants(0.0, ty, 20, seed=1))


def test_float_mutants_are_not_within_tolerance() -> None:
    ty = parse_type("f64")
    floats = [m.value for m in mutants(123.456, ty, 20, seed=2) if isinstance(m.value, float)]
    assert floats
    for v in floats:
        assert abs(v - 123.456) > 1e-3 * 123.456


def test_int_mutants_stay_in_type_bounds() -> None:
    ty = parse_type("i8")
    vals = [m.value for m in mutants(127, ty, 20, seed=0)]
    assert all(-128 <= v <= 127 for v in vals)
    assert 128 not in vals and -128 in vals


def test_bool_has_exactly_one_mutant() -> None:
    assert [m.value for m in mutants(True, parse_type("bool"), 5)] == [False]


def test_operators_named_and_nested() -> None:
    ty = parse_type("array<array<i32>>")
    ops = {m.operator for s in range(20) for m in mutants([[1, 2], [3, 4]], ty, 6, seed=s)}
    assert any(o.startswith("seq.change_elem>seq.") for o in ops)
    assert "array.null" in ops
    assert {"seq.reverse", "seq.drop"} <= ops
