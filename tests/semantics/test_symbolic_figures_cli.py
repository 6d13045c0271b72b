"""``score --symbolic``, ``run --symbolic`` and ``report``: the solver's figures as a field of
the report, beside the buckets, from a results file to the markdown report.

binary_search_first (bundled Verus example): ``arr`` sorted, ``result`` the first index of
``target``. Hand-worked truths:

- ``flawed_post_too_weak`` accepts any index of ``target``: on ``arr = [4, 4]``, ``target = 4``
  (a ``post_complete`` case, right output ``Some(0)``) it also accepts ``Some(1)``, so the
  output figure has at least one second output, each one wrong for the task's reference.
- the gold spec pins the output on every valid input (its ``result`` is the first index or
  ``None``); its precondition is the gold's own, so no precondition figure is measured.
- ``flawed_pre_too_weak`` accepts every input: an unsorted array is an input the gold refuses,
  and the task's validator calls it invalid.
- The task's ``pre_complete`` inputs have no recorded output; the reference gives them one, so
  they are checked too (``source = "reference"``).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from adequacy.cli import app
from adequacy.examples import bundled_folder
from adequacy.model.verdicts import Bucket
from adequacy.taskdirs.load import load_task

pytest.importorskip("z3")
pytestmark = pytest.mark.slow

TASK = bundled_folder("verus") / "binary_search_first"
runner = CliRunner()


def _score(task: Path, spec: str, *extra: str) -> dict:
    r = runner.invoke(app, ["score", str(task), str(task / "specs" / spec), "--symbolic",
                            "--symbolic-budget", "60", "--json", *extra])
    assert r.exit_code in (0, 1), r.output
    return json.loads(r.stdout)


def test_weak_post_has_second_outputs_as_a_report_field() -> None:
    rep = _score(TASK, "flawed_post_too_weak.rs")
    out = rep["symbolic"]["output"]  # a field of the report, not a wrapper around it
    assert rep["status"] == "scored" and "buckets" in rep
    seconds = [r for r in out["results"] if r["status"] == "second_output"]
    assert seconds and out["second_output"] == len(seconds)
    by_input = {json.dumps(r["input"], sort_keys=True): r for r in seconds}
    r = by_input.get(json.dumps({"arr": [4, 4], "target": 4}, sort_keys=True))
    assert r is not None and r["output"] == {"result": {"some": 0}}
    assert r["other"] == {"result": {"some": 1}}
    assert {r["source"] for r in out["results"]} == {"case", "reference"}
    assert rep["symbolic"]["pre"]["status"] == "none"
    # over every input: two indices of the target, both accepted; every one but the first
    # occurrence is wrong (the reference's word)
    uniq = rep["symbolic"]["unique"]
    assert uniq["status"] == "two_outputs"
    arr, target = uniq["input"]["arr"], uniq["input"]["target"]
    idx = [o["result"]["some"] for o in uniq["outputs"]]
    assert idx[0] != idx[1] and all(arr[i] == target for i in idx)
    assert uniq["wrong"] == [k for k, i in enumerate(idx) if i != arr.index(target)]
    assert uniq["wrong"]


def test_gold_pins_the_output_and_skips_its_own_pre() -> None:
    rep = _score(TASK, "gold.rs")
    out = rep["symbolic"]["output"]
    assert out["second_output"] == 0 and out["pinned"] == out["inputs"] > 0
    assert rep["symbolic"]["unique"]["status"] == "determined"
    assert rep["symbolic"]["pre"] is None and "gold" in rep["symbolic"]["pre_skipped"]


def test_weak_pre_admits_an_invalid_input_and_add_writes_it(tmp_path: Path) -> None:
    task = tmp_path / "t"
    shutil.copytree(TASK, task)
    before = len(load_task(task).cases.get(Bucket.pre_sound, []))
    rep = _score(task, "flawed_pre_too_weak.rs", "--add")
    pre = rep["symbolic"]["pre"]
    assert pre["status"] == "found" and pre["inputs"]
    for a in pre["inputs"]:
        arr = a["input"]["arr"]
        assert any(x > y for x, y in zip(arr, arr[1:], strict=False))  # unsorted
        assert a["oracle"] == "invalid"
    after = load_task(task).cases.get(Bucket.pre_sound, [])
    assert len(after) > before
    assert all(c.origin == "explored" for c in after[before:])


def test_run_symbolic_records_figures_and_report_shows_them(tmp_path: Path) -> None:
    task = tmp_path / "t"
    shutil.copytree(TASK, task)
    for f in (task / "specs").glob("*.rs"):
        if f.name not in ("gold.rs", "flawed_post_too_weak.rs"):
            f.unlink()
    res = tmp_path / "r.jsonl"
    r = runner.invoke(app, ["run", "--tasks", str(task), "--symbolic", "--symbolic-budget",
                            "60", "-o", str(res), "--no-progress", "-q", "--workers", "1"])
    assert r.exit_code == 0, r.output
    recs = [json.loads(line) for line in res.read_text().splitlines()]
    assert len(recs) == 2 and all(x["report"]["symbolic"]["output"] for x in recs)
    # resuming with --symbolic finds them done; a plain run is another job
    again = runner.invoke(app, ["run", "--tasks", str(task), "--symbolic", "--symbolic-budget",
                                "60", "-o", str(res), "--no-progress", "-q"])
    assert again.exit_code == 0 and "0 scored now" in again.output, again.output
    md = runner.invoke(app, ["report", str(res), "--format", "md"])
    assert md.exit_code == 0, md.output
    assert "post determines output" in md.stdout
    assert "post determines the output on" in md.stdout
