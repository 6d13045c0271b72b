"""The front end's explicit JML semantics (jml/semantics.py) and Java literal reading, without
a JVM: what every engine is handed."""

from __future__ import annotations

import pytest

from adequacy.errors import SpecInvalid
from adequacy_openjml.engines.rac.translate import _java_char, _java_string
from adequacy_openjml.jml import ast as A
from adequacy_openjml.jml.parser import parse_expression
from adequacy_openjml.jml.reader import read_source
from adequacy_openjml.jml.semantics import (
    identity_comparison,
    math_gap,
    spec_cases,
    spec_math_mode,
)
from adequacy_openjml.stubs.render import render_jml


def _cases(java: str):  # type: ignore[no-untyped-def]
    src = read_source(java, "S.java")
    cls = src.classes[0]
    m = next(x for x in cls.methods if x.name == "solve")
    return cls, m, spec_cases(cls, m, "S.java")


def _text(cases) -> list[tuple[list[str], list[str]]]:  # type: ignore[no-untyped-def]
    return [([render_jml(e) for e, _ in c.requires], [render_jml(e) for e, _ in c.ensures])
            for c in cases]


def test_non_null_by_default_for_parameters_and_results() -> None:
    # JML RM 2.8; OpenJML's --nullable-by-default is off by default
    _c, _m, cases = _cases("class S { //@ requires a.length > 0;\n"
                           " static String solve(int[] a, int n, String s) { return s; } }")
    assert _text(cases) == [(["(a != null)", "(s != null)", "(a.length > 0)"],
                             ["(\\result != null)"])]


def test_nullable_parameter_result_and_class() -> None:
    _c, m, cases = _cases("class S { static /*@ nullable @*/ String solve("
                          "/*@ nullable @*/ int[] a, String s) { return s; } }")
    assert m.nullable_params == {"a"}
    assert _text(cases) == [(["(s != null)"], [])]  # no spec case: the implicit one
    _c, _m, cases = _cases("/*@ nullable_by_default @*/ class S {\n"
                           " //@ requires true;\n static String solve(int[] a) { return null; } }")
    assert _text(cases) == [(["true"], [])]


def test_exceptional_behavior_means_ensures_false() -> None:
    # JML RM 9.5
    _c, _m, cases = _cases("class S { /*@ normal_behavior requires x >= 0; ensures \\result == x;"
                           " also exceptional_behavior requires x < 0; signals_only "
                           "RuntimeException; @*/ static int solve(int x) { return x; } }")
    assert _text(cases) == [(["(x >= 0)"], ["(\\result == x)"]), (["(x < 0)"], ["false"])]


@pytest.mark.parametrize("jml,what", [
    ("exceptional_behavior requires x < 0; ensures false;", "ensures clause in an exceptional"),
    ("normal_behavior requires x < 0; signals (Exception e) false;", "signals clause in a normal"),
    ("ensures x > 0 ==> \\result > 0 <== x > 1;", "jml.mixed.implies"),
    ("ensures \\result == 2147483648;", "too large"),
    ("ensures \\result == 0x1FFFFFFFF;", "does not fit in 32 bits"),
    ("old int y;", "malformed old clause"),
])
def test_ill_formed_specs_are_rejected_with_their_line(jml: str, what: str) -> None:
    with pytest.raises(SpecInvalid, match=what) as e:
        _cases(f"class S {{\n/*@ {jml} @*/\n static int solve(int x) {{ return x; }} }}")
    assert e.value.line == 2 and e.value.file == "S.java"


def test_old_clause_and_old_reference() -> None:
    # RM 9.9.2: old variables are pre-state values; \old(a) is the reference itself
    _c, _m, cases = _cases("class S { /*@ normal_behavior old int y = x + 1; old int z = y * 2;"
                           " requires y > 0; ensures \\result == z && \\old(a)[0] == "
                           "\\old(a[0]); @*/ static int solve(int x, int[] a) { return x; } }")
    req, ens = _text(cases)[0]
    assert req == ["(a != null)", "((x + 1) > 0)"]
    assert ens == ["((\\result == \\old(((x + 1) * 2))) && (a[0] == \\old(a[0])))"]


def test_frames_of_array_parameters() -> None:
    _c, _m, cases = _cases("class S { //@ assignable a[1..2], b[*];\n //@ ensures true;\n"
                           " static void solve(int[] a, int[] b, int[] c) { } }")
    ens = _text(cases)[0][1]
    assert len(ens) == 3 and ens[0] == "true"  # then a and c; b may change everywhere
    assert "(\\old(1) <= __frame_i) && (__frame_i <= \\old(2))" in ens[1]
    assert "(c[__frame_i] == \\old(c[__frame_i]))" in ens[2]
    _c, _m, cases = _cases("class S { //@ ensures true;\n static void solve(int[] a) { } }")
    assert _text(cases)[0][1] == ["true"]  # default frame: \everything
    _c, _m, cases = _cases("class S { //@ ensures true;\n /*@ pure @*/ static int solve(int[] a)"
                           " { return 0; } }")
    assert len(_text(cases)[0][1]) == 2  # pure: \nothing


def test_spec_math_mode_method_wins_and_key_gap_follows_the_class() -> None:
    """OpenJML's lookup: the method's spec_*_math, else the class's, else bigint. KeY's stubs
    inherit only the class's mode, so a java-math class is KeY's gap even when the method is
    bigint; code_* modifiers never change the spec's mode nor make a gap."""
    cls, m, cases = _cases("/*@ spec_java_math @*/ class S { //@ ensures \\result == x + 1;\n"
                           " static /*@ spec_bigint_math @*/ int solve(int x) { return x; } }")
    assert spec_math_mode(cls, m) == "bigint"
    assert "spec_java_math" in str(math_gap(cls, m, cases))
    cls, m, cases = _cases("/*@ spec_safe_math @*/ class S { //@ ensures \\result == x + 1;\n"
                           " static int solve(int x) { return x; } }")
    assert spec_math_mode(cls, m) == "safe"
    cls, m, cases = _cases("class S { //@ ensures \\result == inc(x);\n"
                           " static /*@ code_java_math @*/ int solve(int x) { return x; }\n"
                           " static /*@ pure code_bigint_math @*/ int inc(int y) { return y + 1; } }")
    assert spec_math_mode(cls, m) == "bigint" and math_gap(cls, m, cases) is None


def test_math_modes_and_identity_gaps() -> None:
    cls, m, cases = _cases("class S { //@ ensures \\result == x + 1;\n"
                           " static /*@ spec_java_math @*/ int solve(int x) { return x; } }")
    assert "spec_java_math" in str(math_gap(cls, m, cases))
    cls, m, cases = _cases("/*@ spec_java_math @*/ class S { //@ ensures \\result == x;\n"
                           " static int solve(int x) { return x; } }")
    assert math_gap(cls, m, cases) is None  # no arithmetic: nothing depends on the mode
    cls, m, cases = _cases("class S { //@ ensures \\result == s && \\result != null;\n"
                           " static String solve(String s) { return s; } }")
    assert identity_comparison(m, cases) == 1
    cls, m, cases = _cases("class S { //@ ensures \\result == x;\n"
                           " static int solve(int x) { return x; } }")
    assert identity_comparison(m, cases) is None


@pytest.mark.parametrize("text,value", [
    ("0xFFFFFFFF", -1), ("0x7fffffff", 2**31 - 1), ("0xFFFFFFFFL", 2**32 - 1), ("017", 15),
    ("0b1010", 10), ("1_000_000", 10**6), ("-2147483648", -(2**31)),
    ("0xFFFFFFFFFFFFFFFFL", -1), ("-9223372036854775808L", -(2**63)),
])
def test_integer_literals_as_java_reads_them(text: str, value: int) -> None:
    # JLS 3.10.1
    e = parse_expression(text, "S.java", 1)
    assert isinstance(e, A.Lit) and e.value == value


def test_java_literals_survive_unicode_preprocessing() -> None:
    # JLS 3.3: \\u escapes are replaced before lexing; quotes, backslashes and line breaks
    # must not be written that way
    assert _java_string('\\bigint "q"\n') == '"\\\\bigint \\"q\\"\\012"'
    assert _java_char("'") == "'\\''" and _java_char("\\") == "'\\\\'"
    assert _java_string("é€") == '"\\351\\u20ac"'
