"""``adequacy task audit``: every planted contradiction is found with its case as witness,
and the bundled examples (cases written by hand and checked) have none."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from typer.testing import CliRunner

from adequacy.cli import app
from adequacy.examples import bundled_folder

EXAMPLES = bundled_folder("verus")
runner = CliRunner()


def _append(task: Path, bucket: str, obj: dict) -> None:
    with (task / "tests" / f"{bucket}.jsonl").open("a", encoding="utf-8") as f:
        f.write(json.dumps({**obj, "origin": "hack", "visible": False}) + "\n")


def test_bundled_examples_have_no_findings() -> None:
    r = runner.invoke(app, ["task", "audit", str(EXAMPLES), "--engine", "interp"])
    assert r.exit_code == 0, r.stdout
    assert "0 with findings" in r.stdout


def test_planted_contradictions_are_each_found_with_their_witness(tmp_path: Path) -> None:
    task = tmp_path / "bsf"
    shutil.copytree(EXAMPLES / "binary_search_first", task)
    # the first 2 in [1, 2] is at index 1: output Some(0) is wrong, recorded as right
    _append(task, "post_complete", {"id": "bad-out", "input": {"arr": [1, 2], "target": 2},
                                    "output": {"result": {"some": 0}}})
    # [2, 1] is not sorted: the validator rejects an input recorded as valid
    _append(task, "pre_complete", {"id": "bad-in", "input": {"arr": [2, 1], "target": 1}})
    # the same input as pre_c-1, recorded as invalid
    _append(task, "pre_sound", {"id": "dup", "input": {"arr": [1, 2, 3], "target": 2}})
    # Some(1) for [0, 2] / 2 is the first index: a right output recorded as wrong
    _append(task, "post_sound", {"id": "right", "input": {"arr": [0, 2], "target": 2},
                                 "output": {"result": {"some": 1}}})
    r = runner.invoke(app, ["task", "audit", str(task), "--json", "--engine", "interp"])
    assert r.exit_code == 1, r.stdout
    rep = json.loads(r.stdout.splitlines()[0])
    got = {(f["kind"], f["case"]) for f in rep["findings"]}
    assert got == {
        ("gold spec fails a case", "post_complete/bad-out"),
        ("gold spec fails a case", "pre_complete/bad-in"),
        ("gold spec fails a case", "pre_sound/dup"),
        ("gold spec fails a case", "post_sound/right"),
        ("reference differs from a recorded right output", "post_complete/bad-out"),
        ("reference gives a recorded wrong output", "post_sound/right"),
        ("validator rejects a valid-bucket input", "pre_complete/bad-in"),
        ("valid-bucket input breaks [constraints]", "pre_complete/bad-in"),
        ("validator accepts a pre_sound input", "pre_sound/dup"),
        ("input both valid and invalid", "pre_sound/dup"),
    }
    assert any(w.startswith("gold: ") for w in rep["witnesses"])


def test_audit_input_errors_exit_2(tmp_path: Path) -> None:
    r = runner.invoke(app, ["task", "audit", str(tmp_path / "missing")])
    assert r.exit_code == 2 and "Traceback" not in r.stderr
    r = runner.invoke(app, ["task", "audit", str(EXAMPLES), "--gold", str(tmp_path / "x")])
    assert r.exit_code == 2
