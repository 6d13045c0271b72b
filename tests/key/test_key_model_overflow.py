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

from adequacy.extensions.backend import Limits, engine_named
from adequacy.model.verdicts import Bucket, Truth
from adequacy.taskdirs.load import load_task
from adequacy_openjml.plugin import OpenJmlBackend

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


def test_key_defines_a_model_body_only_where_java_arithmetic_agrees(tmp_path: Path) -> None:
    """Truths by hand, for ``m(y) = y * 2 / 2`` under ``ensures m(\\result) == \\result``:
    - x = -5, result 5: 5 * 2 = 10 and 10 / 2 = 5 stay in int, so m(5) == 5: true;
    - x = -5, result 7 (a mutant): m(7) = 7 and the other clauses fail (7 != -5, 7 != 5):
      false, whatever m reads;
    - x = -2147483647, result 2147483647: 2147483647 * 2 leaves int, so the body has no
      value JML agrees on (spec math: 2147483647; code math: an overflow error): KeY must
      not decide it (before this change KeY answered true with mathematical integers).
    """
    task = load_task(EXAMPLES / "abs_value")
    post_c = [c for c in task.cases[Bucket.post_complete] if c.id in ("neg", "min-plus-one")]
    post_s = [c for c in task.cases[Bucket.post_sound] if c.id == "m-int.plus_two-af9f7902"]
    task = task.model_copy(update={"cases": {Bucket.post_complete: post_c,
                                             Bucket.post_sound: post_s}})
    spec = tmp_path / "model.java"
    spec.write_text(SPEC)
    b = OpenJmlBackend()
    got = engine_named(b, "key").check(b.load_spec(task, SPEC, str(spec)), task,
                                       task.all_cases(), Limits(case_seconds=30,
                                                                spec_seconds=300))
    by_id = {(v.bucket, v.case_id): v for v in got}
    assert by_id[(Bucket.post_complete, "neg")].value is Truth.true, got
    assert by_id[(Bucket.post_sound, "m-int.plus_two-af9f7902")].value is Truth.false, got
    assert by_id[(Bucket.post_complete, "min-plus-one")].value is Truth.unknown, got
