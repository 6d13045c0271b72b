"""A first exec_spec score in a pipe says what cargo is doing instead of being silent."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from adequacy.examples import bundled_folder

TASK = bundled_folder("verus") / "binary_search_first"


@pytest.mark.slow
@pytest.mark.requires("cargo", "bwrap")
def test_a_harness_build_reports_progress_on_a_piped_stderr(tmp_path: Path) -> None:
    # a spec never seen (a fresh comment): its harness is compiled now
    spec = tmp_path / "gold.rs"
    spec.write_text((TASK / "specs" / "gold.rs").read_text()
                    + f"\n// built for the progress test {uuid.uuid4().hex}\n")
    env = dict(os.environ, ADEQUACY_PROGRESS_EVERY="0")
    env.pop("ADEQUACY_PROGRESS", None)
    r = subprocess.run([sys.executable, "-m", "adequacy", "score", str(TASK), str(spec),
                        "--engine", "exec_spec", "--no-cache", "--json"], env=env,
                       capture_output=True, text=True, timeout=1800)
    assert r.returncode == 0, r.stderr
    lines = r.stderr.splitlines()
    assert any(ln.startswith("exec_spec: cargo builds") and ": running" in ln
               for ln in lines), lines
    assert any(ln.startswith("exec_spec: cargo builds") and ": done" in ln for ln in lines)
    assert json.loads(r.stdout)["status"] == "scored"  # stdout holds the report alone
