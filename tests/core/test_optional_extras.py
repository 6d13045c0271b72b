"""Without an optional extra (``optimize``: dspy, ``gym``: mcp, ``ray``, ``inspect``:
inspect_ai, ``hf``: datasets) the suite still
collects: the tests that need it are skipped with a line naming the extra, never a
collection error. Checked by collecting the whole suite in a child interpreter where those
packages cannot be imported (a meta-path finder refuses them, as if never installed)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

_HIDE = """
import importlib.abc, sys
HIDDEN = {"dspy", "mcp", "ray", "inspect_ai", "datasets"}
class Hide(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in HIDDEN:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None
sys.meta_path.insert(0, Hide())
import pytest
sys.exit(pytest.main(sys.argv[1:]))
"""


@pytest.mark.slow
def test_suite_collects_without_the_optional_extras() -> None:
    proc = subprocess.run([sys.executable, "-c", _HIDE, "--collect-only", "-q", "-rs",
                           "-p", "no:cacheprovider", str(REPO / "tests")],
                          cwd=REPO, env=dict(os.environ), capture_output=True, text=True,
                          timeout=600)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out[-3000:]
    assert "error" not in out.splitlines()[-1].lower(), out[-3000:]
    skipped = [ln for ln in out.splitlines() if ln.startswith("SKIPPED")]
    for extra, module in (("optimize", "tests/optimizers/test_programs.py"),
                          ("gym", "tests/gym/test_mcp.py"),
                          ("ray", "tests/core/test_ray_executor.py"),
                          ("inspect", "tests/ecosystem/test_inspect.py"),
                          ("hf", "tests/ecosystem/test_hf_dataset.py")):
        assert any(module in ln for ln in skipped), (extra, skipped)
