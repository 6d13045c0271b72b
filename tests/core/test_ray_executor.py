"""The Ray executor: a real local Ray instance (2 CPUs) scores a batch with the same keys,
results file and resume as the process pool, survives a killed worker, and resumes a killed
driver's batch."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .test_batch import make_batch

pytest.importorskip("ray")
pytestmark = pytest.mark.slow


def _run(jf: Path, results: Path, env: dict[str, str], executor: str) -> subprocess.Popen[str]:
    cmd = [sys.executable, "-m", "adequacy", "run", str(jf), "-o", str(results), "--workers",
           "2", "--no-progress", "--no-cache", "--quiet", "--executor", executor]
    return subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)


def _lines(results: Path) -> list[dict[str, object]]:
    if not results.exists():
        return []
    return [json.loads(x)["report"] for x in results.read_text().splitlines() if x.strip()]


def _ray_workers() -> list[int]:
    """Ray worker processes busy with one of our pairs (Ray names them after the task)."""
    pids = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                cmd = (d / "cmdline").read_bytes().replace(b"\0", b" ")
            except OSError:
                continue
            if cmd.startswith(b"ray::_score_chunk"):
                pids.append(int(d.name))
    return pids


def _wait_lines(results: Path, n: int, proc: subprocess.Popen[str], limit: float) -> None:
    end = time.monotonic() + limit
    while len(_lines(results)) < n and proc.poll() is None and time.monotonic() < end:
        time.sleep(0.1)


def test_same_results_as_the_pool_and_a_killed_worker_is_retried(
        tmp_path: Path, installed_toy: Path) -> None:
    jf = make_batch(tmp_path, n=8, sleep=1.0)
    env = dict(os.environ, PYTHONPATH=str(installed_toy), RAY_DISABLE_USAGE_STATS="1")
    pool = _run(jf, tmp_path / "pool.jsonl", env, "local")
    assert pool.wait(timeout=300) == 0, pool.stderr.read() if pool.stderr else ""

    ray_results = tmp_path / "ray.jsonl"
    proc = _run(jf, ray_results, env, "ray")
    end = time.monotonic() + 120
    killed = None
    while killed is None and proc.poll() is None and time.monotonic() < end:
        busy = _ray_workers()
        if busy:
            os.kill(busy[0], signal.SIGKILL)
            killed = busy[0]
        time.sleep(0.05)
    rc = proc.wait(timeout=300)
    assert killed is not None, "never saw a Ray worker scoring a pair"
    assert rc == 0, proc.stderr.read() if proc.stderr else ""
    pool_reps = {r["key"]: (r["status"], r["passed_all"]) for r in _lines(tmp_path / "pool.jsonl")}
    ray_reps = {r["key"]: (r["status"], r["passed_all"]) for r in _lines(ray_results)}
    assert ray_reps == pool_reps and len(ray_reps) == 8


def test_a_killed_ray_batch_resumes(tmp_path: Path, installed_toy: Path) -> None:
    jf = make_batch(tmp_path, n=8, sleep=1.0)
    env = dict(os.environ, PYTHONPATH=str(installed_toy), RAY_DISABLE_USAGE_STATS="1")
    results = tmp_path / "results.jsonl"
    proc = _run(jf, results, env, "ray")
    _wait_lines(results, 2, proc, 120)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    first = {r["key"] for r in _lines(results)}
    assert 2 <= len(first) < 8
    again = _run(jf, results, env, "ray")
    out, err = again.communicate(timeout=300)
    assert again.returncode == 0, err
    assert f"{len(first)} already in" in out.replace("\n", " ")
    keys = [r["key"] for r in _lines(results)]
    assert len(keys) == len(set(keys)) == 8
