"""``adequacy check`` and ``submit`` inside the gym shell: the broker outside the sandbox runs
them, and runs nothing else.

Attacks from inside the shell: ``--spec`` pointing out of the folder, into ``gym.json``, at a
link made in the shell to the source task's hidden cases or to the grader's key; another folder;
``--again`` and ``--source``; other subcommands; raw requests on the socket (no token, a wrong
token, not JSON, too long, never finished, many at once). And from outside: another user of
the machine reaching the socket without the token.
"""

from __future__ import annotations

import json
import os
import socket
from pathlib import Path

import pytest
from gym_support import GOLD, JML, installation, leaks, make_gym

from adequacy.gym.broker import Broker
from adequacy.gym.manifest import read_manifest
from adequacy.gym.shell import run_shell
from adequacy.gym.state import read_state
from adequacy.sandbox.exec_lock import python
from adequacy.scoring import trust


@pytest.fixture
def gym(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    installation(tmp_path, monkeypatch)
    g, _ = make_gym(tmp_path)
    return g


def _sh(folder: Path, script: str, timeout: float = 60) -> str:
    return run_shell(folder, ["bash", "-c", script], timeout=timeout).text()


def test_check_then_submit_once_from_inside(gym: Path) -> None:
    folder = gym / "euclid_mod"
    hidden = leaks().hidden_cases(gym)
    out = _sh(folder, "adequacy check; echo rc=$?; cp spec.rs flawed.rs; "
                      f"cat > spec.rs <<'EOF'\n{GOLD}EOF\n"
                      "adequacy check --spec spec.rs; echo rc=$?; adequacy submit; echo rc=$?; "
                      "adequacy submit; echo rc=$?")
    assert out.count("visible cases passed") == 2 and "rc=0" in out
    assert "PASS: yes" in out and "already submitted" in out and "rc=2" in out
    assert leaks().leaks_in(out, hidden) == []
    st = read_state(folder)
    assert st.checks == 2 and st.submissions == 1
    assert "x() -> bool" not in (folder / "spec.rs").read_text()
    assert (folder / "flawed.rs").is_file()  # the shell's files came back


def test_nothing_but_the_agents_files_reaches_the_grader(gym: Path, tmp_path: Path) -> None:
    folder = gym / "euclid_mod"
    source = Path(read_manifest(folder).source)
    key = trust.grader_home() / trust.KEY_FILE
    trust.grader_key()
    secrets = [read_manifest(folder).source, read_manifest(folder).seal,
               (source / "tests" / "post_sound.jsonl").read_text()[:60]]
    script = "; ".join([
        "adequacy check --spec /etc/passwd", "adequacy check --spec ../gym.json",
        "adequacy check --spec gym.json", "adequacy check --spec .gym/state.json",
        f"ln -s {source}/tests/post_sound.jsonl hidden.rs", "adequacy check --spec hidden.rs",
        f"ln -s {key} key.rs", "adequacy check --spec key.rs",
        "mkdir -p d && ln -s / d/root", "adequacy check --spec d/root/etc/hostname",
        "adequacy check /tmp", f"adequacy check {gym / 'binary_search_first'}",
        "adequacy submit --again", f"adequacy submit --source {source}",
        "adequacy run --tasks .", "adequacy gym make . /tmp/x", "adequacy report x",
        "adequacy check --case-timeout nan", "adequacy check --case-timeout 1e9 --spec",
        "cd /tmp && adequacy check", "echo done"])
    out = _sh(folder, script)
    assert "done" in out and "Traceback" not in out
    assert out.count("adequacy: ") == 17, out
    assert "'/etc/passwd' is outside the task's folder" in out
    assert not any(s in out for s in secrets)
    assert leaks().leaks_in(out, leaks().hidden_cases(gym)) == []
    assert read_state(folder).submissions == 0


def _raw(sock: str, payload: bytes, timeout: float = 30) -> dict[str, object]:
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(timeout)
    s.connect(sock)
    if payload:
        s.sendall(payload)
    s.shutdown(socket.SHUT_WR)
    data = b""
    while chunk := s.recv(65536):
        data += chunk
    return dict(json.loads(data))


def test_raw_requests_on_the_socket(gym: Path, tmp_path: Path) -> None:
    folder = gym / "euclid_mod"
    found = python()
    assert found is not None
    work = tmp_path / "work"
    work.mkdir()
    (work / "spec.rs").write_text(GOLD)
    with Broker(folder, work, found[0]) as b:
        sock = str(b.socket_path)
        good = {"token": b.token, "argv": ["check"], "cwd": str(work)}
        for bad in (b"", b"not json\n", b"[1,2]\n", json.dumps({**good, "token": "x"}).encode(),
                    json.dumps({k: v for k, v in good.items() if k != "token"}).encode(),
                    json.dumps({**good, "argv": "check"}).encode(),
                    json.dumps({**good, "argv": ["check"] * 40}).encode(),
                    json.dumps({**good, "cwd": "/"}).encode(),
                    json.dumps({**good, "cwd": "relative"}).encode(),
                    b'{"token": "' + b"a" * 100_000 + b'"}\n'):
            ans = _raw(sock, bad)
            assert ans["code"] == 2 and "adequacy:" in str(ans["stderr"]), (bad[:60], ans)
        # a client that never finishes its request is cut off; the broker serves the next
        slow = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        slow.connect(sock)
        slow.sendall(b'{"token": ')
        ans = _raw(sock, json.dumps(good).encode() + b"\n", timeout=60)
        slow.close()
        assert ans["code"] == 0 and "3 of 3 visible cases passed" in str(ans["stdout"])
        assert b.served >= 11
        # the socket's folder: others may pass through but not list it
        assert oct(os.stat(b.dir).st_mode & 0o777) == "0o711"
    assert not b.dir.exists()


@pytest.mark.slow
@pytest.mark.requires("javac")
def test_check_in_the_shell_on_a_jml_task(tmp_path: Path) -> None:
    # this installation's own folders: the Java workers are built once per cache folder
    gym, _ = make_gym(tmp_path, JML / "abs_value")
    folder = gym / "jml_abs_value"
    out = _sh(folder, "adequacy check; echo rc=$?", timeout=180)
    assert "visible cases passed" in out and "rc=" in out
    assert leaks().leaks_in(out, leaks().hidden_cases(gym)) == []
