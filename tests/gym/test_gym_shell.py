"""The agent's sandboxed shell (``adequacy gym shell``, the MCP ``bash`` tool): it sees only its
gym folder's own files, cannot read the source task named in ``gym.json``, cannot write outside
the folder nor touch the gym's state, has no network and leaves no process behind."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import pytest

from adequacy.gym.manifest import read_manifest
from adequacy.gym.shell import available, run_shell

pytestmark = pytest.mark.skipif(available() is not None, reason=str(available()))

REPO = Path(__file__).resolve().parents[2]


def _folder(gym: Path) -> Path:
    return gym / "euclid_mod"


def test_the_source_task_named_in_the_manifest_cannot_be_read(gym: Path) -> None:
    folder = _folder(gym)
    source = Path(read_manifest(folder).source)
    hidden = next(source.glob("tests/*.jsonl"))
    assert hidden.is_file()  # readable here, outside
    r = run_shell(folder, ["bash", "-c", f"cat {hidden}; ls {source}; cat gym.json; ls -a"])
    assert hidden.read_text()[:40] not in r.stdout
    assert "No such file" in r.stderr
    listed = r.stdout.split()
    assert "gym.json" not in listed and ".gym" not in listed
    assert "spec.rs" in listed and "statement.md" in listed


def test_edits_are_kept_and_the_gym_state_is_not_touched(gym: Path) -> None:
    folder = _folder(gym)
    manifest = (folder / "gym.json").read_text()
    state = sorted(p.name for p in (folder / ".gym").iterdir())
    r = run_shell(folder, ["bash", "-c",
                           "echo 'pub open spec fn x() -> bool { true }' >> spec.rs && "
                           "mkdir -p notes && echo hi > notes/a.txt && rm statement.md && "
                           "printf '{}' > gym.json; mkdir -p .gym && echo 9 > .gym/state.json; "
                           "ln -s /etc/passwd link && echo done"])
    assert r.returncode == 0, r.text()
    assert "x() -> bool" in (folder / "spec.rs").read_text()
    assert (folder / "notes" / "a.txt").read_text() == "hi\n"
    assert not (folder / "statement.md").exists()
    assert not (folder / "link").exists() and not (folder / "link").is_symlink()
    assert any("link" in n for n in r.notes)
    assert (folder / "gym.json").read_text() == manifest
    st = folder / ".gym" / "state.json"
    assert not st.exists() or "9" not in st.read_text()
    assert set(state) <= {p.name for p in (folder / ".gym").iterdir()}


def test_nothing_outside_the_folder_is_written(gym: Path, tmp_path: Path) -> None:
    folder = _folder(gym)
    victim = tmp_path / "victim.txt"
    victim.write_text("before")
    mark = f"/tmp/adequacy-shell-test-{uuid.uuid4().hex}"
    r = run_shell(folder, ["bash", "-c",
                           f"echo pwned > {victim}; echo x > {mark}; echo x > {REPO}/pwned; "
                           f"echo x > ../escape; cat {mark}"])
    assert victim.read_text() == "before"
    assert not os.path.exists(mark)  # the child's /tmp is its own
    assert not (REPO / "pwned").exists()
    assert not (folder.parent / "escape").exists()
    assert "x" in r.stdout  # it did write its private /tmp


def test_no_network_and_no_process_left_behind(gym: Path) -> None:
    folder = _folder(gym)
    tag = uuid.uuid4().hex[:12]
    script = (f"(exec -a sleeper-{tag} sleep 300) & disown; setsid sleep 301 & "
              "python3 -c \"import socket; socket.create_connection(('1.1.1.1', 53), 2)\" "
              "2>&1 | tail -1; echo started")
    r = run_shell(folder, ["bash", "-c", script], timeout=20)
    assert "started" in r.stdout
    assert "Network is unreachable" in r.stdout or "Errno" in r.stdout
    time.sleep(0.5)
    ps = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout
    assert f"sleeper-{tag}" not in ps and "sleep 301" not in ps


def test_the_time_limit_kills_the_command(gym: Path) -> None:
    start = time.monotonic()
    r = run_shell(_folder(gym), ["bash", "-c", "echo begun; sleep 60"], timeout=2)
    assert r.timed_out and time.monotonic() - start < 20
    assert "begun" in r.stdout and "time limit" in r.text()


def test_the_cli_runs_the_command_and_passes_its_exit_code(gym: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    run = subprocess.run([sys.executable, "-m", "adequacy", "gym", "shell", str(_folder(gym)),
                          "--", "bash", "-c", "ls; exit 7"], capture_output=True, text=True,
                         env=env, timeout=120)
    assert run.returncode == 7, run.stderr
    assert "spec.rs" in run.stdout
    bad = subprocess.run([sys.executable, "-m", "adequacy", "gym", "shell", str(gym / "nope"),
                          "--", "ls"], capture_output=True, text=True, env=env, timeout=120)
    assert bad.returncode == 2 and "error:" in bad.stderr and "Traceback" not in bad.stderr


def test_the_mcp_bash_tool_is_off_by_default_and_confined(gym: Path) -> None:
    pytest.importorskip("mcp", reason="the MCP server needs the gym extra")
    import anyio
    from mcp import Client

    from adequacy.gym.mcp_server import build_server

    source = read_manifest(_folder(gym)).source

    async def go(shell: bool) -> tuple[set[str], Any]:
        async with Client(build_server(gym, shell=shell)) as client:
            names = {t.name for t in (await client.list_tools()).tools}
            if "bash" not in names:
                return names, None
            return names, await client.call_tool(
                "bash", {"task_id": "euclid_mod", "command": f"ls {source}; ls"})

    names, _ = anyio.run(go, False)
    assert "bash" not in names
    names, res = anyio.run(go, True)
    assert "bash" in names
    text = res.content[0].text
    assert "spec.rs" in text and "No such file" in text and "[exit 0]" in text
    assert not json.dumps(res.structured_content or {}).count("tests/")
