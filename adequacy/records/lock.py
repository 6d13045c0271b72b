"""One writer per results file: an exclusive ``flock`` on ``RESULTS.lock``.

A lock (not a pid file) because the kernel releases it when its holder dies, even by SIGKILL:
a killed run never blocks the next one, and a stale lock file is harmless.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Iterator
from pathlib import Path

from adequacy.errors import ResultsLocked


def lock_path(results: Path) -> Path:
    return results.with_name(results.name + ".lock")


@contextlib.contextmanager
def results_lock(results: Path) -> Iterator[int]:
    """Hold the lock for the whole run; yields its file descriptor (pool workers close their
    inherited copy so the lock lives exactly as long as this process holds it)."""
    path = lock_path(results)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 64, 0).decode("ascii", "replace").strip()
            who = f" (pid {holder})" if holder.isdigit() else ""
            raise ResultsLocked(
                f"{results} is being written by another `adequacy run`{who}; wait for it to "
                f"finish or give this run another --results file") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        yield fd
    finally:
        os.close(fd)
