"""CI runs the README's two commands exactly as written.

The README opens with two commands: the first a new user types (install the core, score a
bundled spec), the second the one that installs everything and runs the suite. A README that
fails on a fresh machine while CI passes means CI ran something else, so ``.ci/run`` must hold
each command as one of its lines, unchanged, and run the first one in a fresh venv (no extras
can hide a missing dependency) before the second."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def readme_commands(text: str) -> list[str]:
    """The commands of the README's first two ```bash blocks, one per block."""
    blocks = re.findall(r"^```bash\n(.*?)^```", text, flags=re.M | re.S)
    commands = []
    for block in blocks[:2]:
        lines = [ln for ln in block.splitlines() if ln.strip()]
        assert len(lines) == 1, f"a README command block should be one command line: {lines}"
        commands.append(lines[0].strip())
    return commands


def test_readme_blocks_are_found() -> None:
    got = readme_commands("intro\n```bash\na && b\n```\ntext\n```bash\nc\n```\n```bash\nd\n```\n")
    assert got == ["a && b", "c"]


def test_ci_runs_both_readme_commands_verbatim() -> None:
    first, second = readme_commands((REPO / "README.md").read_text(encoding="utf-8"))
    ci = [ln.strip() for ln in (REPO / ".ci/run").read_text(encoding="utf-8").splitlines()]
    assert first in ci, f".ci/run does not run the README's first command as written:\n{first}"
    assert second in ci, f".ci/run does not run the README's test command as written:\n{second}"
    # The first runs first, in a venv made fresh for it: nothing an earlier install (with
    # extras) left behind can supply a dependency the core install lacks.
    at_first, at_second = ci.index(first), ci.index(second)
    assert at_first < at_second
    venv = re.search(r"python3 -m venv (\S+)", first)
    assert venv is not None, "the first command makes its own venv"
    removed = [i for i, ln in enumerate(ci) if ln == f"rm -rf {venv.group(1)}"]
    assert removed and removed[0] < at_first, f"{venv.group(1)} is not removed before it"
    assert not re.search(r"pip install[^&]*\[", first), "the first command installs no extras"
