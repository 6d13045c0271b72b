"""A pure helper assigns nothing it did not allocate, whatever shape the expression that
hands it an object has: "allocated" is the object the expression's last operation creates,
never something reached from it (``new int[][]{a}[0]`` is ``a``). Each attack below wrote
into an argument or a static through an alias the purity check trusted as fresh; each is
invalid with its line. The honest shapes beside them stay valid."""

from __future__ import annotations

import pytest

from adequacy.errors import SpecInvalid
from adequacy_openjml.jml.purity import check_purity
from adequacy_openjml.jml.reader import read_source

CLS = """public class Solution {
    static int[] memo = new int[10];
    static java.util.List<Integer> seen = new java.util.ArrayList<>();
    public static int solve(int[] a) { return a.length; }
    /*@ pure @*/ static boolean h(int[] a, int[][] g, java.util.List<Integer> l,
                                  java.util.Map<Integer, java.util.List<Integer>> m, int x) {
        %s
    }
}
"""
LINE = 7

ATTACKS = [
    # an allocation first, then the original reached from it
    "int[] t = new int[][] {a}[0]; t[0] = x; return true;",
    "int[] t = new int[][] {memo}[0]; t[x % 10] = x; return true;",
    "int[] t = (new int[][] {a})[0]; t[0] = x; return true;",
    "int[] t; t = new int[][] {memo}[0]; t[0] = x; return true;",
    "int[] t = new int[1].length > 0 ? memo : null; t[0] = x; return true;",
    "int[] t = new java.util.ArrayList<int[]>(java.util.List.of(a)).get(0); t[0] = x; "
    "return true;",
    "int[] t = new Object[] {a}.length == 1 ? a : a; t[0] = x; return true;",
    # a copy whose elements are the originals' inner arrays
    "int[] t = java.util.Arrays.copyOf(g, 1)[0]; t[0] = x; return true;",
    "int[] t = g.clone()[0]; t[0] = x; return true;",
    # a choice between a copy and the original
    "int[] t = x > 0 ? a : a.clone(); t[0] = x; return true;",
    "int[] t = x > 0 ? memo : java.util.Arrays.copyOf(memo, 10); t[0] = x; return true;",
    "int[] t = (int[]) (Object) memo; t[0] = x; return true;",
    # collections: a stored value, a view, an element
    "java.util.List<Integer> t = new java.util.HashMap<>(m).get(x); t.add(x); return true;",
    "java.util.List<Integer> t = new java.util.ArrayList<>(seen).subList(0, 0); t.add(x); "
    "return true;",
    "new java.util.HashMap<>(m).replace(x, l).add(x); return true;",
    "new java.util.HashMap(m).replace(x, l).add(x); return true;",
    "java.util.List<Integer> t = new java.util.ArrayList<java.util.List<Integer>>("
    "java.util.List.of(seen)).get(0); t.clear(); return true;",
]


@pytest.mark.parametrize("body", ATTACKS)
def test_an_alias_of_state_is_not_fresh(body: str) -> None:
    src = read_source(CLS % body, "S.java")
    with pytest.raises(SpecInvalid) as e:
        check_purity(src, src.classes[0], "S.java")
    assert e.value.line == LINE and "pure method h" in e.value.message


@pytest.mark.parametrize("body", [
    "int[] t = new int[3]; t[0] = x; return t[0] == x;",
    "int[] t = (new int[3]); t[0] = x; return t[0] == x;",
    "int[] t = {1, 2}; t[0] = x; return t[0] == x;",
    "int[] t = a.clone(); t[0] = x; return t[0] == x;",
    "int[] t = new int[][] {a}[0].clone(); t[0] = x; return t[0] == x;",
    "int[] t = java.util.Arrays.copyOf(a, 2); t[0] = x; return t[0] == x;",
    "int[] t = java.util.Arrays.copyOfRange(g[0], 0, 1); t[0] = x; return t[0] == x;",
    "StringBuilder sb = new StringBuilder(\"ab\").reverse(); sb.append(x); "
    "return sb.length() > 0;",
    "java.util.List<Integer> t = new java.util.ArrayList<>(); t.add(x); return t.size() == 1;",
])
def test_what_the_method_allocated_may_be_assigned(body: str) -> None:
    src = read_source(CLS % body, "S.java")
    assert check_purity(src, src.classes[0], "S.java") is None
