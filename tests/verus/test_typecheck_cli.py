"""`--lenient` can never make an ill-typed spec pass: the front end refuses it first (exit 3).

The issue's example: binary_search_first's gold with `input.target` misspelt `input.targt`
scored PASSED ALL under `--lenient` (exec_spec's rustc error became `unknown`). Run through the
real CLI, in a subprocess, as a user would.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from adequacy.examples import bundled_folder

REPO = Path(__file__).resolve().parents[2]
EX = bundled_folder("verus")


def _line_of(text: str, needle: str) -> int:
    return text[:text.index(needle)].count("\n") + 1


@pytest.mark.parametrize("task,old,new,message", [
    ("binary_search_first", "input.target", "input.targt", "no field `targt` on type `Input`"),
    ("binary_search_first", "input.arr.len() ==>", "input.arr.size() ==>",
     "no method named `size`"),
    ("euclid_mod", "output.result == input.a % input.b", "input.a % input.b",
     "mismatched types"),
])
@pytest.mark.parametrize("mode", ["--lenient", "--strict"])
@pytest.mark.slow
def test_ill_typed_spec_exits_3_under_any_scoring(tmp_path: Path, task: str, old: str,
                                                  new: str, message: str, mode: str) -> None:
    task_dir = EX / task
    gold = (task_dir / "specs" / "gold.rs").read_text(encoding="utf-8")
    spec = tmp_path / "spec.rs"
    spec.write_text(gold.replace(old, new, 1), encoding="utf-8")
    r = subprocess.run([sys.executable, "-m", "adequacy", "score", str(task_dir), str(spec), mode,
                        "--no-cache"], capture_output=True, text=True, timeout=300,
                       cwd=tmp_path)
    out = " ".join((r.stdout + r.stderr).split())
    assert r.returncode == 3, out
    assert "PASSED ALL" not in out
    assert message in out
    assert f"spec.rs:{_line_of(gold, old.strip())}" in out
    assert "Traceback" not in out
