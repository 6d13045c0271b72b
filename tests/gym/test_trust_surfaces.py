"""The gym's surfaces agree with each other and with its instructions.

- the shell binds no folder because it is on PATH (a PATH entry above the source tasks gave a
  command the hidden cases), and the MCP ``bash`` tool does not hand the server's PATH down;
- what is private in a gym folder is one rule for every surface (MCP ``read_file`` returned
  ``gym.json``, which names the source task), and the submit-once state is the grader's (an
  agent that rewrote ``.gym/state.json`` got a second graded submission);
- ``adequacy check``, as INSTRUCTIONS.md says, works from inside ``adequacy gym shell``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from adequacy.examples import bundled_folder
from adequacy.gym import GymTools, submit
from adequacy.gym.manifest import read_manifest
from adequacy.gym.shell import available, run_shell

from .leaks import hidden_cases, leaks_in

needs_shell = pytest.mark.skipif(available() is not None, reason=str(available()))
GOLD = (bundled_folder("verus") / "euclid_mod" / "specs"
        / "gold.rs").read_text()


@needs_shell
def test_a_path_entry_above_the_source_tasks_is_not_bound(gym: Path, sources: Path,
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    folder = gym / "euclid_mod"
    src = Path(read_manifest(folder).source)
    # the caller's PATH holds a folder above every source task (and above the gym)
    monkeypatch.setenv("PATH", f"{sources.parent}{os.pathsep}{os.environ['PATH']}")
    r = run_shell(folder, ["bash", "-c", f"cat {src}/tests/*.jsonl; ls {sources}; "
                                         "echo PATH=$PATH"])
    assert leaks_in(r.stdout + r.stderr, hidden_cases(gym)) == []
    assert "No such file" in r.stderr
    path = r.stdout.split("PATH=", 1)[1].split()[0]
    assert str(sources.parent) not in path.split(os.pathsep)
    # the MCP bash tool: neither the folder nor the server's PATH
    out = GymTools(gym).shell("euclid_mod", f"cat {src}/tests/*.jsonl; echo PATH=$PATH")
    assert leaks_in(out, hidden_cases(gym)) == []
    assert str(sources.parent) not in out.split("PATH=", 1)[1].split()[0].split(os.pathsep)


def test_no_tool_reads_the_gym_files_and_a_rewritten_state_gives_no_second_grade(
        gym: Path) -> None:
    folder = gym / "euclid_mod"
    tools = GymTools(gym)
    source = read_manifest(folder).source
    for path in ("gym.json", ".gym/state.json", ".gym/task/tests/post_complete.jsonl", ".gym"):
        out = tools.read_file("euclid_mod", path)
        assert out.startswith("error:") and source not in out, (path, out)
    listing = tools.read_file("euclid_mod", ".")
    assert "gym.json" not in listing and ".gym" not in listing and "spec.rs" in listing
    rec = submit(folder, GOLD)
    assert rec.passed_all and rec.submission == 1
    # the agent rewrites every state file it can find in the folder, then submits again
    state = {"checks": 0, "submissions": 0}
    (folder / ".gym" / "state.json").write_text(json.dumps(state))
    for p in (folder / ".gym").glob("*.lock"):
        p.unlink()
    (folder / ".gym" / "submissions.jsonl").unlink()
    out = tools.submit("euclid_mod", GOLD)
    assert out.startswith("error:") and "already submitted" in out


@needs_shell
def test_check_works_from_inside_the_gym_shell(gym: Path) -> None:
    folder = gym / "euclid_mod"
    instructions = (folder / "INSTRUCTIONS.md").read_text()
    assert "adequacy check" in instructions
    (folder / "spec.rs").write_text(GOLD)
    r = run_shell(folder, ["bash", "-c", "adequacy check; echo exit=$?"])
    assert "check: 3 of 3 visible cases passed" in r.stdout, r.text()
    assert "exit=0" in r.stdout
    assert leaks_in(r.stdout + r.stderr, hidden_cases(gym)) == []
    # as an agent runs it, with the options where docs/gym.md writes them
    p = subprocess.run([sys.executable, "-m", "adequacy", "gym", "shell", str(folder),
                        "--timeout", "120", "--", "adequacy", "check"],
                       capture_output=True, text=True, timeout=180)
    assert p.returncode == 0 and "check: 3 of 3 visible cases passed" in p.stdout, p.stderr
