"""The persistent JVM worker: build it once into a cache, start it sandboxed, talk JSON lines.

A worker that dies or hangs is killed (its whole process group) and a fresh one started
(``adequacy.sandbox_worker.JsonLineWorker``); the caller re-sends the spec it was using. Nothing
else is lost, because every reply is per case.
"""

from __future__ import annotations

import atexit
import os
import subprocess
import tempfile
import threading
from pathlib import Path

from adequacy import sandbox_view
from adequacy.errors import BackendError, EngineUnavailable
from adequacy.sandbox import SandboxLimits, remove_tree
from adequacy.sandbox_worker import JsonLineWorker, Launch, WorkerDied
from adequacy.toolchain import Java, cache_dir, find_java, source_version

JAVA_DIR = Path(__file__).parent / "java"
MAIN = "adequacy.rac.Worker"

__all__ = ["POOL", "Pool", "Worker", "WorkerDied", "build_dir", "jdk", "jvm_sandbox"]


def jdk() -> Java:
    """The JDK the worker is compiled and run with (``EngineUnavailable`` without one)."""
    java = find_java()
    if java is None or java.javac is None:
        raise EngineUnavailable("the rac engine needs a JDK (java and javac on PATH or "
                                "JAVA_HOME); install OpenJDK 17 or newer")
    return java


def build_dir() -> Path:
    """Compile the worker (once per source version) and return its class directory."""
    java = jdk()
    assert java.javac is not None
    sources = sorted(JAVA_DIR.rglob("*.java"))
    out = cache_dir(shared_with_sandbox=True) / \
        f"rac-worker-{source_version(sources, JAVA_DIR, java.javac)}"
    if (out / "adequacy" / "rac" / "Worker.class").exists():
        return out
    out.parent.mkdir(parents=True, exist_ok=True)
    os.chmod(out.parent, 0o755)
    tmp = Path(tempfile.mkdtemp(prefix="rac-build-", dir=out.parent))
    r = subprocess.run([java.javac, "-nowarn", "-Xlint:none", "-d", str(tmp),
                        *[str(p) for p in sources]], capture_output=True, text=True,
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


class Worker(JsonLineWorker):
    """One rac JVM; ``loaded`` holds the keys of the specs it has compiled."""

    def __init__(self, heap_mb: int = 512) -> None:
        super().__init__("rac worker", self._launch, start_seconds=60.0,
                         workdir_prefix="adequacy-rac-")
        self.heap_mb = heap_mb
        self.loaded: set[str] = set()

    def _launch(self) -> Launch:
        classes = build_dir()
        java = jdk().java
        cmd = [sandbox_view.real_java(java), f"-Xmx{self.heap_mb}m", "-Xss16m",
               "-XX:+UseSerialGC", "-XX:CICompilerCount=2", "-XX:-UsePerfData", "-Xshare:auto",
               "-Djava.security.manager=allow", "-Djava.awt.headless=true",
               "-cp", str(classes), MAIN]
        limits, view = jvm_sandbox(java, classes)
        return cmd, limits, view

    def on_start(self) -> None:
        self.loaded = set()

    def stop(self) -> None:
        super().stop()
        self.loaded = set()


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
