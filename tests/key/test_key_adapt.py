"""What the KeY stubs change in a spec's text so KeY 2.12.3 loads it (engines/key/adapt.py):
each rewrite checked on the text, and on real KeY against truths worked out by hand for
specs in the styles of SpecGen's OpenJML-verified oracle programs (constants KeY's
library lacks, loop annotations left in the method body, ``function`` helpers, bare
quantifier clauses)."""

from __future__ import annotations

from pathlib import Path

import pytest
from key_support import with_spec, write_task

from adequacy.extensions.backend import Limits, engine_named
from adequacy.model.task import Task
from adequacy.taskdirs.load import load_task
from adequacy_openjml.engines.key.adapt import inline_constants, parenthesise_quantifiers
from adequacy_openjml.engines.key.stubs import render_key_stubs
from adequacy_openjml.plugin import OpenJmlBackend

# --- text rewrites (no KeY needed) -------------------------------------------------------


def test_constants_are_inlined_with_their_type_outside_literals() -> None:
    src = ('int a = Short.MAX_VALUE; char c = java.lang.Character.MIN_VALUE; '
           'String s = "Short.MAX_VALUE"; int b = Byte.MIN_VALUE + Integer.MAX_VALUE; '
           'int d = x.Short.MAX_VALUE;')
    out = inline_constants(src)
    assert "int a = ((short) 32767);" in out
    assert "char c = ((char) 0);" in out
    assert '"Short.MAX_VALUE"' in out  # inside a string literal: untouched
    assert "((byte) (-128)) + Integer.MAX_VALUE" in out  # KeY knows Integer's constants
    assert "x.Short.MAX_VALUE" in out  # a field path, not java.lang.Short


def test_constants_are_left_alone_when_the_file_declares_that_type() -> None:
    src = "class Short { static final int MAX_VALUE = 3; } int a = Short.MAX_VALUE;"
    assert inline_constants(src) == src


def test_bare_quantifier_clauses_are_parenthesised_to_the_clause_end() -> None:
    """A bare quantifier clause runs to the clause's ``;`` (its body extends as far as it
    can), so the parentheses close before the last ``;`` ahead of the next clause."""
    ann = ("/*@ public normal_behavior\n  @ requires a != null;\n"
           "  @ ensures \\forall int i; 0 <= i && i < a.length; a[i] >= 0 && post(i);\n"
           "  @ ensures (\\exists int j; true; j == 1);\n  @ pure @*/")
    out = parenthesise_quantifiers(ann)
    assert "ensures (\\forall int i; 0 <= i && i < a.length; a[i] >= 0 && post(i));\n" in out
    assert "ensures (\\exists int j; true; j == 1);" in out  # already parenthesised
    assert out.count("\n") == ann.count("\n")


LOOP = """public class Solution {
    public static int solve(int n) {
        int s = 0;
        //@ maintaining 1 <= i && i <= n + 1;
        //@ maintaining s == (i - 1) * i / 2;
        //@ decreases n - i;
        for (int i = 1; i <= n; i++) {
            s += i;
        }
        return s;
    }

    public static /*@ function @*/ int sq(int a) {
        return a * a;
    }

    /*@ public normal_behavior
      @ ensures \\result == a + 1;
      @ function @*/
    public static int inc(int a) {
        return a + 1;
    }

    /*@ public normal_behavior
      @ ensures \\result <==> (\\forall int i; 0 <= i && i < a.length; a[i] >= 0);
      @ pure @*/
    public static boolean allPos(int[] a) {
        //@ maintaining 0 <= j && j <= a.length;
        for (int j = 0; j < a.length; j++) {
            if (a[j] < 0) return false;
        }
        return true;
    }
}
"""
LOOP_SPEC = ("    //@ requires 0 <= n && n <= 1000 && sq(n) >= 0 && Short.MAX_VALUE > inc(n);\n"
             "    //@ ensures \\result == n * (n + 1) / 2;")
# Truths by hand: 0 <= n <= 1000 (sq(n) >= 0 and 32767 > n + 1 hold there); the sum 1..n is
# n(n+1)/2.
LOOP_CASES = {
    "pre_complete": [{"id": "n10", "input": {"n": 10}}],
    "pre_sound": [{"id": "n40000", "input": {"n": 40000}}, {"id": "neg", "input": {"n": -1}}],
    "post_complete": [{"id": "n10", "input": {"n": 10}, "output": {"result": 55}}],
    "post_sound": [{"id": "n10", "input": {"n": 10}, "output": {"result": 56}}],
}
LOOP_TRUTH = {("pre_complete", "n10"): "true", ("pre_sound", "n40000"): "false",
              ("pre_sound", "neg"): "false", ("post_complete", "n10"): "true",
              ("post_sound", "n10"): "false"}


@pytest.fixture(scope="module")
def loop_task(tmp_path_factory: pytest.TempPathFactory) -> Task:
    return load_task(write_task(tmp_path_factory.mktemp("ka") / "loop", LOOP, {"n": "i32"},
                                cases=LOOP_CASES))


def test_stub_file_rewrites(loop_task: Task) -> None:
    spec = OpenJmlBackend().load_spec(loop_task, with_spec(LOOP, LOOP_SPEC), "S.java")
    text = render_key_stubs(spec.data, loop_task, loop_task.all_cases()).text
    assert "maintaining s ==" not in text and "decreases n - i" not in text  # target body
    assert "maintaining 0 <= j" in text  # a pure helper's loop: KeY may execute it
    assert "/*@ pure     @*/ int sq" in text  # function -> pure, same length
    assert "pure     @*/\n    public static int inc" in text  # after the clauses too
    assert "Short.MAX_VALUE" not in text and "((short) 32767)" in text
    # lines kept: KeY's line numbers still name the spec's lines
    head = with_spec(LOOP, LOOP_SPEC)
    for code in ("for (int i = 1", "int sq(int a)", "boolean allPos"):
        assert [code in ln for ln in text.splitlines()].index(True) == \
            [code in ln for ln in head.splitlines()].index(True)


def test_verify_source_keeps_loop_annotations(loop_task: Task) -> None:
    """``adequacy verify`` proves the real body, which needs its loop invariants."""
    from adequacy_openjml.engines.key.adapt import verify_source
    spec = OpenJmlBackend().load_spec(loop_task, with_spec(LOOP, LOOP_SPEC), "S.java")
    text = verify_source(spec.data)
    assert "maintaining s == (i - 1) * i / 2;" in text and "decreases n - i;" in text
    assert "((short) 32767)" in text and "/*@ pure     @*/ int sq" in text


# --- on real KeY ---------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.requires("key")
def test_key_decides_oracle_style_spec(loop_task: Task) -> None:
    """Before the rewrites KeY refused this file ("'Short.MAX_VALUE' could not be resolved";
    "no viable alternative at input 'function'" after ``inc``'s clause) or, once loaded,
    warned about the loops (``decreases`` missing), so every case was unknown; now every
    case is decided, and rightly."""
    b = OpenJmlBackend()
    spec = b.load_spec(loop_task, with_spec(LOOP, LOOP_SPEC), "S.java")
    got = engine_named(b, "key").check(spec, loop_task, loop_task.all_cases(),
                                       Limits(case_seconds=20))
    assert {(v.bucket.value, v.case_id): v.value.value for v in got} == LOOP_TRUTH, \
        [v.reason for v in got]


CHARS = """public class Solution {
    public static boolean solve(char c) {
        return c > Character.MIN_VALUE;
    }
}
"""


@pytest.mark.slow
@pytest.mark.requires("key")
def test_character_min_value_is_exact(tmp_path: Path) -> None:
    """``Character.MIN_VALUE`` is '\\u0000' (JLS 4.2.1): c = 0 is not above it, c = 1 is."""
    cases = {"post_complete": [{"id": "one", "input": {"c": "\u0001"},
                                "output": {"result": True}}],
             "post_sound": [{"id": "zero", "input": {"c": "\u0000"},
                             "output": {"result": True}}]}
    task = load_task(write_task(tmp_path / "ch", CHARS, {"c": "char"}, output="bool",
                                cases=cases))
    text = with_spec(CHARS, "    //@ ensures \\result == (c > Character.MIN_VALUE);")
    b = OpenJmlBackend()
    spec = b.load_spec(task, text, "S.java")
    got = engine_named(b, "key").check(spec, task, task.all_cases(), Limits(case_seconds=20))
    assert {v.case_id: v.value.value for v in got} == {"one": "true", "zero": "false"}, \
        [v.reason for v in got]


# --- unary minus on narrow types, unreached helper contracts (Absolute, GCD) -----


def test_unary_minus_of_a_narrow_variable_is_promoted_to_int_in_the_text() -> None:
    from adequacy_openjml.engines.key.adapt import promote_minus

    assert promote_minus("\\result == -num", {"num"}) == "\\result == -((int) num)"
    assert promote_minus("(-num) + f(- num)", {"num"}) == "(-((int) num)) + f(- ((int) num))"
    assert promote_minus("r == -(num)", {"num"}) == "r == -(((int) num))"  # the stubs' form
    # binary minus, other names, field access and calls are left alone
    assert promote_minus("a - num == -numx && -num.f > -num(1)", {"num"}) == \
        "a - num == -numx && -num.f > -num(1)"


NARROW = """public class Solution {
    public static int solve(short s) {
        return -s;
    }

    /*@ requires 0 <= x;
      @ ensures \\result == -x; @*/
    public static /*@ pure @*/ int neg(short x) {
        return -x;
    }

    /*@ requires a != 0;
      @    old int t = a + 1;
      @    ensures \\result == t; @*/
    public static /*@ pure @*/ int unused(int a) {
        return a + 1;
    }
}
"""
NARROW_SPEC = "    //@ ensures \\result == -s && (s >= 0 ==> neg(s) == -s);"
# Truths by hand (JLS 15.15.4: -s is the int negation of s): s = 5 -> -5.
NARROW_CASES = {
    "post_complete": [{"id": "five", "input": {"s": 5}, "output": {"result": -5}}],
    "post_sound": [{"id": "five", "input": {"s": 5}, "output": {"result": 5}},
                   {"id": "min", "input": {"s": -32768}, "output": {"result": -32768}}],
}
NARROW_TRUTH = {("post_complete", "five"): "true", ("post_sound", "five"): "false",
                # -(-32768) is 32768 in int arithmetic (no short overflow): -32768 is wrong
                ("post_sound", "min"): "false"}


@pytest.fixture(scope="module")
def narrow_task(tmp_path_factory: pytest.TempPathFactory) -> Task:
    return load_task(write_task(tmp_path_factory.mktemp("kn") / "narrow", NARROW,
                                {"s": "i16"}, cases=NARROW_CASES))


def test_stubs_promote_narrow_minus_and_blank_unreached_contracts(narrow_task: Task) -> None:
    spec = OpenJmlBackend().load_spec(narrow_task, with_spec(NARROW, NARROW_SPEC), "S.java")
    text = render_key_stubs(spec.data, narrow_task, narrow_task.all_cases()).text
    assert "\\result == -((int) x)" in text  # a reached helper's contract, promoted
    assert "old int t" not in text and "requires a != 0" not in text  # unreached: blanked
    assert "int unused(int a)" in text  # its code stays
    src = with_spec(NARROW, NARROW_SPEC)
    assert text.splitlines().index(next(ln for ln in text.splitlines() if "int unused" in ln)) \
        == src.splitlines().index(next(ln for ln in src.splitlines() if "int unused" in ln))


@pytest.mark.slow
@pytest.mark.requires("key")
def test_key_decides_narrow_minus_beside_an_old_clause(narrow_task: Task) -> None:
    """Before: "Cannot resolve JML operation - num (types (type, sort): (short,int))" and
    "extraneous input 'old'" made KeY refuse the file, every case unknown."""
    b = OpenJmlBackend()
    spec = b.load_spec(narrow_task, with_spec(NARROW, NARROW_SPEC), "S.java")
    got = engine_named(b, "key").check(spec, narrow_task, narrow_task.all_cases(),
                                       Limits(case_seconds=30))
    assert {(v.bucket.value, v.case_id): v.value.value for v in got} == NARROW_TRUTH, \
        [v.reason for v in got]


# --- model methods (SpecGen's Factorial, spec_factorial) --------------------------

FACT = """public class Solution {
    public static long solve(int n) {
        long f = 1;
        for (int c = 1; c <= n; c++) {
            f = f * c;
        }
        return f;
    }

    /*@   requires n > 0 && n <= 20;
          ensures n > 0 ==> \\result == n * fact(n-1);
        also
          requires n == 0;
          ensures \\result == 1;
        public model function static pure long fact(int n) {
            if (n == 0) {
                return 1;
            }
            else {
                assert n * fact(n-1) <= Long.MAX_VALUE;
                return n * fact(n-1);
            }
        }@*/
}
"""
FACT_SPEC = "    //@ requires 0 <= n && n <= 20;\n    //@ ensures \\result == fact(n);"
# Truths by hand: 0! = 1, 1! = 1 * 0! = 1; the precondition is 0 <= n <= 20. (KeY 2.12.3 leaves
# 1! open: it does not chain the recursive contract; those cases may stay unknown, never wrong.)
FACT_CASES = {
    "pre_complete": [{"id": "n4", "input": {"n": 4}}],
    "pre_sound": [{"id": "n21", "input": {"n": 21}}],
    "post_complete": [{"id": "n0", "input": {"n": 0}, "output": {"result": 1}},
                      {"id": "n1", "input": {"n": 1}, "output": {"result": 1}}],
    "post_sound": [{"id": "n0", "input": {"n": 0}, "output": {"result": 0}},
                   {"id": "n1", "input": {"n": 1}, "output": {"result": 2}}],
}
FACT_TRUTH = {("pre_complete", "n4"): "true", ("pre_sound", "n21"): "false",
              ("post_complete", "n0"): "true", ("post_complete", "n1"): "true",
              ("post_sound", "n0"): "false", ("post_sound", "n1"): "false"}


def test_model_method_rewrites_keep_lines_and_value() -> None:
    from adequacy_openjml.engines.key.adapt import model_edits
    start = FACT.index("/*@")
    end = FACT.index("@*/") + 3
    out = apply_edits(FACT, model_edits(FACT, start, end, {"fact": "long"}))
    free = "__adequacy_free_fact(n)"
    # the if-else as one conditional, defined where n is an int, n - 1 is one and the long
    # product does not overflow (on the else branch only); else the body-less twin's value
    assert ("long fact(\\bigint n) { return ((Integer.MIN_VALUE <= n && n <= Integer.MAX_VALUE)"
            " && (((n == 0)) ? (true) : ((Integer.MIN_VALUE <= (n - 1) && (n - 1) <= "
            "Integer.MAX_VALUE) && (Long.MIN_VALUE <= (n * fact((n - 1))) && (n * fact((n - 1)))"
            " <= Long.MAX_VALUE)))) ? ((long) (((n == 0) ? 1 : (n * fact((n - 1)))))) : "
            f"{free}; }} public model static pure long __adequacy_free_fact(\\bigint n);") in out
    assert out.count("\n") == FACT.count("\n")
    one = "/*@ model pure int g(int x) { return x + 1; } model pure boolean h(char c) " \
          "{ return c > 0; } @*/"
    got = apply_edits(one, model_edits(one, 0, len(one)))
    assert ("int g(\\bigint x) { return ((Integer.MIN_VALUE <= x && x <= Integer.MAX_VALUE) && "
            "(Integer.MIN_VALUE <= (x + 1) && (x + 1) <= Integer.MAX_VALUE)) ? ((int) ((x + 1)))"
            " : __adequacy_free_g(x); } public model pure int __adequacy_free_g(\\bigint x);") \
        in got
    # nothing to bound: the value as written
    assert "boolean h(char c) { return (c > 0); }" in got
    # an operand of unknown type counts as int (the stricter range); a long one makes the
    # operation long (binary numeric promotion)
    mixed = "/*@ model static long s(long a, int b) { return a + b * k(); } @*/"
    got = apply_edits(mixed, model_edits(mixed, 0, len(mixed)))
    assert "(Integer.MIN_VALUE <= (b * k()) && (b * k()) <= Integer.MAX_VALUE)" in got
    assert "(Long.MIN_VALUE <= (a + (b * k())) && (a + (b * k())) <= Long.MAX_VALUE)" in got
    # a body KeY cannot read (statements), or whose operations the guard does not bound
    # (shifts), has no definition: every call is the free twin's value
    for body in ["{ int s = 0; while (x > 0) { s++; x--; } return s; }", "{ return x << 2; }",
                 "{ return x * 0.5 > 1; }"]:
        src = f"/*@ model pure int k(int x) {body} @*/"
        assert apply_edits(src, model_edits(src, 0, len(src))) == (
            "/*@ model pure int k(\\bigint x) { return __adequacy_free_k(x); } public model "
            "pure int __adequacy_free_k(\\bigint x); @*/"), body


def apply_edits(text: str, edits: list[tuple[int, int, str]]) -> str:
    from adequacy_openjml.engines.key.adapt import _apply
    return _apply(text, sorted(edits))


@pytest.mark.slow
@pytest.mark.requires("key")
def test_key_decides_model_factorial(tmp_path: Path) -> None:
    """Before: "no viable alternative at input 'function static'", then "missing 'return' at
    'if'", then "Method fact(\\bigint) not found!": every case unknown."""
    task = load_task(write_task(tmp_path / "fact", FACT, {"n": "i32"}, output="i64",
                                cases=FACT_CASES))
    b = OpenJmlBackend()
    spec = b.load_spec(task, with_spec(FACT, FACT_SPEC), "S.java")
    text = render_key_stubs(spec.data, task, task.all_cases()).text
    assert "public model          static pure long fact(\\bigint n)" in text
    got = engine_named(b, "key").check(spec, task, task.all_cases(), Limits(case_seconds=30))
    verdicts = {(v.bucket.value, v.case_id): v.value.value for v in got}
    assert verdicts.keys() == FACT_TRUTH.keys()
    for k, truth in FACT_TRUTH.items():  # decided means correct; n = 0 and pre: decided
        must = k[1] != "n1"
        assert verdicts[k] == truth or (not must and verdicts[k] == "unknown"), (k, verdicts)
