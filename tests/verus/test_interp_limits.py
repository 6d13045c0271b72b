"""Quantifier type domains, resource limits, per-case isolation, closure capture, engine version.

Truths are worked out by hand from the Verus guide: a quantified variable ranges over its
whole type and nothing else (``nat`` is ``>= 0``, ``u8`` is ``0..=255``, ``char`` is a Unicode
scalar value, so never a surrogate ``0xD800..=0xDFFF``), and ``x as nat`` is unspecified for a
negative ``x``.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

from adequacy.extensions.backend import Limits
from adequacy.model.task import Case, Param, Task
from adequacy.model.types import parse_type
from adequacy.model.verdicts import Bucket, Truth
from adequacy_verus import interp
from adequacy_verus.frontend import parse_spec
from adequacy_verus.interp import _run_big_stack, compile_module, evaluate_cases
from adequacy_verus.interp import builtins as B
from adequacy_verus.interp.compiler import Abort, Budget
from adequacy_verus.interp.values import FMap, Undef

UNDEF = "UNDEF"


def run(body: str, fn: str, *args: Any) -> Any:
    prog = compile_module(parse_spec("verus! {\n" + body + "\n}", "t.rs"))
    prog.budget = Budget(2_000_000, 10.0, 500)
    try:
        return _run_big_stack(lambda: prog.call_fn(fn, *args))
    except Undef:
        return UNDEF


# ---------------------------------------------------------------- type domains of quantifiers


@pytest.mark.parametrize(("src", "arg", "truth"), [
    # x == e offers e; it is an instance only when e lies in the type
    ("exists|k: nat| k == a - 1", 0, False),          # -1 is not a nat
    ("exists|k: nat| k == a - 1", 1, True),           # k = 0
    ("exists|k: u8| k == a + 1", 255, False),         # 256 is not a u8
    ("exists|k: u8| k == a + 1", 254, True),
    ("exists|k: i8| k == a", -128, True),
    ("exists|k: i8| k == a", 128, False),
    ("forall|k: u8| k == a ==> false", 300, True),    # no u8 equals 300: vacuous
    ("forall|k: u8| k == a ==> false", 3, False),     # k = 3 falsifies
    # contains offers the collection's elements
    ("exists|k: nat| seq![-1int].contains(k as int)", 0, False),
    ("exists|k: nat| seq![-1int, a].contains(k as int) && k > 1", 2, True),
    ("exists|k: u8| set![256int, -1int, a].contains(k as int)", 7, True),
    ("exists|k: u8| set![256int, -1int, a].contains(k as int)", 1000, False),
    # chars: scalar values only
    ("exists|c: char| (c as int) == a", 0xD800, False),
    ("exists|c: char| (c as int) == a", 0x41, True),
    ("exists|c: char| (c as int) == a", 0x110000, False),
    ("exists|c: char| (c as int) == a", -1, False),
    ("exists|c: char| 0xD7FF < (c as int) && (c as int) < a", 0xE000, False),  # surrogates
    ("exists|c: char| 0xD7FF < (c as int) && (c as int) < a", 0xE001, True),   # U+E000
    # order bounds stay inside the type
    ("exists|k: u8| 250 <= k <= a && k > 255", 1000, False),
    ("forall|k: nat| k < a ==> k >= 0", 5, True),
])
def test_quantifier_values_stay_in_the_variable_type(src: str, arg: int, truth: bool) -> None:
    assert run(f"spec fn f(a: int) -> bool {{ {src} }}", "f", arg) is truth


def test_choose_returns_a_value_of_the_variable_type() -> None:
    assert run("spec fn f(a: int) -> char { choose|c: char| (c as int) == a }", "f", 65) == "A"
    # no char has code 0xDFFF: choose has no witness, the value is unspecified
    assert run("spec fn f(a: int) -> char { choose|c: char| (c as int) == a }", "f",
               0xDFFF) == UNDEF


def test_map_domain_guard_filters_keys_outside_the_type() -> None:
    # key 300 is not a u8, so only k = 1 is an instance, and m[1] = 5 > 0
    src = "spec fn f(m: Map<int, int>) -> bool { forall|k: u8| m.dom().contains(k) ==> m[k] > 0 }"
    assert run(src, "f", FMap({300: 0, 1: 5})) is True
    assert run(src, "f", FMap({300: 0, 1: 0})) is False
    src2 = "spec fn f(m: Map<int, int>) -> bool { exists|k: nat| m.contains_key(k) }"
    assert run(src2, "f", FMap({-4: 0})) is False
    assert run(src2, "f", FMap({-4: 0, 4: 1})) is True


def test_lossy_cast_on_the_variable_is_not_a_range() -> None:
    # for a negative k, `k as nat` is unspecified (it may be 5), so the guard does not
    # confine k to {5}: Verus cannot decide this, and neither may we claim true
    src = "spec fn f(a: int) -> bool { forall|k: int| k as nat == a ==> k == a }"
    assert run(src, "f", 5) == UNDEF
    src3 = "spec fn f(a: int) -> bool { forall|k: int| (k as nat) as int == a ==> k == a }"
    assert run(src3, "f", 5) == UNDEF
    # `as int` on an int variable is the identity: a real range
    src2 = "spec fn f(a: int) -> bool { forall|k: int| k as int == a ==> k == a }"
    assert run(src2, "f", -5) is True


# ---------------------------------------------------------------- resource limits


def _task(tmp: Path) -> Task:
    def prm(n: str, t: str) -> Param:
        return Param(name=n, type=parse_type(t), type_text=t)
    return Task(id="t", language="verus", inputs=[prm("k", "int")],
                outputs=[prm("result", "int")], root=tmp, cases={})


def _spec(pre: str, extra: str = "") -> Any:
    return parse_spec(f"""use vstd::prelude::*;
verus! {{
pub struct Input {{ pub k: int }}
pub struct Output {{ pub result: int }}
{extra}
spec fn pre_spec(input: Input) -> bool {{ {pre} }}
spec fn post_spec(input: Input, output: Output) -> bool {{ true }}
}}
""", "spec.rs")


SQ = ("spec fn sq(x: int, n: nat) -> int decreases n "
      "{ if n == 0 { x } else { sq(x * x, (n - 1) as nat) } }")


def test_repeated_squaring_is_a_resource_limit_not_a_hang(tmp_path: Path) -> None:
    # 3^(2^40) has about 1.7e12 bits: one multiplication of that size never returns
    c = Case(id="sq", bucket=Bucket.pre_complete, input={"k": 0})
    t0 = time.perf_counter()
    [v] = evaluate_cases(_spec("sq(3, 40) > 0", SQ), _task(tmp_path), [c],
                         Limits(case_seconds=60.0))
    assert time.perf_counter() - t0 < 5.0
    assert v.value == Truth.unknown and v.reason.startswith("resource limit:"), v.reason
    # a moderate instance is still evaluated: 3^(2^3) = 6561
    [v2] = evaluate_cases(_spec("sq(3, 3) == 6561", SQ), _task(tmp_path), [c], Limits())
    assert v2.value == Truth.true


@pytest.mark.parametrize("pre", [
    "pow(3, 10000000) > 0",
    "(1int << 100000000nat) > 0",
    "Set::<int>::range(0, 1000000000).len() > 0",
    "Seq::new(100000000, |i: int| i).len() > 0",
])
def test_huge_values_are_resource_limits(tmp_path: Path, pre: str) -> None:
    c = Case(id="h", bucket=Bucket.pre_complete, input={"k": 0})
    t0 = time.perf_counter()
    [v] = evaluate_cases(_spec(pre), _task(tmp_path), [c], Limits())
    assert time.perf_counter() - t0 < 5.0
    assert v.value == Truth.unknown and v.reason.startswith("resource limit:"), v.reason


def test_big_but_reasonable_arithmetic_is_exact() -> None:
    assert run("spec fn f() -> int { pow(2, 1000) }", "f") == 2 ** 1000
    assert run("spec fn f() -> int { pow(-1, 1000001) }", "f") == -1
    assert run("spec fn f(x: int) -> int { x << 70nat }", "f", 3) == 3 << 70
    src = "spec fn f(x: int) -> int { x * x * x }"
    assert run(src, "f", 10 ** 1000) == 10 ** 3000


def test_limit_is_an_abort_not_an_absorbable_undefined() -> None:
    # `U && false` would be false for an unspecified U; a value that is merely too big to
    # compute must not be treated as unspecified in a way that flips decisions silently
    prog = compile_module(parse_spec(
        "verus! {\n" + SQ + "\nspec fn f() -> bool { sq(3, 40) > 0 && false }\n}", "t.rs"))
    prog.budget = Budget(2_000_000, 10.0, 500)
    with pytest.raises(Abort, match="resource limit"):
        _run_big_stack(lambda: prog.call_fn("f"))
    # but a decided left operand short-circuits before the big value is built
    assert run(SQ + "\nspec fn g() -> bool { false && sq(3, 40) > 0 }", "g") is False


# ---------------------------------------------------------------- per-case isolation


def test_one_case_internal_error_keeps_the_other_verdicts(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    real_abs = B.FREE_FNS["abs"]

    def flaky_abs(x: Any) -> Any:  # a test double standing in for an evaluator bug
        if x == 13:
            raise TypeError("boom")
        return real_abs(x)
    monkeypatch.setitem(B.FREE_FNS, "abs", flaky_abs)
    cases = [Case(id=str(k), bucket=Bucket.pre_complete, input={"k": k}) for k in (1, 13, -2)]
    vs = evaluate_cases(_spec("abs(input.k) >= 1"), _task(tmp_path), cases, Limits())
    assert [v.value for v in vs] == [Truth.true, Truth.unknown, Truth.true]
    assert "TypeError" in vs[1].reason and "boom" in vs[1].reason


def test_range_pattern_on_a_value_of_another_kind_is_undefined() -> None:
    src = "spec fn f(x: int) -> bool { match x { 'a'..='z' => true, _ => false } }"
    assert run(src, "f", 5) == UNDEF
    src3 = "spec fn f(a: int) -> bool { forall|k: int| (k as nat) as int == a ==> k == a }"
    assert run(src3, "f", 5) == UNDEF
    src2 = "spec fn f(x: int) -> bool { match x { 0..=9 => true, _ => false } }"
    assert run(src2, "f", 5) is True
    assert run(src2, "f", 10) is False


# ---------------------------------------------------------------- closures


def test_closures_returned_from_closures_keep_their_captures() -> None:
    src = """spec fn f() -> bool {
    let fs = Seq::new(3, |i: int| |j: int| i + j);
    fs[2](1) == 3 && fs[0](5) + fs[2](1) == 8 }
spec fn adder(n: int) -> spec_fn(int) -> int { |x: int| x + n }
spec fn g() -> bool { adder(2)(3) == 5 && adder(10)(adder(1)(1)) == 12 }
spec fn h(s: Seq<int>) -> bool {
    forall|i: int| 0 <= i < s.len() ==> { let f = |j: int| s[i] + j; f(1) == s[i] + 1 } }"""
    assert run(src, "f") is True
    assert run(src, "g") is True
    assert run(src, "h", (4, 5, 6)) is True


# ---------------------------------------------------------------- engine version


def test_engine_version_hashes_the_sources() -> None:
    assert re.fullmatch(r"interp-\d+\+[0-9a-f]{16}", interp.VERSION)
    assert interp._source_version() == interp.VERSION
    assert interp._source_version("x") != interp._source_version("y")
