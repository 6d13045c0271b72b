"""Red-team cases of the gym shell: what an agent's command leaves behind must not break the
shell for the commands after it, nor leave the working copy on the host."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from adequacy.examples import bundled_folder
from adequacy.gym import make_gym
from adequacy.gym.private import MAX_DEPTH
from adequacy.gym.shell import available, run_shell

pytestmark = pytest.mark.skipif(available() is not None, reason=str(available()))

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    make_gym([bundled_folder("verus") / "euclid_mod"], tmp_path / "gym", visible=3, seed=0)
    return tmp_path / "gym" / "euclid_mod"


def _leftovers() -> set[str]:
    return {p.name for p in Path(tempfile.gettempdir()).glob("adequacy-shell-*")}


def test_folders_nested_a_thousand_deep_do_not_break_later_commands(folder: Path) -> None:
    before = _leftovers()
    deep = ("python3 -c \"import os\nfor _ in range(1100): os.mkdir('d'); os.chdir('d')\" "
            "&& echo made")
    r = run_shell(folder, ["bash", "-c", deep])
    assert "made" in r.stdout, r.text()
    # the folder keeps the tree only to MAX_DEPTH, and the next command still runs
    kept = folder.joinpath(*["d"] * MAX_DEPTH)
    assert kept.is_dir() and not (kept / "d").exists()
    again = run_shell(folder, ["bash", "-c", "echo still-here"])
    assert "still-here" in again.stdout and again.returncode == 0
    assert _leftovers() - before == set()  # the working copy was removed, deep as it was


def test_a_folder_named_like_the_copy_back_temporary_does_not_stop_the_copy(
        folder: Path) -> None:
    r = run_shell(folder, ["bash", "-c", "mkdir .spec.rs.shell-tmp; echo '// mine' >> spec.rs"])
    assert r.returncode == 0, r.text()
    assert (folder / "spec.rs").read_text().endswith("// mine\n")
    assert not [p for p in folder.iterdir() if p.name.startswith(".shell-tmp-")]


@pytest.mark.xfail(strict=True, reason="hole open: the working copy lives on the host's /tmp "
                   "with no size cap, so a command can fill the host's disk (each file is "
                   "capped at 64 MiB, their number and total are not); only the copy back is "
                   "budgeted. A fix needs a size-capped file system for the copy.")
def test_the_working_copy_cannot_grow_past_the_folder_budget(folder: Path) -> None:
    r = run_shell(folder, ["bash", "-c", "for i in 1 2 3; do head -c 40M /dev/zero > big$i "
                           "|| echo FULL; done; rm -f big*"])
    assert "FULL" in r.stdout, r.text()


@pytest.mark.slow
def test_a_command_that_keeps_writing_is_killed_past_the_work_budget(folder: Path) -> None:
    """Not the exact cap the xfail above asks for, but a bound: the watchdog kills the command
    once its copy passes 256 MiB (checked four times a second)."""
    r = run_shell(folder, ["bash", "-c", "for i in $(seq 1 40); do head -c 60M /dev/zero > "
                           "big$i; done; echo finished"], timeout=60)
    assert any("grew past 256 MiB" in n for n in r.notes), r.text()
    assert "finished" not in r.stdout
    back = sum(p.stat().st_size for p in folder.glob("big*"))
    assert back <= 64 * 1024 * 1024  # only the copy-back budget comes back


def test_a_nan_time_limit_is_refused_with_a_message(folder: Path) -> None:
    from adequacy.gym.tools import GymTools
    text = GymTools(folder.parent).shell("euclid_mod", "echo hi", float("nan"))
    assert text.startswith("error") and "time limit" in text, text
