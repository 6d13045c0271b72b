"""Verdicts that could come from an object's identity (or a per-JVM order) are unknown.

``"" + a`` for an array is ``[I@1b6d3586``; ``Set.of(..)`` iterates in an order salted per JVM
start. A spec whose value depends on either got decided verdicts that changed between runs of
the same spec on the same case, and the first draw was cached. Now every such shape, in a pure
helper or in a clause, is a gap: every case unknown, in every run. Shapes whose text is their
content (numbers, strings, builders of them) stay decided."""

from __future__ import annotations

from pathlib import Path

import pytest

from adequacy.examples import bundled_folder
from adequacy.taskdirs.load import load_task
from adequacy_openjml.jml.load import load
from adequacy_openjml.jml.purity import check_purity
from adequacy_openjml.jml.reader import read_source

CLS = """public class Solution {
    static int[] memo = new int[10];
    public static int solve(int[] a) { return a.length; }
    /*@ pure @*/ static boolean h(int[] a, int x, Object o) {
        %s
    }
}
"""
IDENTITY = [
    'return ("" + a).length() > 5;',
    'return (a + "" + x).length() > 0;',
    'String s = "x"; s += a; return s.length() > 3;',
    'Object p = new Object(); return (p + "").length() > 10;',
    'return ("" + o).length() > 3;',
    'return ("" + this).length() > 3;',
    'return ("" + Solution.memo).length() > 0;',
    'return ("" + java.util.List.of(a)).length() > 3;',
    'String s = "" + x; Object p = a; return (s + p).length() > 3;',
    'return new StringBuilder().append(a).toString().length() > 5;',
    'StringBuilder sb = new StringBuilder(); sb.insert(0, o); return sb.length() > 5;',
    'return String.valueOf((Object) a).length() > 3;',
    'return a.toString().length() > 3;',
    'return java.util.Arrays.asList(a).hashCode() % 2 == 0;',
    'return System.identityHashCode(a) % 2 == 0;',
    'return java.util.Objects.hashCode(a) % 2 == 0;',
    'return java.util.Set.of(x, x + 1, x + 2).iterator().next() == x;',
    'for (int v : java.util.Map.of(1, 2, 3, 4).keySet()) { return v == x; } return false;',
    'java.util.Set<int[]> s = new java.util.HashSet<>(); s.add(a); s.add(new int[1]); '
    'return s.iterator().next() == a;',
    'java.util.Map<Object, Integer> m = new java.util.HashMap<>(); m.put(o, 1); '
    'm.put(a, 2); for (int v : m.values()) { return v == 1; } return false;',
]


@pytest.mark.parametrize("body", IDENTITY)
def test_a_helper_reading_an_identity_is_a_gap(body: str) -> None:
    src = read_source(CLS % body, "S.java")
    gap = check_purity(src, src.classes[0], "S.java")
    assert gap is not None and gap.startswith("pure method h"), gap


@pytest.mark.parametrize("body", [
    'return ("" + x).length() > 0;',
    'String s = "n=" + x + ", " + \'c\' + true + 1.5; return s.length() > 0;',
    'return (Integer.toString(x) + "!").length() > 1;',
    'int[] b = new int[]{x}; return b[0] + x > 0;',
    'return ("" + a.length + a[0] + x * 2).length() > 0;',
    'String s = "a"; s += x; s += "b"; return s.length() > 1;',
    'StringBuilder sb = new StringBuilder(); sb.append(x).append("y").append(a[0]); '
    'return sb.toString().length() > 0;',
    'java.util.Set<Integer> s = new java.util.HashSet<>(); s.add(x); '
    'for (int v : s) { if (v == x) return true; } return false;',
    'return java.util.Set.of(1, 2).contains(x);',
    'String t = "ab".substring(1) + x; return t.length() == 2;',
])
def test_helpers_whose_text_is_their_content_stay_decided(body: str) -> None:
    src = read_source(CLS % body, "S.java")
    assert check_purity(src, src.classes[0], "S.java") is None


REPO = Path(__file__).resolve().parents[2]
ARRAYS = """public class Solution {
    //@ ensures %s;
    public static int solve(int[] a) { return a.length; }
}
"""


def _task(tmp: Path) -> Path:
    """A task whose method takes an int[] (so clauses can name an array)."""
    import shutil
    src = bundled_folder("jml")
    for d in sorted(src.iterdir()):
        sol = d / "Solution.java"
        if sol.exists() and "int[]" in sol.read_text():
            dst = tmp / d.name
            shutil.copytree(d, dst)
            return dst
    pytest.skip("no bundled JML task takes an int[]")


@pytest.mark.parametrize("clause", [
    'a.hashCode() % 2 == 0',
    '("" + a).length() > 3',
    'a.toString().length() > 3',
    'String.valueOf(a).length() > 3',
    'String.valueOf((Object) a).length() > 3',
    '(\\result + " " + a.clone()).length() > 3',
    'Objects.hashCode(a) % 2 == 0',
    'Math.random() < 0.5',
])
def test_a_clause_reading_an_identity_is_a_gap(tmp_path: Path, clause: str) -> None:
    folder = _task(tmp_path)
    task = load_task(folder)
    text = (folder / "Solution.java").read_text()
    spec = _with_clause(text, clause)
    loaded = load(task, spec, "s.java")
    assert loaded.gap is not None and "line" in loaded.gap, clause


def _with_clause(text: str, clause: str) -> str:
    lines = text.splitlines()
    for i, ln in enumerate(lines):
        if " static " in ln and "(" in ln and "{" in ln and "int[]" in ln:
            lines.insert(i, f"    //@ ensures {clause};")
            return "\n".join(lines) + "\n"
    pytest.skip("method line not found")
    return text
