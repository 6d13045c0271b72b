"""The gym shell binds its tool chain, never what the caller's PATH happens to name.

Attacks: PATH entries above the source tasks, equal to ``/``, to the gym root, to the grader's
folder and to the verdict cache; ``--ro`` folders above, inside or linked to a source task, a
neighbour's gym folder or the grader's files; tasks kept under a system folder; a command name
that only the caller's PATH resolves; the environment the command inherits (the MCP server's
PATH, the grader's and the cache's variables).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from gym_support import installation, leaks, make_gym

from adequacy.errors import ShellError, ViewRefused
from adequacy.gym import GymTools
from adequacy.gym.manifest import read_manifest
from adequacy.gym.shell import run_shell
from adequacy.gym.shell_view import SYSTEM_PATH, shell_view


@pytest.fixture
def setup(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path, Path]:
    home = installation(tmp_path, monkeypatch)
    gym, src = make_gym(tmp_path)
    return home, gym, src


def test_no_path_entry_is_bound(setup: tuple[Path, Path, Path], tmp_path: Path,
                                monkeypatch: pytest.MonkeyPatch) -> None:
    home, gym, src = setup
    folder = gym / "euclid_mod"
    hidden = leaks().hidden_cases(gym)
    source = Path(read_manifest(folder).source)
    entries = [str(tmp_path), str(src), str(source / "tests"), str(gym), "/",
               str(home / "grader-home"), str(home / "cache"), str(Path(sys.executable).parent)]
    monkeypatch.setenv("PATH", os.pathsep.join([*entries, os.environ["PATH"]]))
    script = (f"cat {source}/tests/*.jsonl; ls {src} {gym} {home}; cat /work/*/README.md; "
              "ls /root /home; echo PATH=$PATH; command -v pytest python3")
    for out in (run_shell(folder, ["bash", "-c", script]).text(),
                GymTools(gym).shell("euclid_mod", script)):
        assert leaks().leaks_in(out, hidden) == []
        path = out.split("PATH=", 1)[1].split()[0].split(os.pathsep)
        assert not set(entries) & set(path), path
        assert [p for p in path if not p.startswith("/tmp/adequacy-gym-")] == \
            [p for p in SYSTEM_PATH if os.path.isdir(p)]
        assert "/usr/bin/python3" in out and "bin/pytest" not in out


def test_a_command_only_the_callers_path_knows_does_not_run(setup: tuple[Path, Path, Path],
                                                           tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    _, gym, src = setup
    tools = tmp_path / "tools"
    tools.mkdir()
    os.chmod(tmp_path, 0o755)
    spy = tools / "leak-it"
    spy.write_text(f"#!/bin/sh\ncat {src}/*/tests/*.jsonl\n")
    spy.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tools}{os.pathsep}{os.environ['PATH']}")
    r = run_shell(gym / "euclid_mod", ["leak-it"])
    assert r.returncode != 0 and leaks().leaks_in(r.stdout, leaks().hidden_cases(gym)) == []


def test_the_environment_is_built_not_inherited(setup: tuple[Path, Path, Path],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    _, gym, _ = setup
    monkeypatch.setenv("OPENAI_API_KEY", "sk-secret-of-the-server")
    monkeypatch.setenv("JAVA_HOME", "/usr/lib/jvm/whatever")
    out = GymTools(gym).shell("euclid_mod", "env")
    names = {ln.split("=", 1)[0] for ln in out.splitlines() if "=" in ln}
    assert names <= {"PATH", "HOME", "LANG", "PWD", "SHLVL", "_", "OLDPWD",
                     "ADEQUACY_GYM_SOCKET", "ADEQUACY_GYM_TOKEN"}, names
    assert "sk-secret" not in out


def test_ro_folders_that_hold_or_lie_in_what_is_withheld_are_refused(
        setup: tuple[Path, Path, Path], tmp_path: Path) -> None:
    home, gym, src = setup
    folder = gym / "euclid_mod"
    link = tmp_path / "innocent-looking"
    link.symlink_to(src / "binary_search_first")
    for ro in (tmp_path, src, src / "euclid_mod", src / "euclid_mod" / "tests",
               src / "binary_search_first",  # a neighbour's source
               gym, gym / "binary_search_first",  # a neighbour's gym folder (its .gym/)
               folder / "example", link, home / "grader-home", home / "cache"):
        with pytest.raises(ShellError):
            run_shell(folder, ["true"], extra_ro=[ro])
    # the CLI says why in one line, exit 2
    r = subprocess.run([sys.executable, "-m", "adequacy", "gym", "shell", str(folder), "--ro",
                        str(src), "--", "true"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "source task" in r.stderr and "Traceback" not in r.stderr


def test_an_mcp_server_withholds_every_folder_it_serves(setup: tuple[Path, Path, Path],
                                                       tmp_path: Path) -> None:
    _, gym, src = setup
    # a second gym elsewhere, served by the same server as the first
    other = tmp_path / "elsewhere"
    other.mkdir()
    gym2, src2 = make_gym(other)
    with pytest.raises(ShellError, match="source task"):
        run_shell(gym / "euclid_mod", ["true"], extra_ro=[src2],
                  withheld=[gym2 / "euclid_mod"])


def test_tasks_under_a_system_folder_stop_the_shell() -> None:
    withheld = [(Path("/usr/share"), "a source task (its hidden cases)")]
    with pytest.raises(ViewRefused, match="system folder /usr"):
        shell_view([], withheld)
    # and a PATH-like folder that holds nothing withheld is simply not bound unless named
    sv = shell_view([], [(Path("/nonexistent-task"), "a source task")])
    assert sv.view.ro == () and sv.path.split(os.pathsep) == [
        p for p in SYSTEM_PATH if os.path.isdir(p)]
