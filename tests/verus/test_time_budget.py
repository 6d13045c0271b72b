"""Verus specs that never finish stop costing time: after three case
timeouts in a row on one predicate, interp and exec_spec give that predicate up."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from adequacy.extensions.backend import Limits
from adequacy.model.task import Task
from adequacy.model.verdicts import Truth
from adequacy.scoring.runner import score_spec
from adequacy.taskdirs.load import load_task
from adequacy_verus.exec_spec import engine as exec_engine
from adequacy_verus.skeleton import skeleton_for

TOML = """id = "succ"
language = "verus"
title = "successor"

[signature.input]
x = "i64"

[signature.output]
result = "i64"
"""

# Unbounded recursion: rustc turns the tail call into a loop (exec_spec times out); interp
# stops at its recursion depth limit. Verus would fail to prove the decreases measure (the
# front end does not prove measures), but an engine must not pay for it on every case.
LOOP = "spec fn down(n: i64) -> bool\n    decreases n\n{\n    down(n)\n}\n\n"


def make_task(tmp_path: Path, n: int = 60) -> Task:
    d = tmp_path / "succ"
    (d / "tests").mkdir(parents=True)
    (d / "task.toml").write_text(TOML)
    (d / "skeleton.rs").write_text("placeholder")
    pre = [{"id": f"c{i}", "input": {"x": i}} for i in range(n)]
    post = [{"id": f"c{i}", "input": {"x": i}, "output": {"result": i + 1}} for i in range(n)]
    (d / "tests" / "pre_complete.jsonl").write_text("".join(json.dumps(r) + "\n" for r in pre))
    (d / "tests" / "post_complete.jsonl").write_text("".join(json.dumps(r) + "\n" for r in post))
    (d / "skeleton.rs").write_text(skeleton_for(load_task(d)))
    return load_task(d)


def looping_post(task: Task) -> str:
    text = task.skeleton.replace("/// Which outputs are correct", LOOP + "/// Which outputs are "
                                 "correct")
    return text.replace("spec fn post_spec(input: Input, output: Output) -> bool {\n    true\n}",
                        "spec fn post_spec(input: Input, output: Output) -> bool {\n"
                        "    down(input.x)\n}")


@pytest.mark.slow
def test_interp_gives_up_a_predicate_that_keeps_running_out(tmp_path: Path) -> None:
    task = make_task(tmp_path)
    rep = score_spec(task, looping_post(task), "spec.rs", engines=["interp"])
    post = [v for v in rep.verdicts if v.bucket.predicate == "post"]
    assert all(v.value is Truth.true for v in rep.verdicts if v.bucket.predicate == "pre")
    assert all("recursion depth limit" in v.reason for v in post[:3])
    assert all(v.value is Truth.unknown and "3 cases in a row" in v.reason for v in post[3:])


def test_interp_honours_the_spec_budget(tmp_path: Path) -> None:
    task = make_task(tmp_path)
    spec = task.skeleton.replace(
        "spec fn pre_spec(input: Input) -> bool {\n    true\n}",
        "spec fn pre_spec(input: Input) -> bool {\n"
        "    forall|i: int, j: int| 0 <= i < 2000 && 0 <= j < 2000 ==> i + j >= 0\n}")
    t0 = time.monotonic()
    rep = score_spec(task, spec, "spec.rs", engines=["interp"],
                     limits=Limits(spec_seconds=1.0, timeout_streak=0, steps=10**9))
    assert time.monotonic() - t0 < 10
    pre = [v for v in rep.verdicts if v.bucket.predicate == "pre"]
    assert any("spec time limit (1s) reached" in v.reason for v in pre)


@pytest.mark.slow
@pytest.mark.requires("exec_spec")
def test_exec_spec_gives_up_a_looping_predicate(tmp_path: Path) -> None:
    task = make_task(tmp_path)
    spec = looping_post(task)
    exec_engine.build(spec, task, None, Limits())  # compile outside the timed part
    t0 = time.monotonic()
    vs = exec_engine.check(spec, task, task.all_cases(), Limits(case_seconds=2))
    took = time.monotonic() - t0
    post = [v for v in vs if v.bucket.predicate == "post"]
    assert all(v.value is Truth.true for v in vs if v.bucket.predicate == "pre")
    assert [v.reason for v in post[:3]] == ["timeout after 2s"] * 3
    assert all(v.value is Truth.unknown and "3 cases in a row" in v.reason for v in post[3:])
    assert took < 20, f"took {took:.0f}s (without the rule: 60 x 2 s)"
