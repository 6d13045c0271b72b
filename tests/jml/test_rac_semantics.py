"""The rac engine against truths worked out by hand from the JML reference manual."""

from __future__ import annotations

from pathlib import Path

import pytest
from jml_support import Runner, values, write_task

pytestmark = [pytest.mark.slow, pytest.mark.requires("javac")]


def test_bigint_spec_math_no_overflow(two_ints: Runner) -> None:
    # Java's x + y wraps to -2147483648; in the spec it is the mathematical 2147483648
    vs = two_ints.post(r"//@ ensures \result == x + y;",
                       ({"x": 2147483647, "y": 1}, -2147483648),
                       ({"x": 2, "y": 3}, 5))
    assert values(vs) == ["false", "true"]


def test_truncating_division_and_remainder(two_ints: Runner) -> None:
    vs = two_ints.post(r"//@ ensures \result == x / y && x % y == -1;",
                       ({"x": -7, "y": 2}, -3),   # Java: -7/2 = -3, -7%2 = -1
                       ({"x": -7, "y": 2}, -4))   # Python-style floor would say -4
    assert values(vs) == ["true", "false"]


def test_division_by_zero_is_unknown_not_false(two_ints: Runner) -> None:
    vs = two_ints.pre("//@ requires x / y > 0;", {"x": 1, "y": 0}, {"x": 4, "y": 2})
    assert values(vs) == ["unknown", "true"]
    assert "division by zero" in vs[0].reason


def test_short_circuit_guards_undefinedness(two_ints: Runner) -> None:
    vs = two_ints.pre("//@ requires y != 0 && x / y > 0;", {"x": 1, "y": 0})
    assert values(vs) == ["false"]
    vs = two_ints.pre("//@ requires y == 0 || x / y > 0;", {"x": 1, "y": 0})
    assert values(vs) == ["true"]


def test_implication_precedence(two_ints: Runner) -> None:
    # false ==> (false ==> false) is true; (false ==> false) ==> false would be false
    vs = two_ints.pre("//@ requires x > 0 ==> y > 0 ==> false;", {"x": 0, "y": 0})
    assert values(vs) == ["true"]
    # <==> binds looser than ==>: (x>0) <==> ((y>0) ==> false)
    vs = two_ints.pre("//@ requires x > 0 <==> y > 0 ==> false;", {"x": 1, "y": 0})
    assert values(vs) == ["true"]
    vs = two_ints.pre("//@ requires x > 0 <=!=> y > 0;", {"x": 1, "y": 0}, {"x": 1, "y": 1})
    assert values(vs) == ["true", "false"]


def test_chained_comparison(two_ints: Runner) -> None:
    vs = two_ints.pre("//@ requires 0 <= x < y <= 10;", {"x": 0, "y": 10}, {"x": 5, "y": 5})
    assert values(vs) == ["true", "false"]


def test_quantifiers_and_generalized(two_ints: Runner) -> None:
    jml = (r"//@ ensures \result == (\sum int i; 1 <= i && i <= x; i)"
           r" && (\num_of int i; 0 <= i < y; i % 2 == 0) == (y + 1) / 2"
           r" && (\product int i; 1 <= i <= 4; i) == 24;")
    vs = two_ints.post(jml, ({"x": 4, "y": 5}, 10), ({"x": 4, "y": 5}, 11))
    assert values(vs) == ["true", "false"]


def test_empty_ranges(two_ints: Runner) -> None:
    vs = two_ints.pre(r"//@ requires (\forall int i; 0 <= i < x; false) && "
                      r"!(\exists int i; 0 <= i < x; true) && (\sum int i; 0 <= i < x; i) == 0;",
                      {"x": 0, "y": 0})
    assert values(vs) == ["true"]
    vs = two_ints.pre(r"//@ requires (\max int i; 0 <= i < x; i) >= 0;", {"x": 0, "y": 0},
                      {"x": 3, "y": 0})
    assert values(vs) == ["unknown", "true"]


def test_nested_bounds_from_other_variable(two_ints: Runner) -> None:
    # j's upper bound is x, i's is j: both found (i's through j)
    vs = two_ints.pre(r"//@ requires (\forall int i, j; 0 <= i && i < j && j < x; i < j);",
                      {"x": 6, "y": 0})
    assert values(vs) == ["true"]


def test_unboundable_quantifier_is_unknown(two_ints: Runner) -> None:
    vs = two_ints.pre(r"//@ requires (\forall int i; i > 0; i != x);", {"x": -1, "y": 0})
    assert values(vs) == ["unknown"]
    assert "unbound" in vs[0].reason


def test_precondition_is_disjunction_of_spec_cases(two_ints: Runner) -> None:
    jml = ("//@ requires x > 0;\n//@ ensures \\result == 1;\n//@ also\n"
           "//@ requires x < 0;\n//@ ensures \\result == -1;")
    pre = two_ints.pre(jml, {"x": 5, "y": 0}, {"x": -5, "y": 0}, {"x": 0, "y": 0})
    assert values(pre) == ["true", "true", "false"]
    # post: only the cases whose requires hold constrain the result
    post = two_ints.post(jml, ({"x": 5, "y": 0}, 1), ({"x": 5, "y": 0}, -1),
                         ({"x": -5, "y": 0}, -1), ({"x": 0, "y": 0}, 42))
    assert values(post) == ["true", "false", "true", "true"]


def test_exceptional_cases_forbid_normal_results(two_ints: Runner) -> None:
    # JML RM 9.5: exceptional_behavior implies ensures false (no normal termination)
    jml = ("/*@ public normal_behavior\n  @ requires x >= 0;\n  @ ensures \\result == x;\n"
           "  @ also public exceptional_behavior\n  @ requires x < 0;\n"
           "  @ signals (IllegalArgumentException e) true;\n  @*/")
    assert values(two_ints.pre(jml, {"x": -1, "y": 0})) == ["true"]
    assert values(two_ints.post(jml, ({"x": -1, "y": 0}, 99))) == ["false"]


def test_library_calls(two_ints: Runner) -> None:
    jml = (r"//@ ensures \result == Math.max(Math.abs(x), y) && "
           r"Integer.toString(x).length() >= 1 && Character.isDigit('7');")
    vs = two_ints.post(jml, ({"x": -9, "y": 3}, 9), ({"x": -9, "y": 3}, 3))
    assert values(vs) == ["true", "false"]


def test_out_of_range_int_argument_is_unknown(two_ints: Runner) -> None:
    # x + y is 2^31 with bigint math; Integer.toString(int) cannot take it
    vs = two_ints.pre("//@ requires Integer.toString(x + y).length() > 0;",
                      {"x": 2147483647, "y": 1})
    assert values(vs) == ["unknown"]


OVERLOADS = """    public static /*@ pure @*/ int f(long v) { return 1; }
    public static /*@ pure @*/ int f(int v) { return 2; }
"""


def test_overloads_are_resolved_as_java_does_or_left_unknown(two_ints: Runner) -> None:
    # JLS 15.12.2: f(x) with an int x calls f(int) (2), though f(long) comes first; a long
    # literal calls f(long). rac used the first overload of the arity: f(x) == 2 was false.
    vs = two_ints.pre(OVERLOADS + "    //@ requires f(x) == 2 && f(3L) == 1;", {"x": 1, "y": 0})
    assert values(vs) == ["true"]
    # an argument whose static type rac does not track: unknown, never the first overload
    vs = two_ints.pre(OVERLOADS + "    //@ requires f(x + y) == 2;", {"x": 1, "y": 0})
    assert values(vs) == ["unknown"]
    assert "overload" in vs[0].reason


MODEL = """    /*@ public model function static int m(int v) {
      @   return v * 2 / 2;
      @ } @*/
    /*@ public model function static int g(int v) {
      @   if (v < 0) { return -v; } else { return v + 1; }
      @ } @*/
"""


def test_model_bodies_overflow_to_unknown_never_wrap(two_ints: Runner) -> None:
    # JML reads a model body with mathematical integers (specs) or safe math (code): under
    # neither does it wrap. m(MAX) = MAX mathematically and an overflow error in safe math;
    # javac's wrapping gave -1, a wrong "false" (found 2026-12-05, KeY said true).
    vs = two_ints.pre(MODEL + "    //@ requires m(x) == x && g(y) == 4;",
                      {"x": 5, "y": 3}, {"x": 2147483647, "y": 3}, {"x": 5, "y": 2147483647},
                      {"x": 5, "y": -2147483648}, {"x": 5, "y": -4})
    assert values(vs) == ["true", "unknown", "unknown", "unknown", "true"]
    assert "overflow" in vs[1].reason


ARRAY_SUM = """public class Solution {
    public static int solve(int[] a, int n) {
        return 0;
    }
}
"""
MODEL_SHAPES = """    /*@ public model function static int s(int[] b, int i) {
      @   return i <= 0 ? 0 : b[i - 1] + s(b, i - 1);
      @ } @*/
    /*@ public model function static int len(String t) {
      @   return t.length() * 2;
      @ } @*/
    /*@ public model function static int loop(int v) {
      @   int k = 0; while (k < v) { k++; } return k;
      @ } @*/
    /*@ public model function static boolean plain(boolean v) {
      @   boolean k = v; if (k) { return true; } return false;
      @ } @*/
"""


def test_model_bodies_over_arrays_and_strings_are_exact_others_never_wrap(
        tmp_path: Path) -> None:
    # s(b, i) sums b[0..i): [3, 4] -> 7; [MAX, 1] overflows int (javac wrapped it to MIN,
    # a decided "false"): unknown; [3, 5] -> 8 != 7: false
    r = Runner(write_task(tmp_path / "arr", ARRAY_SUM, {"a": "array<i32>", "n": "i32"}), ARRAY_SUM)
    vs = r.pre(MODEL_SHAPES + "    //@ requires s(a, a.length) == 7;",
               {"a": [3, 4], "n": 0}, {"a": [2147483647, 1], "n": 0}, {"a": [3, 5], "n": 0})
    assert values(vs) == ["true", "unknown", "false"]
    assert "overflow" in vs[1].reason
    # a String's length read exactly: "10" has 2 chars, 2 * 2 == 4; "1": 2 != 4
    vs = r.pre(MODEL_SHAPES + "    //@ requires len(Integer.toString(n)) == 4;",
               {"a": [], "n": 10}, {"a": [], "n": 1})
    assert values(vs) == ["true", "false"]
    # statements with arithmetic: no exact reading, so no verdict (never javac's wrap)
    vs = r.pre(MODEL_SHAPES + "    //@ requires loop(n) == n;", {"a": [], "n": 3})
    assert values(vs) == ["unknown"]
    assert "not evaluated exactly" in vs[0].reason
    # statements without arithmetic or casts: javac's reading is every reading
    vs = r.pre(MODEL_SHAPES + "    //@ requires plain(n > 0);", {"a": [], "n": 3},
               {"a": [], "n": -3})
    assert values(vs) == ["true", "false"]
