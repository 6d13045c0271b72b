"""Reading Java+JML: spec cases, helper and model methods, and the "code altered" check."""

from __future__ import annotations

import pytest

from adequacy.errors import SpecInvalid
from adequacy_openjml.jml.policy import check_code
from adequacy_openjml.jml.reader import read_source

TASK = """public class Solution {
    public static int solve(int n, int arr[]) {
        return n + arr.length;
    }
}
"""

SPEC = """public class Solution {
    /*@ pure @*/ static boolean positive(int x) { return x > 0; }

    //@ public static model pure int twice(int x) { return 2 * x; }

    /*@ public normal_behavior
      @   requires n >= 0 && arr != null;   // a nested comment
      @   ensures \\result == n + arr.length;
      @ also
      @ public exceptional_behavior
      @   requires arr == null;
      @   signals (NullPointerException e) true;
      @*/
    //@ also
    //@ requires positive(n);
    public static int solve(int n, int arr[]) {
        //@ assert n == n;
        return n + arr.length;
    }
}
"""


def test_spec_cases_and_helpers() -> None:
    sf = read_source(SPEC, "S.java")
    cls = sf.find_class("Solution")
    assert cls is not None
    solve = next(m for m in cls.methods if m.name == "solve")
    assert solve.params == [("int", "n"), ("int[]", "arr")]
    assert solve.return_type == "int" and solve.is_static
    kinds = [c.kind for c in solve.spec]
    assert kinds == ["normal", "exceptional", "lightweight"]
    assert solve.spec[0].requires[0].text == "n >= 0 && arr != null"
    assert solve.spec[0].requires[0].line == 7
    assert solve.spec[0].ensures[0].line == 8
    assert len(solve.spec[1].signals) == 1 and not solve.spec[1].normal
    helper = next(m for m in cls.methods if m.name == "positive")
    assert helper.is_pure
    assert [m.name for m in cls.models] == ["twice"]


def test_code_check_accepts_jml_and_pure_helpers() -> None:
    check_code(read_source(SPEC), read_source(TASK))


def test_code_altered_reports_line() -> None:
    altered = SPEC.replace("return n + arr.length;\n    }\n}", "return n - arr.length;\n    }\n}")
    with pytest.raises(SpecInvalid) as ei:
        check_code(read_source(altered, "S.java"), read_source(TASK))
    assert "code altered at line 18" in ei.value.message
    assert ei.value.line == 18


def test_non_pure_added_method_is_an_alteration() -> None:
    added = SPEC.replace("/*@ pure @*/ static boolean positive", "static boolean positive")
    with pytest.raises(SpecInvalid, match="code altered at line 2"):
        check_code(read_source(added), read_source(TASK))


def test_code_hidden_in_comments_does_not_count() -> None:
    # JML stripped on both sides; an ordinary comment change is not an alteration either
    commented = TASK.replace("return n", "// hi\n        return n")
    check_code(read_source(commented), read_source(TASK))


@pytest.mark.parametrize("bad, message", [
    ("//@ requires n > 0\n", "missing its ';'"),
    ("//@ frobnicate n;\n", "unexpected 'frobnicate'"),
    ("/*@ requires n > 0;\n", "unterminated comment"),
])
def test_malformed_annotations(bad: str, message: str) -> None:
    text = TASK.replace("    public static", "    " + bad + "    public static")
    with pytest.raises(SpecInvalid, match=message) as ei:
        read_source(text, "S.java")
    assert ei.value.file == "S.java" and ei.value.line is not None
