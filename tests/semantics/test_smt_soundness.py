"""A helper that does not terminate never makes the solver decide or prove anything.

Handed to Z3 as a recursive definition, `f(x) = f(x) + 1` is a contradiction, and from it the
solver proves every formula: each case would be decided (both ways), every pair of specs
"equivalent". The encoders unfold recursion to a depth and leave the rest uninterpreted, so
every answer that rests on such a helper must be unknown. The truths here hold whatever
`f` is: nothing about a non-terminating `f` is true or false, so no verdict on it may be
decided and no equivalence proved; a terminating recursive helper, by contrast, is exact
where the unfolding reaches (cases decided, an equivalence proved within the bound).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from adequacy.examples import bundled_folder
from adequacy.extensions.backend import Limits
from adequacy.extensions.registry import registry
from adequacy.model.task import Case
from adequacy.model.verdicts import Bucket, Truth
from adequacy.search.symbolic import equivalence
from adequacy.taskdirs.load import load_task

pytest.importorskip("z3")
pytestmark = pytest.mark.slow  # the solver runs in a child process


def _verus(helper: str, pre: str) -> str:
    return f"""use vstd::prelude::*;
verus! {{
pub struct Input {{ pub a: int, pub b: int, }}
pub struct Output {{ pub result: int, }}
{helper}
spec fn pre_spec(input: Input) -> bool {{ {pre} }}
spec fn post_spec(input: Input, output: Output) -> bool {{ true }}
}}
"""


LOOP = "spec fn f(x: int) -> int decreases x { f(x) + 1 }"
LOOP2 = ("spec fn g(x: int) -> int decreases x { h(x) }\n"
         "spec fn h(x: int) -> int decreases x { g(x) - 1 }")
SUM = ("spec fn sum_to(n: int) -> int decreases n "
       "{ if n <= 0 { 0 } else { n + sum_to(n - 1) } }")


def _smt(task_dir: Path, text: str, inputs: list[dict]) -> list[Truth]:
    t = load_task(task_dir)
    b = registry().backend_for(t.language)
    spec = b.load_spec(t, text, "probe")
    eng = next(e for e in b.engines() if e.name == "smt")
    cases = [Case(id=f"p{i}", bucket=Bucket.pre_complete, input=inp)
             for i, inp in enumerate(inputs)]
    return [v.value for v in eng.check(spec, t, cases, Limits(case_seconds=10))]


@pytest.fixture
def verus_task(tmp_path: Path) -> Path:
    task = tmp_path / "t"
    shutil.copytree(bundled_folder("verus") / "euclid_mod", task)
    return task


@pytest.mark.parametrize("pre", ["f(input.a) == 0", "f(input.a) != 0", "f(input.a) == f(input.a) + 1",
                                 "f(0) > 5", "g(input.a) == input.a"])
def test_verus_non_terminating_helper_decides_no_case(verus_task: Path, pre: str) -> None:
    text = _verus(LOOP + "\n" + LOOP2, pre)
    got = _smt(verus_task, text, [{"a": 0, "b": 1}, {"a": 3, "b": 1}])
    assert got == [Truth.unknown, Truth.unknown]


def test_verus_non_terminating_helper_proves_no_equivalence(verus_task: Path) -> None:
    t = load_task(verus_task)
    a = _verus(LOOP, "f(input.a) == 0")
    b = _verus(LOOP, "f(input.a) == 1")
    rep = equivalence(t, a, b, budget=30)
    assert rep.verdict() in ("unknown",)
    assert not any(r.answer.status == "none" and r.predicate == "pre" for r in rep.results)
    assert not rep.counterexamples  # the concrete engines cannot evaluate f either


def test_verus_terminating_recursion_is_exact_where_unfolded(verus_task: Path) -> None:
    text = _verus(SUM, "sum_to(input.a) == 10")
    assert _smt(verus_task, text, [{"a": 4, "b": 1}, {"a": 3, "b": 1}]) == [
        Truth.true, Truth.false]
    # a case's values are literals: the recursion stops at its base case, deep or not, up to
    # the engine's unfolding depth (CASE_UNFOLD, 64); beyond it the answer rests on the
    # remainder: unknown, never a guess
    assert _smt(verus_task, text, [{"a": 40, "b": 1}]) == [Truth.false]
    assert _smt(verus_task, text, [{"a": 100, "b": 1}]) == [Truth.unknown]


def test_verus_same_helper_both_sides_is_equivalent(verus_task: Path) -> None:
    t = load_task(verus_task)
    a = _verus(SUM, "sum_to(input.a) >= 0 && input.b > 0")
    b = _verus(SUM, "input.b > 0 && !(sum_to(input.a) < 0)")
    rep = equivalence(t, a, b, budget=30)
    proof = rep.proved("pre")
    assert proof is not None and proof.scope == "all"


def _jml(helpers: str, requires: str) -> str:
    return f"""public class Solution {{
    {helpers}
    //@ requires {requires};
    public static int solve(int x) {{
        if (x < 0)
            return -x;
        return x;
    }}
}}
"""


JLOOP = "public static /*@ pure @*/ int f(int x) { return f(x) + 1; }"
JFACT = ("public static /*@ pure @*/ int fact(int n) "
         "{ return n <= 1 ? 1 : n * fact(n - 1); }")


@pytest.fixture
def jml_task(tmp_path: Path) -> Path:
    task = tmp_path / "t"
    shutil.copytree(bundled_folder("jml") / "abs_value", task)
    return task


@pytest.mark.parametrize("req", ["f(x) == 0", "f(x) != 0", "f(x) == f(x) + 1"])
def test_jml_non_terminating_helper_decides_no_case(jml_task: Path, req: str) -> None:
    got = _smt(jml_task, _jml(JLOOP, req), [{"x": 0}, {"x": 5}])
    assert got == [Truth.unknown, Truth.unknown]


def test_jml_non_terminating_helper_proves_no_equivalence(jml_task: Path) -> None:
    t = load_task(jml_task)
    rep = equivalence(t, _jml(JLOOP, "f(x) == 0"), _jml(JLOOP, "f(x) == 1"), budget=40)
    assert rep.verdict() == "unknown"
    assert not any(r.answer.status == "none" and r.predicate == "pre" for r in rep.results)


def test_jml_terminating_recursive_helper(jml_task: Path) -> None:
    # Java's int arithmetic in the helper: 5! = 120
    got = _smt(jml_task, _jml(JFACT, "fact(x) == 120"), [{"x": 5}, {"x": 4}])
    assert got == [Truth.true, Truth.false]
