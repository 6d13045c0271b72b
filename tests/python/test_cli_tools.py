"""``diff``, ``explore``, ``task audit``, ``run`` and ``report`` on a Python task through the
CLI. Truths by hand on the clamp example: the gold and the too-weak postcondition differ on
an output inside [lo, hi] other than the clamped value; a precondition of ``True`` accepts
lo > hi, where the reference raises ValueError; the bundled cases agree with the gold."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from .pysupport import EXAMPLES

pytestmark = pytest.mark.slow
CLAMP = EXAMPLES / "clamp"


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "adequacy", *args], capture_output=True,
                          text=True, timeout=300)


def test_diff_finds_where_two_specs_disagree() -> None:
    r = _cli("diff", str(CLAMP), str(CLAMP / "specs" / "gold.py"),
             str(CLAMP / "specs" / "flawed_post_too_weak.py"), "--budget", "20", "--json")
    assert r.returncode == 1, r.stdout + r.stderr
    found = json.loads(r.stdout)
    text = json.dumps(found)
    assert "post" in text and "Traceback" not in r.stderr


def test_explore_finds_an_invalid_input_the_spec_accepts() -> None:
    r = _cli("explore", str(CLAMP), str(CLAMP / "specs" / "flawed_pre_too_weak.py"),
             "--budget", "20")
    assert r.returncode == 1, r.stdout + r.stderr
    assert "pre_sound" in r.stdout and "ValueError" in r.stdout


def test_audit_run_and_report(tmp_path: Path) -> None:
    r = _cli("task", "audit", str(CLAMP))
    assert r.returncode == 0 and "0 with findings" in r.stdout, r.stdout + r.stderr
    results = tmp_path / "results.jsonl"
    r = _cli("run", "--tasks", str(CLAMP), "-o", str(results), "--workers", "1")
    assert r.returncode == 0 and len(results.read_text().splitlines()) == 5, r.stdout + r.stderr
    r = _cli("report", str(results), "-f", "md")
    assert r.returncode == 0 and "gold.py" in r.stdout, r.stdout + r.stderr
