"""The JVM workers' sandbox contains Java code even past the worker's SecurityManager.

``Hostile.java`` runs as its own main class (no SecurityManager at all) in exactly the sandbox
the rac worker gets (``jvm_sandbox``): it must not read, write, run programs or connect outside,
and stopping the worker, or SIGKILL of our Python process, must leave no JVM behind.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from containment_support import alive, descendants, procs_with, wait_until, world_readable_dir

from adequacy import sandbox
from adequacy.sandbox import exec_lock, proctree, views
from adequacy_openjml.engines.rac.worker import jvm_sandbox
from adequacy_openjml.jdk import find_java, java_home, real_java

_JDK = find_java()
JAVA, JAVAC = (_JDK.java, _JDK.javac) if _JDK else (None, None)
pytestmark = [pytest.mark.slow, pytest.mark.skipif(not JAVA or not JAVAC, reason="no JDK")]

HERE = Path(__file__).parent
REPO = HERE.parents[1]


@pytest.fixture(scope="module")
def classes() -> Path:
    assert JAVAC
    d = world_readable_dir("adequacy-hostile-java-")
    subprocess.run([JAVAC, "-d", str(d), str(HERE / "Hostile.java")], check=True,
                   capture_output=True, timeout=300)
    for f in d.iterdir():
        f.chmod(0o644)
    yield d
    sandbox.remove_tree(d)


def java_cmd(classes: Path, *args: str) -> list[str]:
    assert JAVA
    return [real_java(JAVA), "-Xmx128m", "-XX:-UsePerfData", "-Xshare:auto",
            "-cp", str(classes), "Hostile", *args]


def run(classes: Path, *args: str, timeout: float = 120) -> list[str]:
    assert JAVA
    limits, view = jvm_sandbox(JAVA, classes)
    work = sandbox.make_workdir("adequacy-rac-")
    try:
        r = sandbox.run_limited(java_cmd(classes, *args), cwd=work, timeout=timeout,
                                limits=limits, view=view)
    finally:
        sandbox.remove_tree(work)
    assert not r.timed_out, r
    return r.stdout.decode("utf-8", "replace").splitlines()


def test_reads_writes_exec_and_network_are_refused(classes: Path) -> None:
    token = f"adequacy-jvm-escape-{uuid.uuid4().hex}"
    reads = ["/etc/passwd", str(REPO / "README.md"), str(Path.home() / ".bashrc"),
             f"/proc/{os.getpid()}/environ"]
    out = run(classes, "read", token, *reads)
    assert len(out) == len(reads) and all(ln.startswith("DENIED") for ln in out), out

    dirs = [str(REPO), "/", "/var/tmp", str(classes)]
    if not str(Path.home()).startswith("/tmp"):
        dirs.append(str(Path.home()))
    out = run(classes, "write", token, *dirs)
    assert len(out) == len(dirs) and all(ln.startswith("DENIED") for ln in out), out
    for d in dirs + ["/tmp"]:
        assert not (Path(d) / token).exists(), d

    progs = ["/bin/sh", "/usr/bin/env", sys.executable]
    if exec_lock.available() is None:  # Landlock: not even the JDK's own launchers
        progs += [real_java(JAVA or "java"),
                  str(java_home(JAVA or "java") / "bin" / "javac")]
    out = run(classes, "exec", token, *progs)
    assert len(out) == len(progs) and all(ln.startswith("DENIED") for ln in out), out

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(5)
    server.settimeout(0.5)
    try:
        out = run(classes, "net", token, f"127.0.0.1:{server.getsockname()[1]}", "1.1.1.1:53")
        assert len(out) == 2 and all(ln.startswith("DENIED") for ln in out), out
        with pytest.raises(TimeoutError):
            server.accept()
    finally:
        server.close()


@pytest.mark.skipif(exec_lock.available() is not None,
                    reason=f"no Landlock here: {exec_lock.available()}")
@pytest.mark.parametrize("mechanism", ["POSIX_SPAWN", "FORK", "VFORK"])
def test_the_loader_trick_from_the_jvm(classes: Path, mechanism: str) -> None:
    """The JVM needs the loader (java is linked dynamically), so Landlock lets it execute
    java and the loader; a program the JVM writes must still not run through either."""
    payload = classes / "payload"
    if not payload.exists():
        (classes / "payload.rs").write_text('fn main() { println!("PWNED"); }\n')
        subprocess.run(["rustc", "-o", str(payload), str(classes / "payload.rs")], check=True,
                       capture_output=True, timeout=600)
        payload.chmod(0o755)
    loader = views.loader() or "/lib64/ld-linux-x86-64.so.2"
    token = f"adequacy-jvm-ld-{uuid.uuid4().hex}"
    out = run(classes, "loader", token, mechanism, loader, str(payload))
    assert len(out) == 2 and all(ln.startswith("DENIED") for ln in out), out
    assert not any("PWNED" in ln for ln in out), out


def test_stopping_a_worker_kills_the_jvms_it_spawned(classes: Path) -> None:
    assert JAVA
    token = f"adequacy-jvm-spawn-{uuid.uuid4().hex}"
    limits, view = jvm_sandbox(JAVA, classes)
    work = sandbox.make_workdir("adequacy-rac-")
    proc = sandbox.popen_limited(java_cmd(classes, "spawn", token), cwd=work, limits=limits,
                                 view=view, stderr=subprocess.DEVNULL)
    try:
        assert proc.stdout is not None
        spawned = proc.stdout.readline()
        if exec_lock.available() is None:
            assert spawned.startswith(b"DENIED spawn"), spawned  # Landlock refuses the exec
        else:
            assert spawned.startswith(b"OK spawn"), spawned
            assert wait_until(lambda: len(procs_with(token)) >= 2, 60), procs_with(token)
        assert procs_with(token)
        t0 = time.monotonic()
        proctree.kill_group(proc)
        proc.wait(timeout=10)
        assert wait_until(lambda: not procs_with(token), 5), procs_with(token)
        assert time.monotonic() - t0 < 5
    finally:
        proctree.kill_group(proc)
        sandbox.remove_tree(work)


KILLED_PARENT = """
import time
from adequacy_openjml.engines.rac.worker import Worker
w = Worker(heap_mb=128)
w.start()
print(w.proc.pid, flush=True)
time.sleep(600)
"""


def test_sigkill_of_the_python_parent_leaves_no_jvm() -> None:
    parent = subprocess.Popen([sys.executable, "-c", KILLED_PARENT], stdout=subprocess.PIPE,
                              text=True)
    try:
        assert parent.stdout is not None
        assert parent.stdout.readline().strip().isdigit()
        tree = descendants(parent.pid)
        assert any(b"adequacy.rac.Worker" in Path(f"/proc/{p}/cmdline").read_bytes()
                   for p in alive(tree)), tree
        parent.kill()
        parent.wait()
        assert wait_until(lambda: not alive(tree), 5), alive(tree)
    finally:
        parent.kill()
