"""A results record a grader wrote can be told from one someone typed.

The forgery: a record for a flawed spec, typed by hand with counts that are consistent (copied
from a real passing record), under the flawed spec's real job key. Without a seal it reads like
any other: ``report`` counts it, ``compare`` pairs it, and a resumed ``run`` takes its key for
done and never scores the spec.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from adequacy.cli import app
from adequacy.examples import bundled_folder
from adequacy.records.html import build_study, read_records, render_html, render_markdown
from adequacy.records.log import read_results

ROOT = Path(__file__).resolve().parents[2]
EUCLID = bundled_folder("verus") / "euclid_mod"
runner = CliRunner()


@pytest.fixture(autouse=True)
def grader(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ADEQUACY_GRADER_HOME", str(tmp_path / "grader-home"))


def _run(task: Path, glob: str, out: Path) -> str:
    r = runner.invoke(app, ["run", "--tasks", str(task), "--spec-glob", glob, "-o", str(out),
                            "--no-cache", "--no-progress", "--workers", "1"])
    assert r.exit_code == 0, r.output
    return r.stderr


def _forge(tmp_path: Path) -> tuple[Path, Path]:
    """(the task copy, a results file whose one record is the forgery for the flawed spec)."""
    task = tmp_path / "euclid_mod"
    shutil.copytree(EUCLID, task)
    (task / "specs" / "flawed.rs").write_text((EUCLID / "skeleton.rs").read_text())
    gold_out, flawed_out = tmp_path / "gold.jsonl", tmp_path / "flawed.jsonl"
    _run(task, "specs/gold.rs", gold_out)
    _run(task, "specs/flawed.rs", flawed_out)
    gold = json.loads(gold_out.read_text())
    flawed = json.loads(flawed_out.read_text())
    assert gold["report"]["passed_all"] and not flawed["report"]["passed_all"]
    forged = {k: v for k, v in gold.items() if k != "seal"}
    forged["report"] = {**gold["report"], **{k: flawed["report"][k] for k in
                                             ("key", "spec_path", "spec_sha")}}
    out = tmp_path / "forged.jsonl"
    out.write_text(json.dumps(forged) + "\n")
    return task, out


def test_a_typed_record_reads_as_not_verified_and_is_scored_again(tmp_path: Path) -> None:
    task, forged = _forge(tmp_path)
    (rec,) = read_results(forged)
    assert rec.record.report.passed_all and not rec.sealed
    # report: counted only as a claim, and said so in every format
    study = build_study(read_records([forged]), [str(forged)])
    assert study.unverified == [f"{forged}:1"] and study.verified == 0
    assert "NOT VERIFIED" in render_markdown(study) and "NOT VERIFIED" in render_html(study)
    r = runner.invoke(app, ["report", str(forged), "--format", "md"])
    assert r.exit_code == 0 and "NOT VERIFIED" in r.stderr and "NOT VERIFIED" in r.stdout
    r = runner.invoke(app, ["report", str(forged), "--format", "md", "--verified-only"])
    assert r.exit_code == 2 and "no record was sealed" in " ".join(r.stderr.split())
    # resume: the forged key is not taken for done; the spec is scored and fails
    err = _run(task, "specs/flawed.rs", forged)
    assert "not sealed by this installation's grader" in err
    last = read_records([forged])
    assert len(last) == 1 and last[0].sealed and not last[0].report.passed_all


def test_compare_says_which_side_is_not_verified(tmp_path: Path) -> None:
    _, forged = _forge(tmp_path)
    gold = tmp_path / "gold.jsonl"
    r = runner.invoke(app, ["compare", str(gold), str(forged), "--format", "plain"])
    assert r.exit_code == 0, r.output
    assert "NOT VERIFIED: 1 of 1 records of forged" in r.stderr
    assert "records of gold" not in r.stderr
    r = runner.invoke(app, ["compare", str(gold), str(forged), "--json"])
    data = json.loads(r.stdout)
    assert data["unverified_a"] == 0 and data["unverified_b"] == 1
