"""The persistent JVM worker: build it once into a cache, start it sandboxed, talk JSON lines.

A worker that dies or hangs is killed (its whole process group) and a fresh one started; the
caller re-sends the spec it was using. Nothing else is lost, because every reply is per case.
"""

from __future__ import annotations

import atexit
import contextlib
import hashlib
import json
import os
import queue
import shutil
import stat
import subprocess
import tempfile
import threading
from pathlib import Path
from typing import Any

from adequacy import sandbox_view
from adequacy.errors import BackendError, EngineUnavailable
from adequacy.sandbox import SandboxLimits, kill_group, make_workdir, popen_limited, remove_tree

JAVA_DIR = Path(__file__).parent / "java"
MAIN = "adequacy.rac.Worker"


class WorkerDied(BackendError):
    """The JVM exited or stopped answering."""


def _world_traversable(path: Path) -> bool:
    for p in [path, *path.parents]:
        try:
            if p.exists() and not (p.stat().st_mode & stat.S_IXOTH):
                return False
        except OSError:
            return False
    return True


def cache_root() -> Path:
    """``$ADEQUACY_CACHE`` or ``~/.cache/spec-adequacy``; under root, a world-readable place,
    because the worker runs as an unprivileged user that cannot enter ``/root``."""
    env = os.environ.get("ADEQUACY_CACHE")
    root = Path(env) if env else Path.home() / ".cache" / "spec-adequacy"
    if os.geteuid() == 0 and not _world_traversable(root):
        root = Path(tempfile.gettempdir()) / "spec-adequacy-cache-0"
        _refuse_squatted(root)
    return root


def _refuse_squatted(root: Path) -> None:
    """The shared /tmp is writable by everyone: a cache folder there that another user made
    (or may write to) could plant classes our workers load, so it must be ours and closed."""
    try:
        st = root.lstat()
    except FileNotFoundError:
        return
    if (not stat.S_ISDIR(st.st_mode) or st.st_uid != os.geteuid()
            or st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)):
        raise BackendError(f"{root} is not a folder owned by uid {os.geteuid()} and closed to "
                           "other users' writes; remove it or set ADEQUACY_CACHE")


def java_tools() -> tuple[str | None, str | None]:
    home = os.environ.get("JAVA_HOME")
    if home:
        j, c = Path(home) / "bin" / "java", Path(home) / "bin" / "javac"
        if j.exists() and c.exists():
            return str(j), str(c)
    return shutil.which("java"), shutil.which("javac")


def _sources() -> list[Path]:
    return sorted(JAVA_DIR.rglob("*.java"))


def build_dir() -> Path:
    """Compile the worker (once per source version) and return its class directory."""
    java, javac = java_tools()
    if not java or not javac:
        raise EngineUnavailable("the rac engine needs a JDK (java and javac on PATH or "
                                "JAVA_HOME); install OpenJDK 17 or newer")
    h = hashlib.sha256()
    for p in _sources():
        h.update(p.name.encode())
        h.update(p.read_bytes())
    h.update(javac.encode())
    out = cache_root() / f"rac-worker-{h.hexdigest()[:16]}"
    if (out / "adequacy" / "rac" / "Worker.class").exists():
        return out
    out.parent.mkdir(parents=True, exist_ok=True)
    os.chmod(out.parent, 0o755)
    tmp = Path(tempfile.mkdtemp(prefix="rac-build-", dir=out.parent))
    r = subprocess.run([javac, "-nowarn", "-Xlint:none", "-d", str(tmp),
                        *[str(p) for p in _sources()]], capture_output=True, text=True,
                       timeout=300)
    if r.returncode != 0:
        remove_tree(tmp)
        raise BackendError(f"could not compile the rac worker: {r.stderr.strip()[:2000]}")
    for dirpath, _dirs, files in os.walk(tmp):
        os.chmod(dirpath, 0o755)
        for f in files:
            os.chmod(os.path.join(dirpath, f), 0o644)
    try:
        os.rename(tmp, out)
    except OSError:
        remove_tree(tmp)  # another process won the race; its build is the same
    return out


def jvm_sandbox(java: str, classes: Path) -> tuple[SandboxLimits, sandbox_view.View]:
    """The worker's sandbox: its JDK and class folder read-only, nothing else of ours.
    (The heap is capped by -Xmx: a JVM reserves far more address space than it uses.)"""
    return (SandboxLimits(memory_mb=None, cpu_seconds=24 * 3600, processes=512,
                          file_size_mb=16),
            sandbox_view.jdk(java, classpath=[classes]))


class Worker:
    """One JVM; not thread-safe (the pool hands it to one caller at a time)."""

    def __init__(self, heap_mb: int = 512) -> None:
        self.heap_mb = heap_mb
        self.proc: subprocess.Popen[bytes] | None = None
        self.lines: queue.Queue[bytes | None] = queue.Queue()
        self.loaded: set[str] = set()
        self.workdir: Path | None = None
        self.starts = 0

    def start(self) -> None:
        classes = build_dir()
        java, _ = java_tools()
        assert java
        self.workdir = make_workdir("adequacy-rac-")
        cmd = [sandbox_view.real_java(java), f"-Xmx{self.heap_mb}m", "-Xss16m", "-XX:+UseSerialGC",
               "-XX:CICompilerCount=2", "-XX:-UsePerfData", "-Xshare:auto",
               "-Djava.security.manager=allow", "-Djava.awt.headless=true",
               "-cp", str(classes), MAIN]
        limits, view = jvm_sandbox(java, classes)
        self.proc = popen_limited(cmd, cwd=self.workdir, stderr=subprocess.DEVNULL,
                                  limits=limits, view=view)
        self.lines = queue.Queue()
        self.loaded = set()
        self.starts += 1
        out = self.proc.stdout
        lines = self.lines

        def pump() -> None:
            assert out is not None
            for line in out:
                lines.put(line)
            lines.put(None)

        threading.Thread(target=pump, daemon=True).start()
        reply = self.request({"op": "ping"}, timeout=60)
        if not reply.get("ok"):
            raise BackendError(f"rac worker failed to start: {reply}")

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def stop(self) -> None:
        if self.proc is not None:
            kill_group(self.proc)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(timeout=5)
            self.proc = None
        if self.workdir is not None:
            remove_tree(self.workdir)
            self.workdir = None
        self.loaded = set()

    def request(self, obj: dict[str, Any], timeout: float) -> dict[str, Any]:
        """Send one request and wait for its reply; on death or timeout stop the worker."""
        if not self.alive():
            self.stop()
            self.start()
        assert self.proc is not None and self.proc.stdin is not None
        try:
            self.proc.stdin.write(json.dumps(obj).encode() + b"\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError) as e:
            self.stop()
            raise WorkerDied(f"rac worker died ({e})") from e
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty as e:
            self.stop()
            raise WorkerDied(f"rac worker did not answer within {timeout:.0f}s") from e
        if line is None:
            code = self.proc.poll() if self.proc else None
            self.stop()
            raise WorkerDied(f"rac worker exited (code {code})")
        reply: dict[str, Any] = json.loads(line)
        if reply.get("exit"):
            self.stop()
        return reply


class Pool:
    """Warm workers shared by every spec of the process (one per concurrent caller)."""

    def __init__(self, size: int = 2) -> None:
        self.size = size
        self.idle: list[Worker] = []
        self.count = 0
        self.cond = threading.Condition()
        self.all: list[Worker] = []

    def acquire(self, heap_mb: int) -> Worker:
        with self.cond:
            while True:
                if self.idle:
                    return self.idle.pop()
                if self.count < self.size:
                    self.count += 1
                    w = Worker(heap_mb)
                    self.all.append(w)
                    return w
                self.cond.wait()

    def release(self, w: Worker) -> None:
        with self.cond:
            self.idle.append(w)
            self.cond.notify()

    def shutdown(self) -> None:
        with self.cond:
            for w in self.all:
                w.stop()
            self.idle = []
            self.all = []
            self.count = 0


POOL = Pool(size=max(1, min(4, os.cpu_count() or 1)))
atexit.register(POOL.shutdown)
