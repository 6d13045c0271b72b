"""Long single commands show progress on stderr when it is a terminal, and nothing otherwise."""

from __future__ import annotations

import os
import pty
import select
import shutil
import subprocess
import sys
import time
from pathlib import Path

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def _task(tmp_path: Path) -> tuple[Path, Path]:
    task = tmp_path / "toy_succ"
    shutil.copytree(FIXTURES / "toy_task", task)
    spec = tmp_path / "slow.toy"
    spec.write_text("sleep: 1.5\npre: x >= 0\npost: result == x + 1\n")
    return task, spec


def test_score_shows_progress_on_a_terminal(tmp_path: Path, installed_toy: Path) -> None:
    task, spec = _task(tmp_path)
    env = dict(os.environ, PYTHONPATH=str(installed_toy), TERM="xterm", COLUMNS="120")
    cmd = [sys.executable, "-m", "adequacy", "score", str(task), str(spec), "--no-cache",
           "--json"]
    master, slave = pty.openpty()
    proc = subprocess.Popen(cmd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=slave)
    os.close(slave)
    seen = b""
    end = time.monotonic() + 60
    while time.monotonic() < end:
        r, _, _ = select.select([master], [], [], 0.2)
        if r:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
        elif proc.poll() is not None:
            break
    proc.wait(timeout=30)
    os.close(master)
    assert proc.returncode == 0
    assert b"exact: 8 cases" in seen or b"exact:" in seen, seen[-500:]


def test_score_prints_no_progress_to_a_pipe(tmp_path: Path, installed_toy: Path) -> None:
    task, spec = _task(tmp_path)
    env = dict(os.environ, PYTHONPATH=str(installed_toy))
    p = subprocess.run([sys.executable, "-m", "adequacy", "score", str(task), str(spec),
                        "--no-cache", "--json"], env=env, capture_output=True, text=True,
                       timeout=60)
    assert p.returncode == 0
    assert "exact:" not in p.stderr and "cases" not in p.stderr
