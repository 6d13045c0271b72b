"""A local shadows a field of its name only within its Java scope (JLS 6.3, 6.4.1).

Before ``jml.scopes``, a C-style array local (``int a[]``) or a ``\\bigint`` local named like a
field was read as the field, so valid helpers were called invalid ("array required, but int
found", "assigns an element of a, an array the method did not allocate"). Each case puts a
static field into the is_prime task's class and a body into its pure helper ``static boolean
divides(int d, int n)``. The verdicts are hand-worked from the JLS rule cited; the javac test
checks that truth against the real compiler.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from adequacy.errors import SpecInvalid
from adequacy.examples import bundled_folder
from adequacy.taskdirs.load import load_task
from adequacy_openjml.jml.lexer import tokenize
from adequacy_openjml.jml.load import load
from adequacy_openjml.jml.scopes import Scopes

ROOT = bundled_folder("jml") / "is_prime"
GOLD_BODY = "return n % d == 0;"
CLASS = "public class Solution {"

VALID = [
    ("static int a;", "int a[] = new int[1]; a[0] = n % d; return a[0] == 0;",
     "JLS 10.2: a C-style declarator declares the local a of type int[]"),
    ("static boolean a;", "int a[] = {n % d}; return a[0] == 0;",
     "JLS 10.2, 10.6: an array initializer for a C-style array local"),
    ("static boolean r;", "int r[][] = {{n % d}}; return r[0][0] == 0;",
     "JLS 10.2: two C-style dimensions"),
    ("static boolean a;", "int x = 0, a[] = {n % d}; return x == 0 && a[0] == 0;",
     "JLS 14.4: a second declarator with its own dimensions"),
    ("static boolean r;", "{ int r = n % d; if (r != 0) return false; } return r;",
     "JLS 6.3: a block's local ends with the block; then r is the field"),
    ("static boolean r;", "for (int r = 0; r < 1; r++) { } return n % d == 0 || r;",
     "JLS 6.3: a for-init local is in scope in the whole for statement only"),
    ("static int r;", "if (n % d == 0) { boolean r = true; return r; } return r == 0;",
     "JLS 6.4.1: inside the block the local shadows the int field"),
    ("static boolean e;",
     "try { return n % d == 0; } catch (ArithmeticException e) { return e == null; }",
     "JLS 6.3: a catch parameter is in scope in its block"),
    ("static int r;", "java.util.function.IntPredicate p = r -> { if (r % d == 0) return true; "
     "return false; }; return p.test(n);", "JLS 15.27.2: a lambda parameter may shadow a field"),
    ("static boolean r;", "for (int r : new int[]{n}) { if (r % d != 0) return false; } "
     "return r;", "JLS 14.14.2: the enhanced-for variable's scope is the loop"),
    ("static boolean k;", "int s = 0; for (int k = 0; k < n; k++) s += k; return s >= 0 && k;",
     "JLS 14.14.1: a for without a block ends at its statement"),
    ("static boolean a;", "switch (n) { case 1: int a = 5; return a > 0; default: a = 6; "
     "return a > d; }", "JLS 6.3: a switch block's local is in scope in later case groups"),
    ("static boolean r;", "try { return n % d == 0; } catch (ArithmeticException | "
     "NullPointerException r) { return r != null; }", "JLS 14.20: a multi-catch parameter"),
    ("static boolean a;", "int a[]; a = new int[]{n % d}; a[0] += 0; return a[0] == 0;",
     "JLS 10.2: a C-style array local assigned later"),
    ("static boolean a;", "int a[][] = new int[2][2]; a[0][1] = n % d; return a[0][1] == 0;",
     "JLS 10.2, 15.10.1: a C-style two-dimensional local the method allocated"),
    ("static boolean a;", "for (int i = 0; i < n; i++) { for (int a = i; a < n; a++) { "
     "if (a % d == 0) return true; } } return a;", "JLS 6.3: nested for-init scopes"),
    ("static int a;", "outer: for (int i = 0; i < 2; i++) { for (int j = 0; j < 2; j++) { "
     "if (j > i) continue outer; } } return java.lang.Math.abs(n) % d == a;",
     "JLS 14.7, 6.5.5.2: a label and a package name are no variables"),
    ("static int[] xs;", "int[] xs = new int[3]; xs[0] = n % d; return xs[0] == 0;",
     "JML RM 7.1.1.3: a pure method may write an array it allocated, here the local xs"),
    ("static int a;", "int a = 0; a++; a += n % d; return a == 1;",
     "JLS 6.4.1: the assignments are to the local a, not the field"),
    ("static int r;", "switch (n) { case 0: int q = 1; return q > 0; default: "
     "return r % d == 0; }", "JLS 6.3: a switch block's local q does not hide the field r"),
]
"""(field, body, rule): valid Java, so valid JML."""

INVALID = [
    ("static int r;", "{ boolean r = true; } return r;",
     "incompatible types: int cannot be converted to boolean",
     "JLS 6.3, 14.17: after the block, r is the int field"),
    ("static int r;", "for (boolean r = true; r; ) { break; } return r;",
     "incompatible types: int cannot be converted to boolean",
     "JLS 6.3: after the for statement, r is the int field"),
    ("static boolean a;", "int a[] = {n % d}; return a;",
     "incompatible types: int[] cannot be converted to boolean",
     "JLS 10.2: the C-style local a is an int[]"),
    ("static boolean r;", "int r = n % d; if (r) return true; return false;",
     "incompatible types: int cannot be converted to boolean",
     "JLS 14.9: the local int r shadows the boolean field in the condition"),
    ("static int r;", "switch (n) { case 0: boolean r = true; return r; default: "
     "return r % d == 0; }", "bad operand types for binary operator '%': boolean and int",
     "JLS 6.3: a switch block's local is in scope in the later case groups too"),
    ("static int a;", "{ int q = n % d; } return q == 0;", "cannot find symbol: variable q",
     "JLS 6.3: after its block q names nothing"),
    ("static int a;", "for (int i = 0; i < n; i++) { } return i > d;",
     "cannot find symbol: variable i", "JLS 6.3: a for-init local ends with the for"),
    ("static int a;", "return n % dd == 0;", "cannot find symbol: variable dd",
     "JLS 6.5.6.1: a simple name must be a variable in scope"),
    ("static int a;", "a = 1; return true;", "assigns field a",
     "JML RM 7.1.1.3: a pure method assigns no field (no local a is declared)"),
    ("static int a;", "{ int a = 0; a++; } a = 2; return true;", "assigns field a",
     "JML RM 7.1.1.3 with JLS 6.3: outside the block a is the field again"),
    ("static int[] xs;", "{ int[] xs = new int[1]; xs[0] = 1; } xs[0] = 2; return true;",
     "assigns an element of xs", "JML RM 7.1.1.3 with JLS 6.3: the field's array, after "
     "the block"),
    ("static int a;", "java.util.function.IntUnaryOperator g = a -> a + 1; a = 2; "
     "return g.applyAsInt(n) > 0;", "assigns field a",
     "JLS 6.3: a lambda parameter is in scope in the lambda's body only"),
]
"""(field, body, message part, rule): ill-typed or impure; the error is at the helper's line."""

MODEL = "/*@ model pure static boolean big(int n) { \\bigint a = n; BODY } @*/"


def _task(tmp_path: Path, field: str) -> Path:
    task = tmp_path / "task"
    shutil.copytree(ROOT, task)
    code = task / "Solution.java"
    code.write_text(code.read_text().replace(CLASS, f"{CLASS}\n    {field}"))
    return task


def _spec(field: str, body: str, model: str = "") -> str:
    gold = (ROOT / "specs" / "gold.java").read_text()
    assert gold.count(GOLD_BODY) == 1 and gold.count(CLASS) == 1
    return gold.replace(CLASS, f"{CLASS}\n    {field}\n    {model}").replace(GOLD_BODY, body)


@pytest.mark.parametrize(("field", "body", "rule"), VALID, ids=[str(k) for k in range(len(VALID))])
def test_local_shadowing_a_field_is_accepted(tmp_path: Path, field: str, body: str,
                                             rule: str) -> None:
    try:
        load(load_task(_task(tmp_path, field)), _spec(field, body), "gold.java")
    except SpecInvalid as e:  # pragma: no cover - the failure message is the point
        pytest.fail(f"{rule}: a valid body was called invalid: {e.message} (line {e.line})")


@pytest.mark.parametrize(("field", "body", "part", "rule"), INVALID,
                         ids=[str(k) for k in range(len(INVALID))])
def test_field_outside_the_local_scope_is_checked(tmp_path: Path, field: str, body: str,
                                                  part: str, rule: str) -> None:
    with pytest.raises(SpecInvalid) as e:
        load(load_task(_task(tmp_path, field)), _spec(field, body), "gold.java")
    assert part in e.value.message, rule
    assert e.value.line == 6  # the helper's line, below the field and the model line


@pytest.mark.parametrize(("field", "body", "bad"), [
    ("static int a;", "return a > 0;", False),       # JML RM 12.1: \bigint compares with int
    ("static boolean a;", "a = a + 1; return a > 0;", False),  # the local, not the field
    ("static int a;", "return a;", True),             # \bigint is no boolean (JLS 14.17)
])
def test_bigint_local_of_a_model_method_shadows_the_field(tmp_path: Path, field: str, body: str,
                                                          bad: bool) -> None:
    spec = _spec(field, GOLD_BODY, MODEL.replace("BODY", body))
    if bad:
        with pytest.raises(SpecInvalid, match=r"\\bigint cannot be converted to boolean"):
            load(load_task(_task(tmp_path, field)), spec, "gold.java")
    else:
        load(load_task(_task(tmp_path, field)), spec, "gold.java")


@pytest.mark.slow
@pytest.mark.requires("javac")
def test_javac_agrees_with_the_hand_worked_verdicts(tmp_path: Path) -> None:
    """The Java cases above, compiled by javac in one run: the valid ones compile, the
    ill-typed ones do not (the impure ones are valid Java: purity is JML's rule)."""
    cases = [(f, b, True) for f, b, _r in VALID] + [
        (f, b, False) for f, b, part, _r in INVALID if "assigns" not in part]
    for k, (field, body, _ok) in enumerate(cases):
        (tmp_path / f"C{k}.java").write_text(
            f"public class C{k} {{\n {field}\n static boolean divides(int d, int n) {{\n"
            f"  {body}\n }}\n}}\n")
    run = subprocess.run(["javac", "-d", str(tmp_path / "out"), "-Xmaxerrs", "1000",
                          *sorted(str(p) for p in tmp_path.glob("C*.java"))],
                         capture_output=True, text=True, timeout=300)
    failed = {int(m) for m in re.findall(r"C(\d+)\.java:\d+: error", run.stderr)}
    assert failed == {k for k, (_f, _b, ok) in enumerate(cases) if not ok}, run.stderr


_SOUP = ["{", "}", "(", ")", "[", "]", ";", ",", "=", "->", ":", "int", "a", "b", "for", "if",
         "else", "try", "catch", "do", "while", "switch", "case", "default", "instanceof",
         "String", "<", ">", ".", "final", "@", "1", "\\bigint", "return", "new", "?", "var"]


@given(st.lists(st.sampled_from(_SOUP), max_size=60))
def test_scope_reader_ends_on_any_token_soup(words: list[str]) -> None:
    """Hostile bodies (unbalanced brackets, keywords in any order) neither hang nor raise,
    and every scope lies inside the body."""
    toks = tokenize(" ".join(words), 1, None)[:-1]
    s = Scopes(toks)
    for d in s.decls:
        assert 0 <= d.start <= d.end <= len(toks)
    for k in range(len(toks)):
        assert set(s.at(k)) == {n for n in s.names() if s.is_local(n, k)}


def test_model_method_may_read_a_ghost_field() -> None:
    """JML RM 7.1.2: a model method is specification code and reads ghost fields, which
    the front end does not list among the class's fields: no "cannot find symbol"."""
    gold = (ROOT / "specs" / "gold.java").read_text()
    spec = gold.replace(CLASS, f"{CLASS}\n    //@ public static ghost int g = 0;\n"
                               "    /*@ model pure static boolean mm(int n) { return n > g; } @*/")
    load(load_task(ROOT), spec, "gold.java")
