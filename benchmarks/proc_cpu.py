"""CPU seconds of a process and all its descendants, sampled from /proc (Linux).

``getrusage(RUSAGE_CHILDREN)`` misses most of what a command's sandboxed children burn: a
JVM inside bubblewrap is reaped by the sandbox's own init, which is killed rather than waited
for, so its CPU time never reaches us. ``TreeCpu`` instead reads ``/proc/<pid>/stat`` of every
descendant every ``interval`` seconds and keeps each process's last reading; a process's CPU
after its last sample (at most ``interval`` seconds of it) is missed, so the figure is a lower
bound. Also reports the machine's load while it ran.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from pathlib import Path

_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _stat(pid: int) -> tuple[int, int, float] | None:
    """(ppid, start time, utime + stime in seconds) of ``pid`` (its own threads' CPU; what
    it reaped is counted from the children themselves, while they lived)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    rest = text[text.rindex(")") + 2:].split()
    # fields after the name: state(0) ppid(1) ... utime(11) stime(12) ... starttime(19)
    ticks = int(rest[11]) + int(rest[12])
    return int(rest[1]), int(rest[19]), ticks / _TICK


class TreeCpu:
    """Sample the CPU of ``root`` (default: this process) and its descendants."""

    def __init__(self, root: int | None = None, interval: float = 0.1) -> None:
        self.root = root if root is not None else os.getpid()
        self.interval = interval
        self.seen: dict[tuple[int, int], float] = {}
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.load: list[float] = []
        self.start_wall = 0.0

    def __enter__(self) -> TreeCpu:
        self.start_wall = time.monotonic()
        self.base = self._sample()
        self.base_own = max([v for (pid, _), v in self.seen.items() if pid == self.root]
                            or [0.0])
        self._thread = threading.Thread(target=self._loop, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        self._sample()
        self.wall = time.monotonic() - self.start_wall

    @property
    def own(self) -> float:
        """CPU seconds of the root process alone (its Python, for a command)."""
        mine = [v for (pid, _), v in self.seen.items() if pid == self.root]
        return (max(mine) if mine else 0.0) - self.base_own

    @property
    def cpu(self) -> float:
        """CPU seconds since the start (a lower bound, see the module's docstring)."""
        return sum(self.seen.values()) - self.base

    def _loop(self) -> None:
        n = 0
        while not self._stop.wait(self.interval):
            self._sample()
            n += 1
            if n % max(1, int(1 / self.interval)) == 0:
                with contextlib.suppress(OSError):
                    self.load.append(os.getloadavg()[0])

    def _sample(self) -> float:
        procs: dict[int, tuple[int, int, float]] = {}
        for entry in os.scandir("/proc"):
            if entry.name.isdigit():
                st = _stat(int(entry.name))
                if st is not None:
                    procs[int(entry.name)] = st
        children: dict[int, list[int]] = {}
        for pid, (ppid, _start, _cpu) in procs.items():
            children.setdefault(ppid, []).append(pid)
        todo = [self.root]
        while todo:
            pid = todo.pop()
            st = procs.get(pid)
            if st is not None:
                self.seen[(pid, st[1])] = max(self.seen.get((pid, st[1]), 0.0), st[2])
            todo += children.get(pid, [])
        return sum(self.seen.values())
