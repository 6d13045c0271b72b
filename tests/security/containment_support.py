"""Helpers of the containment corpus: find processes by a token or by ancestry."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path


def procs_with(token: str) -> list[int]:
    """Host pids whose command line mentions ``token`` (a run's unique marker)."""
    found = []
    for d in Path("/proc").iterdir():
        if not d.name.isdigit() or int(d.name) == os.getpid():
            continue
        try:
            if token.encode() in (d / "cmdline").read_bytes():
                found.append(int(d.name))
        except OSError:
            continue
    return found


def descendants(pid: int) -> list[tuple[int, str]]:
    """(pid, start time) of every process below ``pid`` (start time guards against reuse)."""
    children: dict[int, list[tuple[int, str]]] = {}
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            stat = (d / "stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        children.setdefault(int(fields[1]), []).append((int(d.name), fields[19]))
    out: list[tuple[int, str]] = []
    todo = [pid]
    while todo:
        for kid in children.get(todo.pop(), []):
            out.append(kid)
            todo.append(kid[0])
    return out


def alive(procs: list[tuple[int, str]]) -> list[int]:
    left = []
    for pid, start in procs:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[19] == start and fields[0] != "Z":
            left.append(pid)
    return left


def wait_until(cond: Callable[[], bool], seconds: float) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.1)
    return cond()


def world_readable_dir(prefix: str) -> Path:
    """A folder the sandboxed child (an unprivileged uid) can read, outside pytest's 0700."""
    import tempfile
    d = Path(tempfile.mkdtemp(prefix=prefix))
    d.chmod(0o755)
    return d
