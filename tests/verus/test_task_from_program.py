"""``adequacy task from``: a Verus program's function becomes a task whose signature, contract
(``specs/original.rs``) and cases follow from the program, written by hand below for a small
program of our own (tests/fixtures/programs/count_below.rs)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from adequacy.errors import TaskError
from adequacy.scoring.options import ScoreOptions
from adequacy.scoring.runner import score_spec
from adequacy.taskdirs.load import load_task
from adequacy_verus.task_from import convert

REPO = Path(__file__).resolve().parents[2]
PROGRAM = REPO / "tests" / "fixtures" / "programs" / "count_below.rs"


def _rows(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text().splitlines() if x.strip()]


def test_signature_contract_and_cases_follow_from_the_program(tmp_path: Path) -> None:
    dest = tmp_path / "t"
    done = convert(PROGRAM, "count_below", dest)
    task = load_task(dest)
    assert task.id == "count_below_count_below"
    assert {p.name: str(p.type) for p in task.inputs} == {"arr": "seq<i32>", "bound": "i32"}
    assert {p.name: str(p.type) for p in task.outputs} == {"count": "usize"}
    spec = (dest / "specs" / "original.rs").read_text()
    assert "(input.arr.len() < 1000)" in spec
    assert "(output.count == below(input.arr, input.bound))" in spec  # `arr@` is the Seq
    assert "(output.count <= input.arr.len())" in spec
    assert "spec fn below(s: Seq<i32>, bound: i32) -> int" in spec  # copied as written
    assert "invariant" not in spec and "bump" not in spec  # bodies and other fns stay out
    assert done.cases == 3
    assert [r["input"] for r in _rows(dest / "tests" / "pre_complete.jsonl")] == [
        {"arr": [1, 5, 2, 8], "bound": 3}, {"arr": [], "bound": 0}, {"arr": [7, 7], "bound": 8}]
    assert [r["output"] for r in _rows(dest / "tests" / "post_complete.jsonl")] == [
        {"count": 2}, {"count": 0}, {"count": 2}]
    assert "below a bound" in (dest / "statement.md").read_text()
    rep = score_spec(task, spec, str(dest / "specs" / "original.rs"),
                     ScoreOptions(engines=["interp"]))
    assert rep.status == "scored"
    assert all(s.passed == s.total for s in rep.buckets.values())
    assert sum(s.total for s in rep.buckets.values()) == 6


def test_a_wrong_contract_fails_the_derived_cases(tmp_path: Path) -> None:
    """The cases are not the contract's echo: a contract off by one fails them."""
    dest = tmp_path / "t"
    convert(PROGRAM, "count_below", dest)
    spec = (dest / "specs" / "original.rs").read_text().replace(
        "below(input.arr, input.bound))", "below(input.arr, input.bound) + 1)")
    rep = score_spec(load_task(dest), spec, "wrong.rs", ScoreOptions(engines=["interp"]))
    assert rep.buckets["post_complete"].failed == 3


@pytest.mark.parametrize(("function", "words"), [
    ("bump", "`v` is `&mut`"),
    ("nope", "exec fns: bump, count_below"),
    ("below", "no exec fn 'below'"),
])
def test_what_is_out_of_reach_is_said(tmp_path: Path, function: str, words: str) -> None:
    with pytest.raises(TaskError) as e:
        convert(PROGRAM, function, tmp_path / "t")
    assert words in str(e.value) and e.value.file == str(PROGRAM)


def test_the_cli_writes_the_task_and_scores_the_contract(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    dest = tmp_path / "t"
    cmd = [sys.executable, "-m", "adequacy", "task", "from", str(PROGRAM), str(dest), "-f",
           "count_below"]
    r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "passed 6 of 6 cases" in r.stdout
    again = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)
    assert again.returncode == 2 and "--force" in again.stderr
    bad = subprocess.run([*cmd[:-1], "bump", "--force"], capture_output=True, text=True,
                         env=env, timeout=300)
    assert bad.returncode == 2 and "&mut" in bad.stderr and "Traceback" not in bad.stderr
