"""`adequacy optimize` prints its own table, not DSPy's INFO lines and GEPA's tqdm bar, unless
`-v`. A real subprocess (tqdm reads its switch when first imported), over litellm's HTTP path
to the fake endpoint."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from adequacy.examples import bundled_folder
from fake_endpoint import FakeEndpoint, fields

from .conftest import gold


def _reply(prompt: str, i: int) -> str:
    return fields(spec=f"```rust\n{gold('verus', 'binary_search_first')}```",
                  new_instruction="Write the whole spec.")


def _optimize(tmp: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    with FakeEndpoint(_reply) as srv:
        env = {**os.environ, "OPENAI_API_KEY": "sk-test-not-a-key", "COLUMNS": "80"}
        env.pop("TQDM_DISABLE", None)
        return subprocess.run(
            [sys.executable, "-m", "adequacy", "optimize", str(bundled_folder("verus")), "-o",
             str(tmp / "out"), "--split", "3/2/2", "--max-metric-calls", "4", "--lm",
             "openai/served-model", "--api-base", srv.base, "--no-cache", "--retry-wait", "0",
             *extra], capture_output=True, text=True, env=env, timeout=600)


@pytest.mark.slow
def test_optimize_is_quiet_unless_verbose(tmp_path: Path) -> None:
    quiet = _optimize(tmp_path / "q")
    assert quiet.returncode == 0, quiet.stderr[-2000:]
    both = quiet.stdout + quiet.stderr
    assert "chosen on validation" in quiet.stdout  # the command's own summary is there
    assert " INFO " not in both and "GEPA Optimization" not in both and "it/s" not in both
    assert "it/s" in (tmp_path / "q" / "out" / "library.log").read_text()  # kept, not lost
    loud = _optimize(tmp_path / "v", "-v")
    assert loud.returncode == 0, loud.stderr[-2000:]
    # the same run with -v shows what was hidden (so the check above can fail)
    assert " INFO dspy" in loud.stderr and "GEPA Optimization" in loud.stderr
    assert "it/s" in loud.stdout
