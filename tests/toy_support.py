"""Helpers for tests on the toy third-party language (tests/fixtures/toy_backend)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

FIXTURES = Path(__file__).resolve().parent / "fixtures"
GOLD = "pre: x >= 0\npost: result == x + 1\n"
"""The toy task's faithful spec: its statement is "successor of a non-negative number"."""


def toy_task_with_visible(dest: Path) -> Path:
    """A copy of the toy task whose completeness cases are visible (what writers may see)."""
    shutil.copytree(FIXTURES / "toy_task", dest)
    for b in ("pre_complete", "post_complete"):
        p = dest / "tests" / f"{b}.jsonl"
        p.write_text("".join(json.dumps({**json.loads(ln), "visible": True}) + "\n"
                             for ln in p.read_text().splitlines() if ln.strip()))
    return dest


def run_cli(args: list[str], pythonpath: Path, cwd: Path | None = None
            ) -> subprocess.CompletedProcess[str]:
    """``adequacy ARGS`` in a child whose entry-point scan finds the installed toy backend."""
    env = dict(os.environ, PYTHONPATH=str(pythonpath), COLUMNS="200")
    return subprocess.run([sys.executable, "-m", "adequacy", *args], env=env, cwd=cwd,
                          capture_output=True, text=True, timeout=300)
