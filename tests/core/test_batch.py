"""Batches: a killed run resumes without recomputing finished pairs or losing any."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from adequacy.batch.pool import BatchOptions, Job, read_done, run_batch

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def make_batch(tmp_path: Path, n: int, sleep: float) -> Path:
    task = tmp_path / "toy_succ"
    shutil.copytree(FIXTURES / "toy_task", task)
    specs = task / "specs"
    specs.mkdir()
    jobs = []
    for i in range(n):
        # distinct specs (different constant) so that every pair is its own job
        (specs / f"s{i}.toy").write_text(f"sleep: {sleep}\npre: x >= {-i}\npost: result == x + 1\n")
        jobs.append({"task": "toy_succ", "spec": f"toy_succ/specs/s{i}.toy"})
    jf = tmp_path / "jobs.jsonl"
    jf.write_text("".join(json.dumps(j) + "\n" for j in jobs))
    return jf


@pytest.mark.slow
def test_kill_and_resume(tmp_path: Path, installed_toy: Path) -> None:
    jf = make_batch(tmp_path, n=8, sleep=0.5)
    results = tmp_path / "results.jsonl"
    log = tmp_path / "calls.log"
    env = dict(os.environ, PYTHONPATH=str(installed_toy), ADEQUACY_TOY_LOG=str(log))
    cmd = [sys.executable, "-m", "adequacy", "run", str(jf), "-o", str(results), "--workers", "1",
           "--no-progress", "--no-cache", "--quiet"]
    proc = subprocess.Popen(cmd, env=env, start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if results.exists() and len(results.read_text().splitlines()) >= 3:
            break
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    first = read_done(results)
    assert 3 <= len(first) < 8, "the batch should have been killed part-way"
    first_specs = {r.spec_path for r in first.values()}
    log.write_text("")

    second = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
    assert second.returncode == 0, second.stderr
    recomputed = {line.split()[1] for line in log.read_text().splitlines()}
    assert not (recomputed & first_specs), "finished pairs were recomputed"
    final = read_done(results)
    assert len(final) == 8
    assert {r.spec_path for r in final.values()} == {
        str(tmp_path / f"toy_succ/specs/s{i}.toy") for i in range(8)}
    # spec s0 is the gold one; s1.. accept x = -1 (pre_sound n1) and so fail
    passed = {Path(r.spec_path or "").name for r in final.values() if r.passed_all}
    assert passed == {"s0.toy"}


def test_torn_last_line_is_dropped_and_recomputed(tmp_path: Path, toy: None) -> None:
    jf = make_batch(tmp_path, n=3, sleep=0)
    results = tmp_path / "r.jsonl"
    jobs = [Job(task=str(tmp_path / "toy_succ"), spec=str(tmp_path / f"toy_succ/specs/s{i}.toy"))
            for i in range(3)]
    assert jf.exists()
    s = run_batch(jobs, results, BatchOptions(), workers=1, progress=False)
    assert s.computed == 3
    lines = results.read_text().splitlines()
    results.write_text("\n".join(lines[:2]) + "\n" + lines[2][:40])  # torn write
    s2 = run_batch(jobs, results, BatchOptions(), workers=1, progress=False)
    assert (s2.skipped_done, s2.computed) == (2, 1)
    assert len(read_done(results)) == 3
    assert all(json.loads(x) for x in results.read_text().splitlines())


def test_bad_pairs_do_not_stop_the_batch(tmp_path: Path, toy: None) -> None:
    make_batch(tmp_path, n=1, sleep=0)
    bad = tmp_path / "toy_succ" / "specs" / "bad.toy"
    bad.write_text("pre: ???\n")
    jobs = [Job(task=str(tmp_path / "nope"), spec=str(bad)),
            Job(task=str(tmp_path / "toy_succ"), spec=str(bad)),
            Job(task=str(tmp_path / "toy_succ"), spec=str(tmp_path / "toy_succ/specs/s0.toy"))]
    s = run_batch(jobs, tmp_path / "r.jsonl", BatchOptions(), workers=1, progress=False)
    assert (s.computed, s.errors, s.invalid, s.passed_all) == (3, 1, 1, 1)


def test_process_pool(tmp_path: Path, installed_toy: Path) -> None:
    jf = make_batch(tmp_path, n=4, sleep=0)
    results = tmp_path / "r.jsonl"
    env = dict(os.environ, PYTHONPATH=str(installed_toy))
    proc = subprocess.run([sys.executable, "-m", "adequacy", "run", str(jf), "-o", str(results),
                           "--workers", "2", "--no-progress", "--no-cache"], env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert len(read_done(results)) == 4
    assert "Pass@1" in proc.stdout


def test_dying_worker_costs_only_its_own_pair(tmp_path: Path, toy: None) -> None:
    make_batch(tmp_path, n=3, sleep=0.2)
    killer = tmp_path / "toy_succ" / "specs" / "killer.toy"
    killer.write_text("die\npre: x >= 0\n")
    specs = [killer] + [tmp_path / f"toy_succ/specs/s{i}.toy" for i in range(3)]
    jobs = [Job(task=str(tmp_path / "toy_succ"), spec=str(s)) for s in specs]
    results = tmp_path / "r.jsonl"
    s = run_batch(jobs, results, BatchOptions(), workers=2, progress=False)
    reps = {Path(r.spec_path or "").name: r for r in read_done(results).values()}
    assert set(reps) == {"killer.toy", "s0.toy", "s1.toy", "s2.toy"}
    assert reps["killer.toy"].status == "error" and "died" in (reps["killer.toy"].error or "")
    assert all(reps[f"s{i}.toy"].status == "scored" for i in range(3))
    assert s.errors == 1 and s.computed == 4


def test_resume_recomputes_relabelled_cases_and_errors(tmp_path: Path, toy: None) -> None:
    make_batch(tmp_path, n=2, sleep=0)
    task = tmp_path / "toy_succ"
    jobs = [Job(task=str(task), spec=str(task / f"specs/s{i}.toy")) for i in range(2)]
    jobs.append(Job(task=str(task), spec=str(task / "specs/missing.toy")))
    results = tmp_path / "r.jsonl"
    first = run_batch(jobs, results, BatchOptions(), workers=1, progress=False)
    assert (first.computed, first.errors) == (3, 1)
    again = run_batch(jobs, results, BatchOptions(), workers=1, progress=False)
    assert (again.skipped_done, again.computed) == (2, 1)  # only the error is retried
    # relabel one case under the same id: every pair of the task must be scored again
    ps = task / "tests" / "post_sound.jsonl"
    ps.write_text(ps.read_text().replace('"result": 5', '"result": 6'))
    third = run_batch(jobs, results, BatchOptions(), workers=1, progress=False)
    assert (third.skipped_done, third.computed) == (0, 3)


def test_task_without_cases_is_an_error_not_a_pass(tmp_path: Path, toy: None) -> None:
    from adequacy.scoring.runner import score_spec
    from adequacy.taskdirs.load import load_task

    make_batch(tmp_path, n=1, sleep=0)
    for f in (tmp_path / "toy_succ" / "tests").iterdir():
        f.unlink()
    rep = score_spec(load_task(tmp_path / "toy_succ"), "pre: x >= 0\n")
    assert rep.status == "error" and not rep.passed_all and rep.exit_code == 2
