"""In a pipe (a CI log, ``| grep``, ``| less``) no command wraps a line: rich assumed 80
columns there and broke ``task validate``'s counts, ``backends``' versions and reasons,
``import``'s counts and ``gym make``'s folder lines in two. Each command runs as a child with
its stdout a pipe and COLUMNS=80, as a CI runner sets it; each long line it prints must arrive
whole on one line."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from adequacy.examples import bundled_folder
from adequacy.extensions import registry

REPO = Path(__file__).resolve().parents[2]
VERUS = bundled_folder("verus")


def adequacy(*args: str | Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "80", "TERM": "dumb"}
    return subprocess.run([sys.executable, "-m", "adequacy", *map(str, args)],
                          capture_output=True, text=True, timeout=600, env=env)


def test_task_validate_lines_are_whole() -> None:
    proc = adequacy("task", "validate", VERUS)
    assert proc.returncode == 0, proc.stderr
    tasks = sorted(p.name for p in VERUS.iterdir() if (p / "task.toml").is_file())
    line = re.compile(r"^ok  \S+  \((\w+): pre_complete \d+, pre_sound \d+, post_complete \d+, "
                      r"post_sound \d+\)$", re.M)
    assert sorted(line.findall(proc.stdout)) == tasks, proc.stdout
    assert any(len(ln) > 80 for ln in proc.stdout.splitlines())  # the point of the test


def test_backends_lines_are_whole() -> None:
    proc = adequacy("backends")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    # one row per engine: every row of the table names a backend at its start
    header = next(i for i, ln in enumerate(lines) if ln.startswith("backend "))
    rows = []
    for ln in lines[header + 2:]:
        if not ln.strip() or "/" in ln.split()[0]:
            break
        rows.append(ln)
    installed = {b.name for b in registry.registry().backends.values()}
    assert rows and all(r.split()[0] in installed for r in rows), rows
    assert sum(ln.startswith("backend ") for ln in lines) == 1  # one table, not slices
    reasons = [ln for ln in lines if re.match(r"^\w+/\w+: ", ln)]
    assert reasons
    # after the table: only whole lines, each an engine's reason or a sandbox protection
    rest = lines[lines.index(reasons[0]):]
    assert all(re.match(r"^(\w+/\w+|sandbox): ", ln) for ln in rest if ln.strip()), rest


def test_gym_make_lines_are_whole(tmp_path: Path) -> None:
    out = tmp_path / ("a-long-folder-name-so-that-the-line-is-wider-than-eighty-columns" * 2)
    proc = adequacy("gym", "make", VERUS / "euclid_mod", VERUS / "is_palindrome", out)
    assert proc.returncode == 0, proc.stderr
    made = re.findall(r"^(\S+)  \(\d+ visible, example \S+\)$", proc.stdout, re.M)
    assert sorted(Path(m).name for m in made) == ["euclid_mod", "is_palindrome"], proc.stdout


@pytest.mark.slow
def test_import_lines_are_whole(tmp_path: Path) -> None:
    proc = adequacy("import", "package", bundled_folder("packages"), tmp_path / "out")
    assert proc.returncode == 0, proc.stderr
    counts = [ln for ln in proc.stdout.splitlines() if ln.startswith("counts: ")]
    assert len(counts) == 1 and len(counts[0]) > 80
    # the whole counts line: every "name N" pair, none broken onto the next line
    pairs = counts[0].removeprefix("counts: ").split(", ")
    assert all(re.fullmatch(r"[a-z][a-z: -]*[a-z] \d+", p) for p in pairs), pairs
