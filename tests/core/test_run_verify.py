"""``run --verify``: each spec is also proved against the method body, the record carries
``verified`` beside the metrics (so ``report`` shows VR), a run with and a run without it are
different jobs, and an invalid spec or a missing prover is never counted as verified.

On the toy language, whose prover (tests/fixtures/toy_backend) verifies exactly the specs that
state a precondition: the expected verdicts below follow from that rule by hand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from adequacy.batch.jobs import Job
from adequacy.batch.pool import BatchOptions, run_batch
from adequacy.examples import bundled_folder
from adequacy.records.html._load import read_records

GOLD = "pre: x >= 0\npost: result == x + 1\n"
NO_PRE = "post: result == x + 1\n"
BROKEN = "this is not a toy spec\n"


def _jobs(task: Path, tmp: Path) -> list[Job]:
    jobs = []
    for name, text in (("gold", GOLD), ("no_pre", NO_PRE), ("broken", BROKEN)):
        p = tmp / f"{name}.toy"
        p.write_text(text)
        jobs.append(Job(task=str(task), spec=str(p)))
    return jobs


def _extra(results: Path) -> dict[str, dict]:
    out = {}
    for line in results.read_text().splitlines():
        rec = json.loads(line)
        out[Path(rec["report"]["spec_path"]).stem] = rec.get("extra") or {}
    return out


def test_verified_is_recorded_beside_the_metrics(toy: None, toy_task: Path,
                                                 tmp_path: Path) -> None:
    results = tmp_path / "res.jsonl"
    summary = run_batch(_jobs(toy_task, tmp_path), results, BatchOptions(verify=True),
                        workers=1, progress=False)
    assert summary.computed == 3
    extra = _extra(results)
    assert extra["gold"]["verified"] is True and extra["gold"]["prover"]
    assert extra["no_pre"]["verified"] is False
    assert extra["broken"]["verified"] is False
    assert "invalid" in extra["broken"]["verification"]
    recs = read_records([results])
    assert sorted(r.verified for r in recs) == [False, False, True]


def test_with_and_without_verify_are_different_jobs(toy: None, toy_task: Path,
                                                    tmp_path: Path) -> None:
    results = tmp_path / "res.jsonl"
    jobs = _jobs(toy_task, tmp_path)
    plain = run_batch(jobs, results, BatchOptions(), workers=1, progress=False)
    assert plain.computed == 3
    assert all("verified" not in e for e in _extra(results).values())
    proved = run_batch(jobs, results, BatchOptions(verify=True), workers=1, progress=False)
    assert proved.computed == 3  # a plain record has no VR: it is not reused
    again = run_batch(jobs, results, BatchOptions(verify=True), workers=1, progress=False)
    assert again.computed == 0 and again.skipped_done == 3


@pytest.mark.slow
def test_run_verify_on_a_bundled_jml_task_gives_vr_in_the_report(tmp_path: Path) -> None:
    """The real prover (KeY) on examples/jml/abs_value: its gold spec verifies, and the report
    carries a VR figure beside the four metrics."""
    import os
    import subprocess
    import sys

    from adequacy.scoring.verification import provers
    if not provers("jml"):
        pytest.skip("no JML prover available here (KeY: adequacy setup)")
    repo = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(repo)}
    results = tmp_path / "res.jsonl"
    run = subprocess.run([sys.executable, "-m", "adequacy", "run", "--tasks",
                          str(bundled_folder("jml") / "abs_value"), "--verify", "-o",
                          str(results), "--no-progress", "--no-cache"],
                         capture_output=True, text=True, env=env, timeout=1200)
    assert run.returncode == 0, run.stderr
    assert "verified" in run.stdout and "VR" in run.stdout
    extra = _extra(results)
    assert extra["gold"]["verified"] is True, extra["gold"]
    rep = subprocess.run([sys.executable, "-m", "adequacy", "report", str(results), "--format",
                          "json"], capture_output=True, text=True, env=env, timeout=300)
    assert rep.returncode == 0, rep.stderr
    assert '"vr"' in rep.stdout and '"vr": null' not in rep.stdout
