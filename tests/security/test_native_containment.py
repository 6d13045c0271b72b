"""Native code that escaped the Verus front end is still contained by the sandbox.

``hostile.rs`` is compiled with rustc directly (bypassing the front end on purpose) and run
exactly as the exec_spec engine runs a harness (same limits, environment and view). Each action
must be refused or contained: nothing read outside the sandbox, nothing written outside it, no
other program run, no connection made, and no process left behind.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from containment_support import alive, descendants, procs_with, wait_until

from adequacy import sandbox
from adequacy.extensions.backend import Limits
from adequacy.sandbox import exec_lock, views
from adequacy_verus.exec_spec import cargo, engine

pytestmark = [pytest.mark.slow,
              pytest.mark.requires("rustc")]

HERE = Path(__file__).parent
REPO = HERE.parents[1]


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Linked statically, as the engine links every harness (``cargo.STATIC``)."""
    out = tmp_path_factory.mktemp("hostile") / "hostile"
    subprocess.run(["rustc", "--edition", "2021", "-O", *cargo.STATIC.split(), "-o", str(out),
                    str(HERE / "hostile.rs")], check=True, capture_output=True, timeout=600)
    return out


@pytest.fixture(scope="module")
def payload(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Another program, linked dynamically (the loader can start it): prints PWNED."""
    d = tmp_path_factory.mktemp("payload")
    (d / "payload.rs").write_text('fn main() { println!("PWNED"); }\n')
    subprocess.run(["rustc", "-o", str(d / "payload"), str(d / "payload.rs")], check=True,
                   capture_output=True, timeout=600)
    return d / "payload"


def run(binary: Path, *args: str, timeout: float = 30.0, limits: Limits = Limits(),
        files: tuple[Path, ...] = (), ro: tuple[str, ...] = ()) -> sandbox.RunResult:
    """Like ``engine.run``: the binary copied into a fresh workdir, the harness's settings;
    ``files`` are copied beside it, ``ro`` bound read-only in addition to what it links."""
    work = sandbox.make_workdir("adequacy-exec-")
    try:
        exe = work / "harness"
        shutil.copy(binary, exe)
        exe.chmod(0o755)
        for f in files:
            shutil.copy(f, work / f.name)
        return sandbox.run_limited([str(exe), *args], cwd=work, timeout=timeout,
                                   limits=engine.harness_limits(limits, timeout),
                                   env=engine.HARNESS_ENV,
                                   view=views.libraries(binary).plus(ro=ro))
    finally:
        sandbox.remove_tree(work)


def lines(r: sandbox.RunResult) -> list[str]:
    return r.stdout.decode("utf-8", "replace").splitlines()


def test_reads_outside_the_sandbox_are_refused(hostile: Path) -> None:
    targets = ["/etc/passwd", str(REPO / "README.md"), str(Path.home() / ".bashrc"),
               str(Path.home()), f"/proc/{os.getpid()}/environ",
               str(REPO / "adequacy" / "sandbox.py")]
    r = run(hostile, "read", "-", *targets)
    out = lines(r)
    assert len(out) == len(targets), r
    assert all(ln.startswith("DENIED") for ln in out), out


def test_writes_land_nowhere_outside(hostile: Path) -> None:
    token = f"adequacy-escape-{uuid.uuid4().hex}"
    dirs = ["/tmp", str(REPO), str(Path.home()), "/", "/var/tmp", "/dev/shm"]
    r = run(hostile, "write", token, *dirs)
    out = lines(r)
    assert len(out) == len(dirs), r
    # the private, size-capped /tmp and /dev/shm take the write; nothing reaches the host
    for d in dirs:
        assert not (Path(d) / token).exists(), d
    assert [ln for ln in out if ln.startswith("OK")] == [f"OK write /tmp/{token}",
                                                          f"OK write /dev/shm/{token}"]


def test_no_other_program_runs(hostile: Path) -> None:
    progs = ["/bin/sh", "/usr/bin/sh", "/bin/bash", "/usr/bin/env", sys.executable, "sh"]
    r = run(hostile, "exec", "-", *progs)
    out = lines(r)
    assert len(out) == len(progs), r
    assert all(ln.startswith("DENIED") for ln in out), out


@pytest.mark.skipif(exec_lock.available() is not None,
                    reason=f"no Landlock here: {exec_lock.available()}")
def test_a_program_written_to_its_own_tmp_cannot_run(hostile: Path) -> None:
    r = run(hostile, "selfcopy", f"adequacy-copy-{uuid.uuid4().hex}")
    out = lines(r)
    assert len(out) == 1 and out[0].startswith("DENIED exec /tmp/"), r
    assert REFUSED.search(out[0]), out


LOADER = views.loader() or "/lib64/ld-linux-x86-64.so.2"
#: seccomp refuses execve first (EPERM); Landlock, behind it, would refuse (EACCES)
REFUSED = re.compile(r"Operation not permitted|Permission denied")


def landlock() -> pytest.MarkDecorator:
    return pytest.mark.skipif(exec_lock.available() is not None,
                              reason=f"no Landlock here: {exec_lock.available()}")


def test_the_harness_links_no_loader(hostile: Path) -> None:
    """A static program: the sandbox needs no loader for it, so none may be executed."""
    assert views.interpreter(hostile) is None
    assert views.libraries(hostile).ro == ()
    assert views.interpreter("/bin/sh") == LOADER


@landlock()
def test_the_loader_trick_on_a_program_written_to_tmp(hostile: Path, payload: Path) -> None:
    """``ld.so /tmp/x`` ran before: the loader was executable in the sandbox. The loader is
    still there (the Landlock launcher, a Python, needs it), but Landlock refuses to
    execute it once the harness runs, as it refuses the written file itself."""
    token = f"adequacy-ld-{uuid.uuid4().hex}"
    r = run(hostile, "loader", token, LOADER, payload.name, files=(payload,))
    out = lines(r)
    assert out[0] == f"OK write /tmp/{token}", r
    assert out[1].startswith(f"DENIED loader {LOADER} ") and REFUSED.search(out[1]), out
    assert out[2].startswith(f"DENIED exec /tmp/{token} "), out
    assert "PWNED" not in r.stdout.decode(), r


@landlock()
def test_execveat_of_a_written_file_is_refused(hostile: Path, payload: Path) -> None:
    token = f"adequacy-at-{uuid.uuid4().hex}"
    r = run(hostile, "execveat", token, payload.name, files=(payload,))
    out = lines(r)
    assert len(out) == 1, r
    assert out[0].startswith(f"DENIED execveat /tmp/{token} "), out
    assert REFUSED.search(out[0]), out
    assert "PWNED" not in r.stdout.decode(), r


@landlock()
def test_a_program_in_an_anonymous_memory_file_cannot_run(hostile: Path, payload: Path) -> None:
    r = run(hostile, "memfd", "-", payload.name, LOADER, files=(payload,))
    out = lines(r)
    assert "PWNED" not in r.stdout.decode(), r
    assert len(out) == 3 and all(ln.startswith("DENIED") for ln in out), out


def test_bubblewraps_unfiltered_process_cannot_be_steered(hostile: Path) -> None:
    """pid 1 of the sandbox is bubblewrap's, started before the launcher's Landlock and
    seccomp: attaching to it would let a harness execute through it."""
    r = run(hostile, "ptrace", "-")
    out = lines(r)
    assert len(out) == 2 and all(ln.startswith("DENIED") for ln in out), out


def test_no_network_even_to_localhost(hostile: Path) -> None:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(5)
    server.settimeout(0.5)
    port = server.getsockname()[1]
    try:
        r = run(hostile, "net", "-", f"127.0.0.1:{port}", "1.1.1.1:53", "[::1]:22")
        out = lines(r)
        assert len(out) == 3, r
        assert all(ln.startswith("DENIED") for ln in out), out
        with pytest.raises(TimeoutError):
            server.accept()
    finally:
        server.close()


def test_fork_bomb_is_capped_and_leaves_nothing(hostile: Path) -> None:
    token = f"adequacy-bomb-{uuid.uuid4().hex}"
    r = run(hostile, "forkbomb", token, timeout=60)
    out = lines(r)
    assert any(ln.startswith("DENIED spawn") for ln in out), r
    assert any(ln.startswith("DENIED thread") for ln in out), r
    assert wait_until(lambda: not procs_with(token), 5), procs_with(token)


def test_setsid_double_fork_sleepers_die_with_the_run(hostile: Path) -> None:
    token = f"adequacy-daemon-{uuid.uuid4().hex}"
    r = run(hostile, "daemon", token)
    assert lines(r) == ["OK daemon "], r
    assert wait_until(lambda: not procs_with(token), 5), procs_with(token)


def test_timeout_kills_the_whole_tree_quickly(hostile: Path) -> None:
    token = f"adequacy-hang-{uuid.uuid4().hex}"
    t0 = time.monotonic()
    r = run(hostile, "hang", token, timeout=2)
    assert r.timed_out
    assert time.monotonic() - t0 < 6, r.seconds
    assert wait_until(lambda: not procs_with(token), 3), procs_with(token)


def test_huge_output_is_capped(hostile: Path) -> None:
    r = run(hostile, "output")
    assert r.output_truncated
    assert len(r.stdout) <= 8 * 1024 * 1024


def test_huge_allocation_is_refused(hostile: Path) -> None:
    r = run(hostile, "alloc", limits=Limits(memory_mb=512))
    assert r.returncode != 0
    assert not any(ln.startswith("OK alloc 2") for ln in lines(r)), lines(r)


KILLED_PARENT = """
import sys, time
from adequacy import sandbox
from adequacy_verus.exec_spec import cargo, engine
from adequacy.sandbox import views as sandbox_view
from adequacy.extensions.backend import Limits
binary, token = sys.argv[1], sys.argv[2]
work = sandbox.make_workdir()
p = sandbox.popen_limited([binary, "hang", token], cwd=work,
                          limits=engine.harness_limits(Limits(), 600), env=engine.HARNESS_ENV,
                          view=sandbox_view.native(binary))
p.stdout.readline()  # the sandboxed program runs (bubblewrap's setup is over)
print(p.pid, flush=True)
time.sleep(600)
"""


def test_sigkill_of_the_python_parent_leaves_no_process(hostile: Path) -> None:
    token = f"adequacy-orphan-{uuid.uuid4().hex}"
    exe = sandbox.make_workdir("adequacy-orphan-") / "hostile"
    shutil.copy(hostile, exe)
    exe.chmod(0o755)
    exe.parent.chmod(0o755)
    parent = subprocess.Popen([sys.executable, "-c", KILLED_PARENT, str(exe), token],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert parent.stdout is not None
        assert parent.stdout.readline().strip().isdigit(), "sandbox did not start"
        assert wait_until(lambda: len(procs_with(token)) >= 2, 30), procs_with(token)
        tree = descendants(parent.pid)
        assert tree
        parent.kill()
        parent.wait()
        assert wait_until(lambda: not alive(tree) and not procs_with(token), 10), (
            alive(tree), procs_with(token))
    finally:
        parent.kill()
        sandbox.remove_tree(exe.parent)
