"""``adequacy explore`` and ``adequacy diff`` on a bundled Verus task, with the interp engine.

binary_search_first (examples/verus): ``arr`` sorted non-decreasingly, ``result`` the first
index of ``target``. Hand-worked counterexamples and their minimal forms:

- flawed_post_too_weak accepts any occurrence. A wrong output it accepts needs ``target`` at
  two indices ``i < k`` and output ``Some(k)``; the smallest is ``arr = [0, 0]``,
  ``target = 0``, ``Some(1)`` (two elements, every number 0, the smallest ``k``).
- flawed_pre_too_weak accepts every input. An invalid input needs two elements out of order;
  the smallest have two elements and numbers of total magnitude 1 (``[1, 0]`` or ``[0, -1]``)
  and ``target = 0``.
- flawed_post_too_strong rejects ``None`` always: it fails the right output ``None`` of any
  input without ``target``, the smallest ``arr = []``.
"""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from adequacy.cli import app
from adequacy.examples import bundled_folder
from adequacy.taskdirs.load import load_task

TASK = bundled_folder("verus") / "binary_search_first"
SPECS = TASK / "specs"
runner = CliRunner()


def _explore(*args: str) -> tuple[int, dict]:
    r = runner.invoke(app, ["explore", *args, "--json", "--engine", "interp"])
    return r.exit_code, json.loads(r.stdout) if r.stdout.strip().startswith("{") else {}


def test_weak_post_gives_its_minimal_wrong_output() -> None:
    code, rep = _explore(str(TASK), str(SPECS / "flawed_post_too_weak.rs"), "--budget", "6")
    assert code == 1
    sound = [d for d in rep["disagreements"] if d["predicate"] == "post" and not d["right"]]
    assert sound, rep
    d = sound[0]
    assert (d["input"], d["output"]) == ({"arr": [0, 0], "target": 0}, {"result": {"some": 1}})
    assert d["left"] is True and "reference" in d["right_reason"]


def test_weak_pre_gives_a_minimal_invalid_input_with_the_validators_word() -> None:
    code, rep = _explore(str(TASK), str(SPECS / "flawed_pre_too_weak.rs"), "--budget", "6")
    assert code == 1
    pre = [d for d in rep["disagreements"] if d["predicate"] == "pre"]
    assert len(pre) == 1
    d = pre[0]
    arr = d["input"]["arr"]
    assert len(arr) == 2 and arr[0] > arr[1] and abs(arr[0]) + abs(arr[1]) == 1
    assert d["input"]["target"] == 0
    assert (d["left"], d["right"]) == (True, False)
    assert d["right_reason"] == "validator rejects"


def test_gold_oracle_finds_the_same_and_gold_itself_finds_nothing_within_budget() -> None:
    code, rep = _explore(str(TASK), str(SPECS / "flawed_post_too_strong.rs"), "--oracle",
                         "gold", "--budget", "4")
    assert code == 1
    d = next(d for d in rep["disagreements"] if d["predicate"] == "post")
    assert d["input"]["arr"] == [] and d["output"] == {"result": None}
    assert (d["left"], d["right"]) == (False, True)
    start = time.monotonic()
    r = runner.invoke(app, ["explore", str(TASK), str(SPECS / "gold.rs"), "--budget", "2",
                            "--engine", "interp"])
    took = time.monotonic() - start
    assert r.exit_code == 0, r.stdout
    assert "This is not equivalence" in r.stdout
    assert took < 2 + 3  # the budget holds (one batch may overrun it a little)


@pytest.mark.slow
def test_add_appends_explored_cases_that_the_gold_spec_passes(tmp_path: Path) -> None:
    from adequacy.scoring.runner import score_spec
    task = tmp_path / "t"
    shutil.copytree(TASK, task)
    before = len(load_task(task).all_cases())
    r = runner.invoke(app, ["explore", str(task), str(SPECS / "flawed_post_too_weak.rs"),
                            "--budget", "5", "--add", "--seed", "3", "--engine", "interp"])
    assert r.exit_code == 1, r.stdout
    t = load_task(task)
    new = [c for c in t.all_cases() if c.origin == "explored"]
    assert new and len(t.all_cases()) == before + len(new)
    assert all(c.id.startswith("x3-") and not c.visible for c in new)
    gold = score_spec(t, (SPECS / "gold.rs").read_text(), engines=["interp"], cases=new)
    assert all(v.passed for v in gold.verdicts), gold.verdicts
    weak = score_spec(t, (SPECS / "flawed_post_too_weak.rs").read_text(), engines=["interp"],
                      cases=new)
    assert not any(v.passed for v in weak.verdicts)
    # a second run searches beyond what are now cases of the task: what it adds is new
    r2 = runner.invoke(app, ["explore", str(task), str(SPECS / "flawed_post_too_weak.rs"),
                             "--budget", "5", "--add", "--seed", "3", "--engine", "interp"])
    assert r2.exit_code == 1
    again = [c for c in load_task(task).all_cases() if c.origin == "explored"]
    assert len(again) == len(new) + 1
    keys = {(c.bucket, json.dumps(c.input), json.dumps(c.output)) for c in again}
    assert len(keys) == len(again)


def test_diff_names_where_two_specs_disagree_and_is_honest_when_they_do_not() -> None:
    r = runner.invoke(app, ["diff", str(TASK), str(SPECS / "gold.rs"),
                            str(SPECS / "flawed_pre_too_strong.rs"), "--budget", "4", "--json",
                            "--engine", "interp"])
    assert r.exit_code == 1
    rep = json.loads(r.stdout)
    kinds = {(d["predicate"], d["left"], d["right"]) for d in rep["disagreements"]}
    assert ("pre", True, False) in kinds  # gold accepts a valid input the strong pre rejects
    r = runner.invoke(app, ["diff", str(TASK), str(SPECS / "gold.rs"), str(SPECS / "gold.rs"),
                            "--budget", "2", "--engine", "interp"])
    assert r.exit_code == 0
    assert "no disagreement found in" in r.stdout and "not equivalence" in r.stdout


def test_bad_input_is_one_line_with_the_right_exit_code(tmp_path: Path) -> None:
    bad = tmp_path / "bad.rs"
    bad.write_text((SPECS / "gold.rs").read_text().replace("spec fn post_spec", "spec fn ("))
    r = runner.invoke(app, ["explore", str(TASK), str(bad), "--budget", "1"])
    assert r.exit_code == 3 and "bad.rs" in r.stderr and "Traceback" not in r.stderr
    r = runner.invoke(app, ["explore", str(TASK), str(SPECS / "gold.rs"), "--oracle",
                            str(bad), "--budget", "1"])
    assert r.exit_code == 2 and "oracle spec is invalid" in r.stderr
    r = runner.invoke(app, ["explore", str(tmp_path / "nope"), str(SPECS / "gold.rs")])
    assert r.exit_code == 2 and "Traceback" not in r.stderr
    r = runner.invoke(app, ["explore", str(TASK), str(SPECS / "gold.rs"), "--oracle", "gold"])
    assert r.exit_code == 2 and "gold spec itself" in r.stderr
    r = runner.invoke(app, ["explore", str(TASK), str(SPECS / "gold.rs"), "--budget", "-1"])
    assert r.exit_code == 2


def test_a_spec_too_slow_to_decide_is_undecided_never_a_counterexample(tmp_path: Path) -> None:
    # gold's precondition and a conjunct over four billion values that no step budget
    # finishes: every sorted input is unknown (an unsorted one is false at the first conjunct,
    # which is right); unknown is never a disagreement, and the budget holds
    gold = (SPECS / "gold.rs").read_text()
    old = ("    forall|i: usize| 1 <= i < input.arr.len() ==> input.arr[(i - 1) as int] <= "
           "input.arr[i as int]")
    assert old in gold
    slow = tmp_path / "slow.rs"
    slow.write_text(gold.replace(old, f"    ({old.strip()})\n    && (forall|k: u64| 0 <= k < "
                                      "4000000000u64 ==> k != 4000000001u64)"))
    start = time.monotonic()
    code, rep = _explore(str(TASK), str(slow), "--budget", "3")
    assert time.monotonic() - start < 3 + 3
    assert code == 0 and rep["disagreements"] == []
    assert rep["undecided"] > 0
