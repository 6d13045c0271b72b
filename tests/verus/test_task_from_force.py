"""Red-team case of ``adequacy task from --force``: replacing DEST must never delete the program
the task is to be written from (regenerating a task from a program kept in its own folder), nor
follow a symbolic link named DEST into another task folder."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PROGRAM = REPO / "tests" / "fixtures" / "programs" / "count_below.rs"


def _task_from(program: Path, dest: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-m", "adequacy", "task", "from", str(program),
                           str(dest), "-f", "count_below", "--force"], capture_output=True,
                          text=True, env=env, timeout=300)


def test_force_does_not_delete_the_program_inside_dest(tmp_path: Path) -> None:
    dest = tmp_path / "t"
    assert _task_from(PROGRAM, dest).returncode == 0
    mine = dest / "notes" / "prog.rs"
    mine.parent.mkdir()
    shutil.copy(PROGRAM, mine)
    r = _task_from(mine, dest)
    assert r.returncode == 2 and "inside" in r.stderr and "Traceback" not in r.stderr
    assert mine.read_text() == PROGRAM.read_text()  # the user's program is still there
    assert (dest / "task.toml").is_file()


def test_force_does_not_replace_through_a_symlink(tmp_path: Path) -> None:
    real = tmp_path / "real"
    assert _task_from(PROGRAM, real).returncode == 0
    (real / "keep.txt").write_text("mine")
    link = tmp_path / "link"
    link.symlink_to(real)
    r = _task_from(PROGRAM, link)
    assert r.returncode == 2 and "not a task folder" in r.stderr, r.stderr
    assert (real / "keep.txt").read_text() == "mine"
