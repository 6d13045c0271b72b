"""The persistent KeY worker as seen from Python: start it sandboxed, send JSON lines, restart.

Why restart: the JVM is untrusted (it loads spec text) and KeY 2.12.3 leaks about 4 MB per
request, so the worker is replaced after a crash, after a request that did not answer in time,
and every ``MAX_REQUESTS`` requests. Start-up (5-10 s on 2 shared cores, most of it KeY
parsing the JML of its JavaRedux library for the warm-up proof's first environment; on a JDK 25
with the AOT cache made at setup 1.5x less CPU than on 17 without an archive, measured: see
``launch``) is paid once per worker, not per stub. The process handling is ``adequacy.sandbox.worker``'s.
"""

from __future__ import annotations

import atexit
import tempfile
import threading
from pathlib import Path

from adequacy.plugin import (
    EngineUnavailable,
    JsonLineWorker,
    Launch,
    WorkerDied,
    remove_tree,
    renew_after_fork,
)
from adequacy_openjml.jdk import Java

from . import build, launch

MAX_REQUESTS = 120
"""Well under the ~150 requests after which the leak would approach -Xmx1g."""
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


class KeyWorker(JsonLineWorker):
    """One KeY JVM; callers serialise access through ``lock``."""

    def __init__(self, use_archive: bool = True, java: str | None = None) -> None:
        self.use_archive = use_archive
        """False only to measure what the archive saves (benchmarks/key_stubs.py)."""
        self.java = java
        """A ``java`` binary instead of ``launch.worker_java()`` (benchmarks compare JDKs)."""
        super().__init__("KeY worker", self._launch, start_seconds=START_SECONDS,
                         max_requests=MAX_REQUESTS, workdir_prefix="adequacy-key-")
        self.lock = threading.Lock()

    def _launch(self) -> Launch:
        reason = build.why_unavailable()
        java = launch.worker_java() if self.java is None else Java(self.java, None, None)
        if reason or java is None:
            raise EngineUnavailable(f"key: {reason}")
        cmd = launch.command(java.java, archive=launch.archive_path(java.java)
                             if self.use_archive else None)
        return cmd, launch.limits(), launch.view(java.java, units_root())


__all__ = ["WORKER", "KeyWorker", "WorkerDied", "units_root"]

WORKER = KeyWorker()
renew_after_fork(WORKER)
atexit.register(WORKER.stop)
