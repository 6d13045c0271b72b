"""What a model method's body computes when its int arithmetic overflows, found by attacking
the model-method rewrites (2026-12-05).

rac compiled model bodies as Java code (wrapping): ``y * 2 / 2`` at ``y = Integer.MAX_VALUE``
was ``-2 / 2 = -1``. KeY reads the body as specification with mathematical integers:
``MAX_VALUE``. So on abs_value's case x = -2147483647, result = 2147483647 (hand-worked:
|x| = 2147483647, the gold spec accepts it), ``m(\\result) == \\result`` was false for rac and
true for KeY. JML reads a model body with mathematical integers (spec math) or safe math
(code math, where an overflow is an error); wrapping is neither, so rac now compiles the body
with exact arithmetic (``engines/rac/model_math.py``) and says unknown there, which is
OpenJML's reading (it translates model bodies in the code mode, safe math by default). KeY's
answer is the bigint reading: still open (docs/key.md)."""

from __future__ import annotations

from pathlib import Path

import pytest
from key_support import EXAMPLES, cross_check, problem

from adequacy.backend import Limits, engine_named
from adequacy.backends.openjml.plugin import OpenJmlBackend
from adequacy.tasks import load_task
from adequacy.verdicts import Bucket, Truth

pytestmark = [pytest.mark.slow, pytest.mark.requires("key")]

SPEC = """public class Solution {

    /*@ public model function static int m(int y) {
      @   return y * 2 / 2;
      @ } @*/

    //@ requires x > Integer.MIN_VALUE;
    //@ ensures \\result >= 0;
    //@ ensures \\result == x || \\result == -x;
    //@ ensures m(\\result) == \\result;
    public static int solve(int x) {
        if (x < 0)
            return -x;
        return x;
    }
}
"""


def test_an_overflowing_model_body_is_not_decided_two_ways(tmp_path: Path) -> None:
    task = load_task(EXAMPLES / "abs_value")
    case = next(c for c in task.cases[Bucket.post_complete] if c.id == "min-plus-one")
    task = task.model_copy(update={"cases": {Bucket.post_complete: [case]}})
    spec = tmp_path / "model.java"
    spec.write_text(SPEC)
    rep = cross_check(task, spec, Limits(case_seconds=30, spec_seconds=300))
    assert not problem(rep), problem(rep)
    assert rep.disagreements == [], rep.disagreements
    b = OpenJmlBackend()
    rac = engine_named(b, "rac").check(b.load_spec(task, SPEC, str(spec)), task,
                                       task.all_cases(), Limits(case_seconds=30))
    assert rac and all(v.value is Truth.unknown and "overflow" in v.reason for v in rac), rac
