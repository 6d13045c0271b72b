"""Honest batch totals: the results file is a log, the report of a job is
its latest record for the job's current key, summaries cover exactly the current job list; one
writer per results file; workers and their children die with the run; Ctrl-C stops at once."""

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

from adequacy.batch.pool import BatchOptions, Job, results_lock, run_batch
from adequacy.errors import ResultsLocked

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
GOLD = "pre: x >= 0\npost: result == x + 1\n"


def make_task(tmp_path: Path, specs: dict[str, str]) -> Path:
    task = tmp_path / "toy_succ"
    shutil.copytree(FIXTURES / "toy_task", task)
    (task / "specs").mkdir()
    for name, text in specs.items():
        (task / "specs" / name).write_text(text)
    jobs = tmp_path / "jobs.jsonl"
    jobs.write_text("".join(json.dumps({"task": "toy_succ", "spec": f"toy_succ/specs/{n}"})
                            + "\n" for n in specs))
    return jobs


def cli(jobs: Path, results: Path, env: dict[str, str], *extra: str) -> list[str]:
    return [sys.executable, "-m", "adequacy", "run", str(jobs), "-o", str(results),
            "--no-progress", "--no-cache", *extra]


def alive(pid: int) -> bool:
    """Running, not a zombie waiting for init to reap it."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rfind(")") + 2] != "Z"


def wait_gone(pids: list[int], seconds: float) -> list[int]:
    end = time.monotonic() + seconds
    while time.monotonic() < end and any(alive(p) for p in pids):
        time.sleep(0.05)
    return [p for p in pids if alive(p)]


@pytest.mark.slow
def test_summary_counts_each_current_job_once_after_an_edit(tmp_path: Path,
                                                             installed_toy: Path) -> None:
    # Before: the table read every record of the file, so an edited spec counted twice
    # (an old and a new row) and Pass@1 mixed the stale verdict in.
    jobs = make_task(tmp_path, {"a.toy": "pre: x >= -1\npost: result == x + 1\n",
                                "b.toy": GOLD})
    results = tmp_path / "r.jsonl"
    env = dict(os.environ, PYTHONPATH=str(installed_toy))
    first = subprocess.run(cli(jobs, results, env), env=env, capture_output=True, text=True,
                           timeout=120)
    assert first.returncode == 0, first.stderr
    assert "passed 1, failed 1" in first.stdout
    (tmp_path / "toy_succ/specs/a.toy").write_text(GOLD + "# fixed\n")  # the spec is edited
    second = subprocess.run(cli(jobs, results, env), env=env, capture_output=True,
                            text=True, timeout=120)
    assert second.returncode == 0, second.stderr
    assert len(results.read_text().splitlines()) == 3  # the log keeps the stale record
    assert "specs 2: passed 2, failed 0, invalid 0, errors 0" in second.stdout
    assert "Pass@1 1.000" in second.stdout
    assert "2 pairs: 1 scored now, 1 already in" in second.stdout


def test_summary_covers_only_the_current_job_list(tmp_path: Path, toy: None) -> None:
    make_task(tmp_path, {"a.toy": GOLD, "b.toy": "pre: x >= 5\n"})
    task = tmp_path / "toy_succ"
    results = tmp_path / "r.jsonl"
    both = [Job(task=str(task), spec=str(task / "specs" / n)) for n in ("a.toy", "b.toy")]
    run_batch(both, results, BatchOptions(), workers=1, progress=False)
    only_a = run_batch(both[:1], results, BatchOptions(), workers=1, progress=False)
    assert (only_a.total, only_a.skipped_done, only_a.passed_all, only_a.failed) == (1, 1, 1, 0)
    assert [Path(r.spec_path or "").name for r in only_a.reports] == ["a.toy"]


def test_same_error_is_not_appended_on_every_rerun(tmp_path: Path, toy: None) -> None:
    # Before: 3 runs wrote 3 identical error lines for the missing spec.
    make_task(tmp_path, {"a.toy": GOLD})
    task = tmp_path / "toy_succ"
    jobs = [Job(task=str(task), spec=str(task / "specs/a.toy")),
            Job(task=str(task), spec=str(task / "specs/missing.toy"))]
    results = tmp_path / "r.jsonl"
    for _ in range(3):
        s = run_batch(jobs, results, BatchOptions(), workers=1, progress=False)
        assert (s.errors, s.passed_all, len(s.reports)) == (1, 1, 2)
    lines = results.read_text().splitlines()
    assert len(lines) == 2
    assert sum('"status":"error"' in ln for ln in lines) == 1
    # the error is retried on resume: once the spec exists, the latest record is a pass
    (task / "specs/missing.toy").write_text(GOLD + "# now here\n")
    s = run_batch(jobs, results, BatchOptions(), workers=1, progress=False)
    assert (s.errors, s.passed_all, s.computed) == (0, 2, 1)


def test_table_summary_and_footer_agree(tmp_path: Path, installed_toy: Path) -> None:
    # Before: the table said "invalid 3" (errors counted as invalid), the footer
    # "invalid 1, errors 2".
    jobs = make_task(tmp_path, {"good.toy": GOLD, "bad.toy": "pre: ???\n"})
    with jobs.open("a") as f:
        f.write(json.dumps({"task": "toy_succ", "spec": "toy_succ/specs/gone1.toy"}) + "\n")
        f.write(json.dumps({"task": "nowhere", "spec": "toy_succ/specs/good.toy"}) + "\n")
    results = tmp_path / "r.jsonl"
    env = dict(os.environ, PYTHONPATH=str(installed_toy), COLUMNS="200")
    p = subprocess.run(cli(jobs, results, env), env=env, capture_output=True, text=True,
                       timeout=120)
    assert p.returncode == 2, p.stderr
    assert "specs 4: passed 1, failed 0, invalid 1, errors 2" in p.stdout
    assert "passed 1, failed 0, invalid 1, errors 2" in p.stdout.splitlines()[-1]


_HOLDER = """
import sys
from pathlib import Path
from adequacy.records.lock import results_lock
with results_lock(Path(sys.argv[1])):
    print("locked", flush=True)
    sys.stdin.read()  # hold until killed
"""


@pytest.mark.slow
def test_second_writer_is_kept_out(tmp_path: Path, installed_toy: Path) -> None:
    # Before: two runs on one file both scored every pair. Deterministic: a holder process
    # takes the lock and says so on its stdout before the second writer starts (no sleeps,
    # no race with a run that may finish first), then dies by SIGKILL with the lock held.
    jobs = make_task(tmp_path, {f"s{i}.toy": f"pre: x >= {-i}\n" for i in range(6)})
    results = tmp_path / "r.jsonl"
    path = [str(installed_toy), *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(path), COLUMNS="400")
    holder = subprocess.Popen([sys.executable, "-c", _HOLDER, str(results)], env=env,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "locked\n"
        second = subprocess.run(cli(jobs, results, env, "--quiet"), env=env,
                                capture_output=True, text=True, timeout=120)
        assert second.returncode == 2
        assert "being written by another `adequacy run` (pid" in second.stderr
        assert str(holder.pid) in second.stderr
        assert len(second.stderr.strip().splitlines()) == 1
        assert not results.exists() or results.read_text() == ""  # it wrote nothing
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait()
    # a lock left by a killed holder does not block the next run
    third = subprocess.run(cli(jobs, results, env, "--quiet"), env=env, capture_output=True,
                           text=True, timeout=120)
    assert third.returncode == 0, third.stderr
    keys = [json.loads(ln)["report"]["key"] for ln in results.read_text().splitlines()]
    assert len(keys) == len(set(keys)) == 6


def test_lock_in_process(tmp_path: Path) -> None:
    results = tmp_path / "r.jsonl"
    with results_lock(results):
        try:
            with results_lock(results):
                raise AssertionError("a second holder got the lock")
        except ResultsLocked as e:
            assert f"pid {os.getpid()}" in str(e)
    with results_lock(results):  # released
        pass


def _start_spawning_run(tmp_path: Path, installed_toy: Path, workers: int
                        ) -> tuple[subprocess.Popen[str], Path, Path, list[int]]:
    jobs = make_task(tmp_path, {f"s{i}.toy": f"spawn: 300\nsleep: 30\npre: x >= {-i}\n"
                                for i in range(4)})
    results = tmp_path / "r.jsonl"
    pids = tmp_path / "pids"
    env = dict(os.environ, PYTHONPATH=str(installed_toy), ADEQUACY_TOY_PIDS=str(pids),
               COLUMNS="400")
    run = subprocess.Popen(cli(jobs, results, env, "--workers", str(workers), "--quiet"),
                           env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    end = time.monotonic() + 60
    while time.monotonic() < end:
        if pids.exists() and len(pids.read_text().splitlines()) >= workers:
            break
        time.sleep(0.05)
    seen = [int(x) for ln in pids.read_text().splitlines() for x in ln.split()]
    assert len(seen) >= 2 * workers and all(alive(p) for p in seen)
    return run, results, pids, seen


def test_sigkill_of_run_takes_workers_and_their_children(tmp_path: Path,
                                                         installed_toy: Path) -> None:
    # Before: pool workers and their JVMs stayed alive after `kill -9` of the run.
    run, _, _, seen = _start_spawning_run(tmp_path, installed_toy, workers=2)
    os.kill(run.pid, signal.SIGKILL)  # the run only, not its process group
    run.wait()
    assert wait_gone(seen, 5) == []


def test_ctrl_c_stops_within_two_seconds_and_says_how_to_resume(tmp_path: Path,
                                                                installed_toy: Path) -> None:
    # Before: Ctrl-C froze for 19 s (the pool waited for running jobs) and printed nothing.
    run, results, _, seen = _start_spawning_run(tmp_path, installed_toy, workers=2)
    t0 = time.monotonic()
    os.kill(run.pid, signal.SIGINT)
    _, err = run.communicate(timeout=30)
    took = time.monotonic() - t0
    assert took < 2.0, f"Ctrl-C took {took:.1f}s"
    assert run.returncode == 130
    assert "interrupted: 0 of 4 pairs are done and kept in" in err
    assert "run the same command again to resume" in err
    assert "Traceback" not in err
    assert wait_gone(seen, 2) == []
    assert not results.exists() or results.read_text() == ""
