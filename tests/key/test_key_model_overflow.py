"""An open semantic question found by attacking the model-method rewrites: what a model
method's body computes when its int arithmetic overflows.

rac compiles model method bodies as Java code (wrapping int arithmetic): ``y * 2 / 2`` at
``y = Integer.MAX_VALUE`` is ``-2 / 2 = -1``. KeY reads the body as specification text with
mathematical integers: ``MAX_VALUE``. So on abs_value's case x = -2147483647, result =
2147483647 (hand-worked: |x| = 2147483647, the gold spec accepts it), the added clause
``m(\\result) == \\result`` is false for rac and true for KeY: the engines disagree, so one
decided wrongly. Which reading JML (OpenJML) gives a model method body is not settled here;
the case should be unknown for both engines (the two readings differ exactly when the body
overflows). Strict xfail: it turns red the day the engines stop disagreeing."""

from __future__ import annotations

from pathlib import Path

import pytest
from key_support import EXAMPLES, cross_check, problem

from adequacy.backend import Limits
from adequacy.tasks import load_task
from adequacy.verdicts import Bucket

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


@pytest.mark.xfail(strict=True, reason="open: rac (Java wrap) and KeY (mathematical integers) "
                   "read an overflowing model method body differently; neither says unknown")
def test_an_overflowing_model_body_is_not_decided_two_ways(tmp_path: Path) -> None:
    task = load_task(EXAMPLES / "abs_value")
    case = next(c for c in task.cases[Bucket.post_complete] if c.id == "min-plus-one")
    task = task.model_copy(update={"cases": {Bucket.post_complete: [case]}})
    spec = tmp_path / "model.java"
    spec.write_text(SPEC)
    rep = cross_check(task, spec, Limits(case_seconds=30, spec_seconds=300))
    assert not problem(rep), problem(rep)
    assert rep.disagreements == [], rep.disagreements
