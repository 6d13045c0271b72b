"""Valid JML that the type checker must accept (a valid spec called invalid is as wrong as an
ill-typed spec scored), and the CLI's exit 3 for an ill-typed one.

Each valid clause's typing is from the JLS (SE 17) or the JML RM, cited per case.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from adequacy.cli import app
from adequacy.errors import SpecInvalid
from adequacy.examples import bundled_folder
from adequacy.taskdirs.load import load_task
from adequacy_openjml.jml.load import load

EXAMPLES = bundled_folder("jml")


def spec(task: str, clauses: str) -> tuple[object, str]:
    root = EXAMPLES / task
    code = (root / "Solution.java").read_text()
    return load_task(root), code.replace("    public static", f"    {clauses}\n    public static",
                                         1)


@pytest.mark.parametrize(("task", "clauses", "why"), [
    ("abs_value", "//@ ensures \\result == Math.max(x, -(long) x);",
     "JLS 15.12.2.5: max(long,long) applies by widening int to long (result long == int ok)"),
    ("abs_value", "//@ ensures (\\bigint) \\result * 2 >= 0;", "JML RM 12.1: \\bigint arithmetic"),
    ("abs_value", "//@ ensures \\result == (x < 0 ? -x : x);", "JLS 15.25: numeric ?:"),
    ("abs_value", "//@ ensures (x & 1) == (\\result & 1);", "JLS 15.22.1: integral &"),
    ("abs_value", "//@ ensures (\\result == x) == (x >= 0) || x == 0;", "JLS 15.21.2: boolean =="),
    ("abs_value", "//@ ensures Math.sqrt(\\result) >= 0;", "JLS 5.3: int widens to double"),
    ("abs_value", "//@ ensures Integer.MAX_VALUE >= \\result;", "java.lang.Integer.MAX_VALUE"),
    ("array_max", "//@ ensures (\\num_of int i; 0 <= i < a.length; a[i] == \\result) >= 1;",
     "JML RM 12.4.24.3: \\num_of is a long"),
    ("array_max", "//@ ensures a.clone().length == a.length && a.equals(a);",
     "JLS 10.7: clone and Object's methods are array members"),
    ("array_max", "//@ ensures (\\forall long i; 0 <= i < a.length; a[(int) i] <= \\result);",
     "JLS 15.16: long casts to int"),
    ("swap_case", "//@ ensures \\result.indexOf('a') >= -1 && s.contains(\"\" + 'x') | true;",
     "JLS 5.3: char widens to int; JLS 15.18.1 string concatenation; 15.22.2 boolean |"),
    ("swap_case", "//@ ensures \\result.charAt(0) - 'a' < 26 || s.isEmpty();",
     "JLS 5.6.2: char - char is int"),
    ("swap_case", "//@ ensures String.valueOf(s.length()).equals(\"\" + s.length());",
     "String.valueOf(Object) takes an int by boxing"),
    ("swap_case", "//@ ensures s.toCharArray() != null && s.toCharArray().length == s.length();",
     "String.toCharArray() returns char[]"),
])
def test_valid_spec_is_accepted(task: str, clauses: str, why: str) -> None:
    t, text = spec(task, clauses)
    load(t, text, "spec.java")  # type: ignore[arg-type]


def test_cli_exit_3_with_file_and_line(tmp_path: Path) -> None:
    gold = (EXAMPLES / "swap_case" / "specs" / "gold.java").read_text()
    bad = tmp_path / "bad.java"
    bad.write_text(gold.replace("== s.length();", "== s.size();"))
    r = CliRunner().invoke(app, ["score", str(EXAMPLES / "swap_case"), str(bad)])
    assert r.exit_code == 3, r.output
    assert "bad.java:4" in r.output and "size()" in r.output, r.output


@pytest.mark.parametrize(("location", "ok"), [
    ("b", False), ("a[0], b[1]", False), ("a[*]", True), ("a[0..a.length-1]", True),
    ("\\nothing", True), ("a", True),
])
def test_assignable_names_resolve(location: str, ok: bool) -> None:
    """JML RM 9.9.9: a store-ref names a parameter, field or class; ``b`` is none of them."""
    root = EXAMPLES / "reverse_in_place"
    gold = (root / "specs" / "gold.java").read_text()
    text = gold.replace("requires a != null;", f"requires a != null;\n      @ assignable {location};")
    if ok:
        load(load_task(root), text, "s.java")
        return
    with pytest.raises(SpecInvalid) as e:
        load(load_task(root), text, "s.java")
    assert e.value.line == 4 and "cannot find symbol: variable b" in e.value.message
