"""Process control shared by the batch pool and the sandbox: parent-death signals and killing a
process with everything it started.

A JVM or harness binary runs in a session of its own (the sandbox makes it a session leader),
so killing the pool worker that started it does not reach it; both the pool (Ctrl-C, a run that
died) and the sandbox (a timeout) kill by process group and by parent links in /proc, here.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import subprocess

PR_SET_PDEATHSIG = 1


def parent_death_signal(sig: int) -> None:
    """Have the kernel send ``sig`` to this process when the thread that started it ends
    (best effort: a libc without ``prctl`` leaves it unset)."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, sig, 0, 0, 0)


def _children_map() -> dict[int, list[int]]:
    kids: dict[int, list[int]] = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        # the command name is in parentheses and may itself contain spaces or parentheses
        fields = stat[stat.rfind(b")") + 2:].split()
        if len(fields) > 1:
            kids.setdefault(int(fields[1]), []).append(int(d))
    return kids


def descendants(pid: int) -> list[int]:
    """Every live process below ``pid`` (by parent links in /proc), children first."""
    kids = _children_map()
    out: list[int] = []
    stack = list(kids.get(pid, []))
    while stack:
        p = stack.pop()
        out.append(p)
        stack += kids.get(p, [])
    return out


def kill_tree(pid: int, include_self: bool = True) -> None:
    """SIGKILL ``pid``'s descendants and their process groups (sandboxed children are session
    leaders whose grandchildren may already have left the tree), then ``pid`` itself."""
    below = descendants(pid)
    for p in below:
        with contextlib.suppress(OSError):
            if os.getpgid(p) == p:
                os.killpg(p, signal.SIGKILL)
        with contextlib.suppress(OSError):
            os.kill(p, signal.SIGKILL)
    if include_self:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


def kill_group(proc: subprocess.Popen[bytes]) -> None:
    """Kill the child's whole process group (it is a session leader)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    with contextlib.suppress(ProcessLookupError):
        proc.kill()
