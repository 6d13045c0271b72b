"""JML's purity rules for helpers: verdicts never depend on case order.

The attack on main: a ``pure`` helper kept a static map (a static field of a local class is
legal Java 17) and accepted the first output it saw per input. The completeness cases run
first and the mutants share their inputs, so ``ensures seen(x, \\result)``, which states
nothing, PASSED ALL on abs_value.
"""

from __future__ import annotations

import random

import pytest

from adequacy.errors import SpecInvalid
from adequacy.examples import bundled_folder
from adequacy.scoring.runner import score_spec
from adequacy.taskdirs.load import load_task
from adequacy_openjml.jml.load import load
from adequacy_openjml.jml.purity import check_purity
from adequacy_openjml.jml.reader import read_source

ABS = bundled_folder("jml") / "abs_value"
BODY = """    public static int solve(int x) {
        if (x < 0)
            return -x;
        return x;
    }
"""


def spec(ensures: str, helper: str) -> str:
    return ("public class Solution {\n\n    //@ ensures " + ensures + ";\n" + BODY +
            "\n    /*@ pure @*/ public static boolean seen(int x, int r) {\n" + helper +
            "    }\n}\n")


STATEFUL = spec("seen(x, \\result)", """\
        class M { static java.util.HashMap<Integer, Integer> m = new java.util.HashMap<>(); }
        Integer prev = M.m.putIfAbsent(x, r);
        return prev == null || prev == r;
""")
HONEST = spec("seen(x, \\result)", """\
        int[] d = new int[2];
        d[0] = x < 0 ? -x : x;
        StringBuilder sb = new StringBuilder();
        sb.append(d[0]);
        java.util.List<Integer> l = new java.util.ArrayList<>();
        l.add(r);
        return r >= 0 && l.get(0) == d[0] && sb.toString().equals(Integer.toString(r));
""")


@pytest.mark.slow
@pytest.mark.requires("javac")
def test_stateful_helper_no_longer_passes_abs_value() -> None:
    rep = score_spec(load_task(ABS), STATEFUL, "stateful.java", cache=None)
    assert rep.status == "invalid" and not rep.passed_all
    assert rep.invalid is not None and rep.invalid.line == 11
    assert "class M" in rep.invalid.message


@pytest.mark.slow
@pytest.mark.requires("javac")
def test_verdicts_do_not_depend_on_case_order_or_other_cases() -> None:
    """One spec, its cases in three shuffled orders and each bucket on its own: every case
    gets the same verdict every time. On main the stateful spec accepted a mutant scored
    without its bucket's completeness case (the first output it saw for that input) and
    rejected it when scored with it; now it is invalid every time, and an honest helper with
    local allocations is decided the same way every time."""
    task = load_task(ABS)
    cases = list(task.all_cases())
    # mutants alone first: a helper keeping state (in its worker, across calls) sees them
    # before their inputs' right outputs
    buckets = sorted({c.bucket for c in cases}, key=lambda b: b.value != "post_sound")
    runs: list[list[object]] = [[c for c in cases if c.bucket == b] for b in buckets]
    for seed in range(3):
        order = cases[:]
        random.Random(seed).shuffle(order)
        runs.append(order)
    for text in (STATEFUL, HONEST):
        verdicts: dict[tuple[object, str], set[object]] = {}
        statuses = set()
        for k, order in enumerate(runs):
            # the local class renamed per run: on main the rac worker kept a compiled unit's
            # statics across scores, and each run must start from an empty map
            fresh = text.replace("class M ", f"class M{k} ").replace("M.m", f"M{k}.m")
            rep = score_spec(task, fresh, "s.java", cache=None,
                             cases=order)  # type: ignore[arg-type]
            statuses.add(rep.status)
            for v in rep.verdicts:
                verdicts.setdefault((v.bucket, v.case_id), set()).add(v.value)
        assert len(statuses) == 1, text
        assert all(len(vs) == 1 for vs in verdicts.values()), verdicts
    honest = score_spec(task, HONEST, "h.java", cache=None)
    assert honest.status == "scored"
    assert all(v.value.value != "unknown" for v in honest.verdicts)


CLS = """public class Solution {
    static int counter;
    static int[] memo = new int[10];
    int mine;
    public static int solve(int[] a) { return a.length; }
    /*@ pure @*/ static boolean h(int[] a, int x) {
        %s
    }
}
"""


@pytest.mark.parametrize(("body", "message"), [
    ("counter = counter + 1; return true;", "assigns field counter"),
    ("counter++; return true;", "assigns field counter"),
    ("Solution.counter += 2; return true;", "assigns Solution.counter"),
    ("memo[x % 10] = x; return true;", "an element of memo"),
    ("a[0] = x; return true;", "an element of a"),
    ("int[] t = memo; t[0] = 1; return true;", "an element of t"),
    ("for (int[] r : new int[][] {memo}) { r[0] = 1; } return true;", "an element of r"),
    ("return new Object() { int n; }.hashCode() > 0;", "anonymous class"),
    ("record R(int v) { } return true;", "record R"),
    ("enum E { A } return true;", "enum E"),
    ("return solve(a) > 0;", "A non-pure method is being called where it is not permitted: "
                             "Solution.solve"),
    ("java.util.Arrays.sort(a); return true;", "Arrays.sort modifies a"),
    ("return System.getProperties().put(\"k\", \"v\") == null;", "calls put on an object"),
    ("{ int counter = 0; } counter = 5; return true;", "assigns field counter"),
    ("{ int[] memo = new int[1]; } memo[0] = 5; return true;", "an element of memo"),
    ("boolean b = 0 > counter; counter = 1; return b;", "assigns field counter"),
    ("java.util.Set<Integer> s = java.util.Set.of(); "
     "java.util.function.Function<Integer, Boolean> f = s::add; return f.apply(x);",
     "refers to s::add"),
    ("java.util.function.IntUnaryOperator f = Solution::solve2; return true;",
     "A non-pure method is being called where it is not permitted: Solution.solve2"),
    ("Arrays.sort(a); return true;", "Arrays.sort modifies a"),
    ("java.util.List<int[]> l = java.util.List.of(memo); return l.add(memo);", "calls add on l"),
    ("java.util.List<int[]> l = new java.util.ArrayList<>(); l.add(memo); "
     "return l.get(0).clone() != null && l.get(0).equals(memo) && "
     "java.util.List.of(memo).set(0, memo) != null;", "calls set on an object"),
])
def test_impure_helpers_are_invalid_with_their_line(body: str, message: str | None) -> None:
    src = read_source(CLS % body, "S.java")
    cls = src.classes[0]
    if message is None:  # a qualified name we cannot classify: a gap, not a rejection
        assert check_purity(src, cls, "S.java")
        return
    with pytest.raises(SpecInvalid) as e:
        check_purity(src, cls, "S.java")
    assert message in e.value.message and e.value.line == 7 and e.value.file == "S.java"


@pytest.mark.parametrize("body", [
    "System.setProperty(\"k\", \"v\"); return true;",
    "return Thread.currentThread().getId() % 2 == 0;",
    "return java.util.logging.Logger.getLogger(\"x\" + x).getName() != null;",
    "return System.nanoTime() % 2 == 0;",
    "return new java.util.Random().nextBoolean();",
    "return Integer.toString(x).intern() == Integer.toString(x);",
    "return a.hashCode() % 2 == 0;",
    "int[][] g = {memo}; g[0][0] = x; return true;",
    "int[][] g = new int[2][]; g[0] = memo; g[0][0] = x; return true;",
    "return String.format(\"%s\", a).length() > 5;",
    "try { return Solution.class.getDeclaredField(\"counter\") != null; } "
    "catch (Exception e) { return false; }",
])
def test_calls_the_engines_cannot_vouch_for_are_a_gap(body: str) -> None:
    """Not OpenJML's rule as we can apply it (we do not have the JDK's specs), so not invalid:
    every case of such a spec is unknown."""
    src = read_source(CLS % body, "S.java")
    gap = check_purity(src, src.classes[0], "S.java")
    assert gap and gap.startswith("pure method h")


@pytest.mark.parametrize("body", [
    "int s = 0; for (int i = 0; i < a.length; i++) { s += a[i]; } return s > x;",
    "int[] c = a.clone(); java.util.Arrays.sort(c); return c.length == x;",
    "int[] c = java.util.Arrays.copyOf(a, a.length); c[0]++; return c[0] > x;",
    "int[] box = {0}; java.util.function.IntUnaryOperator f = v -> box[0] += v; "
    "return f.applyAsInt(x) == x;",
    "return Math.abs(x) == Math.max(x, -x) && String.valueOf(x).length() > 0;",
    "java.util.Map<Integer, Integer> m = new java.util.HashMap<>(); m.put(x, 1); "
    "return m.containsKey(x);",
    "return Solution.counter == 0 && memo.length == 10;",
    "int[][] g = new int[3][3]; g[1][2] = x; return g[1][2] == x;",
    "java.util.List<Integer> l = new java.util.ArrayList<>(); "
    "java.util.function.Function<Integer, Boolean> f = l::add; return f.apply(x);",
    "String s = String.valueOf(x); return new StringBuilder(s).reverse().toString().equals(s);",
    "StringBuilder sb = new StringBuilder(); sb.append(x).append(' ').reverse(); "
    "return sb.toString().length() > 0;",
    # JDK exceptions' constructors are pure in OpenJML's specs: throwing one is fine
    "if (x < 0) throw new IllegalArgumentException(\"negative: \" + x); return x > 0;",
])
def test_honest_helpers_pass(body: str) -> None:
    src = read_source(CLS % body, "S.java")
    assert check_purity(src, src.classes[0], "S.java") is None


def test_static_initializer_cannot_be_added() -> None:
    text = spec("seen(x, \\result)", "        return true;\n").replace(
        "\n    /*@ pure @*/", "\n    static { System.setProperty(\"k\", \"v\"); }\n    /*@ pure @*/")
    with pytest.raises(SpecInvalid, match="code altered"):
        load(load_task(ABS), text, "init.java")


def test_model_method_bodies_follow_the_same_rules() -> None:
    text = ("public class Solution {\n"
            "    //@ public model static pure boolean m(int[] q) { q[0] = 1; return true; }\n"
            "    //@ ensures \\result >= 0;\n" + BODY + "}\n")
    with pytest.raises(SpecInvalid) as e:
        load(load_task(ABS), text, "model.java")
    assert "pure method m: assigns an element of q" in e.value.message and e.value.line == 2
