"""The persistent KeY worker as seen from Python: start it sandboxed, send JSON lines, restart.

Why restart: the JVM is untrusted (it loads spec text) and KeY 2.12.3 leaks about 4 MB per
request, so the worker is replaced after a crash, after a request that did not answer in time,
and every ``MAX_REQUESTS`` requests. Start-up (10-25 s: taclet parsing and a warm-up proof) is
paid once per worker, not per stub.
"""

from __future__ import annotations

import atexit
import contextlib
import itertools
import json
import queue
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from adequacy import sandbox_view
from adequacy.backends.key import build
from adequacy.errors import BackendError, EngineUnavailable
from adequacy.sandbox import SandboxLimits, kill_group, make_workdir, popen_limited, remove_tree

MAX_REQUESTS = 120
"""Well under the ~150 requests after which the leak would approach -Xmx1g."""
HEAP = "-Xmx1g"
START_SECONDS = 180.0


_UNITS: list[Path] = []


def units_root() -> Path:
    """The folder (one per process) under which stubs for the worker are written: bound
    read-only into the worker's sandbox, which sees nothing else of ours."""
    if not _UNITS or not _UNITS[0].is_dir():
        d = Path(tempfile.mkdtemp(prefix="adequacy-key-units-"))
        d.chmod(0o755)
        _UNITS[:] = [d]
        atexit.register(remove_tree, d)
    return _UNITS[0]


class WorkerDied(BackendError):
    """The JVM exited or did not answer in time; it has been killed and will be restarted."""


class KeyWorker:
    """One KeY JVM; callers serialise access through ``lock``."""

    def __init__(self) -> None:
        self.proc: subprocess.Popen[bytes] | None = None
        self.lines: queue.Queue[bytes | None] = queue.Queue()
        self.workdir: Path | None = None
        self.served = 0
        self.starts = 0
        self.lock = threading.Lock()
        self._ids = itertools.count(1)
        self.start_seconds = 0.0

    def start(self) -> None:
        reason = build.why_unavailable()
        if reason:
            raise EngineUnavailable(f"key: {reason}")
        java = build.java_binary()
        assert java
        t0 = time.monotonic()
        self.workdir = make_workdir("adequacy-key-")
        cmd = [sandbox_view.real_java(java), HEAP, "-Xss8m", "-XX:+UseSerialGC", "-XX:-UsePerfData",
               "-Djava.awt.headless=true", "-jar", str(build.jar_path())]
        self.proc = popen_limited(
            cmd, cwd=self.workdir, stderr=subprocess.DEVNULL,
            limits=SandboxLimits(memory_mb=None, cpu_seconds=24 * 3600, processes=512,
                                 file_size_mb=64, tmp_mb=256),
            view=sandbox_view.jdk(java, classpath=[build.jar_path()]).plus(ro=[units_root()]))
        self.lines = queue.Queue()
        self.served = 0
        self.starts += 1
        out, lines = self.proc.stdout, self.lines

        def pump() -> None:
            assert out is not None
            for line in out:
                if line.lstrip().startswith(b"{"):
                    lines.put(line)
            lines.put(None)

        threading.Thread(target=pump, daemon=True).start()
        reply = self._send({"op": "ping"}, START_SECONDS)
        if not reply.get("ok"):
            self.stop()
            raise BackendError(f"KeY worker failed to start: {reply}")
        self.start_seconds = time.monotonic() - t0

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def stop(self) -> None:
        if self.proc is not None:
            if self.proc.stdin is not None:
                with contextlib.suppress(OSError):
                    self.proc.stdin.close()
            kill_group(self.proc)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(timeout=5)
            self.proc = None
        if self.workdir is not None:
            remove_tree(self.workdir)
            self.workdir = None

    def request(self, obj: dict[str, Any], timeout: float) -> dict[str, Any]:
        """One request; a dead, hung or worn-out worker is replaced first or afterwards."""
        if not self.alive() or self.served >= MAX_REQUESTS:
            self.stop()
            self.start()
        self.served += 1
        return self._send(obj, timeout)

    def _send(self, obj: dict[str, Any], timeout: float) -> dict[str, Any]:
        assert self.proc is not None and self.proc.stdin is not None
        obj = {"id": str(next(self._ids)), **obj}
        try:
            self.proc.stdin.write(json.dumps(obj).encode() + b"\n")
            self.proc.stdin.flush()
        except OSError as e:
            self.stop()
            raise WorkerDied(f"KeY worker died ({e})") from e
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self.lines.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty as e:
                self.stop()
                raise WorkerDied(f"KeY worker did not answer within {timeout:.0f}s") from e
            if line is None:
                code = self.proc.poll() if self.proc else None
                self.stop()
                raise WorkerDied(f"KeY worker exited (code {code})")
            reply: dict[str, Any] = json.loads(line)
            if reply.get("id") not in (obj["id"], None):
                continue  # a late answer to a request we gave up on
            if reply.get("fatal"):
                self.stop()
            return reply


WORKER = KeyWorker()
atexit.register(WORKER.stop)
