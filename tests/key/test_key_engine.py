"""The key engine on real KeY: verdicts against hand-worked truths, agreement with rac on the
bundled tasks, and ``adequacy verify``. Slow (a JVM and KeY), so stubs are batched per spec."""

from __future__ import annotations

from pathlib import Path

import pytest
from key_support import (
    EXAMPLES,
    bundled,
    cross_check,
    decided,
    problem,
    with_spec,
    write_task,
)
from typer.testing import CliRunner

from adequacy.cli import app
from adequacy.extensions.backend import Limits, engine_named
from adequacy.model.task import Task
from adequacy.model.verdicts import Truth
from adequacy.scoring.verification import verify_with_metrics
from adequacy.taskdirs.load import load_task
from adequacy_openjml.plugin import OpenJmlBackend

pytestmark = [pytest.mark.slow, pytest.mark.requires("key")]

ADD = """public class Solution {
    public static int solve(int x, int y) {
        return x + y;
    }
}
"""

# Worked out by hand. Spec: requires x >= 0; ensures \result == x + y (bigint spec math).
ADD_CASES = {
    "pre_complete": [{"id": "pos", "input": {"x": 5, "y": 1}}],
    "pre_sound": [{"id": "neg", "input": {"x": -1, "y": 0}}],
    "post_complete": [{"id": "small", "input": {"x": 1, "y": 2}, "output": {"result": 3}}],
    "post_sound": [
        # Java's x + y wraps to MIN_VALUE; in JML's mathematical arithmetic 2^31 != -2^31
        {"id": "wrapped", "input": {"x": 2147483647, "y": 1},
         "output": {"result": -2147483648}},
        {"id": "off", "input": {"x": 1, "y": 2}, "output": {"result": 4}},
        # outside the precondition: vacuously accepted (docs/jml.md semantics)
        {"id": "outside", "input": {"x": -1, "y": 2}, "output": {"result": 7}},
    ],
}
ADD_TRUTH = {("pre_complete", "pos"): "true", ("pre_sound", "neg"): "false",
             ("post_complete", "small"): "true", ("post_sound", "wrapped"): "false",
             ("post_sound", "off"): "false", ("post_sound", "outside"): "true"}


@pytest.fixture(scope="module")
def add_task(tmp_path_factory: pytest.TempPathFactory) -> Task:
    return load_task(write_task(tmp_path_factory.mktemp("k") / "add", ADD,
                                {"x": "i32", "y": "i32"}, cases=ADD_CASES))


def test_hand_truths_and_mathematical_spec_arithmetic(add_task: Task) -> None:
    text = with_spec(ADD, "    //@ requires x >= 0;\n    //@ ensures \\result == x + y;")
    cases = add_task.all_cases()
    limits = Limits(case_seconds=20)
    b = OpenJmlBackend()
    spec = b.load_spec(add_task, text, "S.java")
    got = engine_named(b, "key").check(spec, add_task, cases, limits)
    assert {(v.bucket.value, v.case_id): v.value.value for v in got} == ADD_TRUTH, \
        [v.reason for v in got]
    rac = engine_named(b, "rac").check(spec, add_task, cases, limits)
    assert [v.value for v in rac] == [v.value for v in got]


def test_both_directions_find_no_inconsistency(add_task: Task) -> None:
    text = with_spec(ADD, "    //@ ensures \\result == x + y;")
    from adequacy_openjml.engines.key import engine
    got = engine.check(OpenJmlBackend().load_spec(add_task, text, "S.java").data, add_task,
                       add_task.all_cases(), Limits(case_seconds=20), both_directions=True)
    by = {(v.bucket.value, v.case_id): v.value for v in got}
    assert by[("post_sound", "wrapped")] is Truth.false
    assert by[("post_sound", "outside")] is Truth.false  # no requires now: 1 != 7
    assert by[("pre_sound", "neg")] is Truth.true  # precondition true everywhere


STRING_HEAVY = {"swap_case"}


def _small(task: Task, per_bucket: int = 3) -> Task:
    """The task with its first few cases per bucket: KeY costs about a second per stub."""
    return task.model_copy(update={"cases": {b: cs[:per_bucket] for b, cs in task.cases.items()}})


@pytest.mark.parametrize(("task_dir", "spec"),
                         [(t.root.name, s.name) for t, s in bundled(EXAMPLES)],
                         ids=lambda x: str(x))
def test_bundled_specs_agree_with_rac(task_dir: str, spec: str) -> None:
    # swap_case's String stubs cost 1-4 s per proof: one (short) case per bucket there
    task = _small(load_task(EXAMPLES / task_dir), 1 if task_dir in STRING_HEAVY else 2)
    rep = cross_check(task, EXAMPLES / task_dir / "specs" / spec,
                      Limits(case_seconds=20, spec_seconds=300))
    assert not problem(rep), problem(rep)
    assert rep.disagreements == [], rep.disagreements
    key_reasons = [v.reason for v in rep.verdicts]
    if task_dir in STRING_HEAVY:
        # the String stubs are still cross-checked: KeY decides at least the two pre stubs
        # (observed 3-4 earlier; 2 on 2026-12-01 on a loaded machine for gold, where the
        # post_complete phi proof did not close within 60 s: see the fidjml report)
        assert decided(rep, "key") >= 2, key_reasons
    if spec == "gold.java" and task_dir not in ("is_prime", "swap_case"):
        # gold specs without quantifier witnesses or String reasoning are fully decided
        assert decided(rep, "key") == len(rep.verdicts), key_reasons


LOOP = """public class Solution {
    public static int solve(int n) {
        int i = 0;
        while (i < n) {
            i++;
        }
        return i;
    }
}
"""
LOOP_SPEC = """public class Solution {
    //@ requires 0 <= n;
    //@ ensures \\result == n;
    public static int solve(int n) {
        int i = 0;
        //@ loop_invariant 0 <= i && i <= n;
        //@ decreases n - i;
        while (i < n) {
            i++;
        }
        return i;
    }
}
"""


def test_verify_needs_and_uses_loop_invariants(tmp_path: Path) -> None:
    task = load_task(write_task(tmp_path / "loop", LOOP, {"n": "i32"}))
    rep = verify_with_metrics(task, LOOP_SPEC, "S.java", Limits(spec_seconds=60))
    assert rep.verification.result == "verified", rep.verification.summary
    no_inv = "\n".join(x for x in LOOP_SPEC.splitlines() if "loop_invariant" not in x
                       and "decreases" not in x)
    rep = verify_with_metrics(task, no_inv, "S.java", Limits(spec_seconds=60))
    assert rep.verification.result == "not verified"
    assert "loop" in rep.verification.summary


# Worked out by reading the gold specs: abs_value has no loop and a correct contract; every
# other bundled gold spec has no loop_invariant for its method's loop, so KeY stops there.
GOLD_VERIFY = {"abs_value": "verified", "array_max": "not verified",
               "array_sum": "not verified", "is_prime": "not verified",
               "linear_search": "not verified", "reverse_in_place": "not verified",
               "swap_case": "not verified"}


def test_cli_verify_reports_each_bundled_gold_spec() -> None:
    runner = CliRunner()
    import json
    for name, expected in GOLD_VERIFY.items():
        r = runner.invoke(app, ["verify", str(EXAMPLES / name),
                                str(EXAMPLES / name / "specs" / "gold.java"), "--engine",
                                "key", "--json"])
        data = json.loads(r.output)
        assert data["verification"]["result"] == expected, (name, data["verification"])
        assert r.exit_code == (0 if expected == "verified" else 1)
        # next to the four adequacy metrics (gold specs score 1.0 under rac)
        assert set(data["metrics"]) >= {"post_corr", "post_comp", "pre_corr", "pre_comp"}
        assert all(v == 1.0 for v in data["metrics"].values() if v is not None)
