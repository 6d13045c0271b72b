"""A persistent sandboxed child that answers one JSON object per line (the JVM workers).

Why one class: the rac worker and the KeY worker both keep a JVM warm across cases (start-up
costs 0.5 s and 10-25 s), both run untrusted spec code, and both must survive a child that
dies, hangs or leaks. Each request is ``{"id": n, ...}`` on stdin and its reply one JSON line
on stdout (lines not starting with ``{`` are the child's chatter and skipped; a reply with
another id is a late answer to a request given up on). A child that exits, stops answering
within the request's timeout, says ``"exit"``/``"fatal"`` in a reply, or has served
``max_requests`` is killed with its whole process group and a fresh one started on the next
request. Callers re-send whatever state the old child held (``on_start`` resets it).
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import queue
import subprocess
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

from adequacy.errors import BackendError, WorkerDied
from adequacy.sandbox import views
from adequacy.sandbox.run import (
    SandboxLimits,
    clean_env,
    kill_group,
    make_workdir,
    popen_limited,
    remove_tree,
)

Launch = tuple[list[str], SandboxLimits, views.View]
"""Command line, limits and filesystem view of one child."""


CALL_SECONDS = 120.0
"""How long a caller waits for the keeper thread to start its child."""


class _Keeper:
    """One thread that lives as long as the process and starts every child.

    bubblewrap's ``--die-with-parent`` (``PR_SET_PDEATHSIG``) fires when the *thread* that
    forked the sandbox ends, not the process: a worker started from a passing thread (a
    request thread of the MCP server, a spare-starting thread) would be killed with it."""

    def __init__(self) -> None:
        self.jobs: queue.Queue[tuple[Callable[[], Any], queue.Queue[tuple[bool, Any]],
                                     threading.Event]] = queue.Queue()
        self.thread: threading.Thread | None = None
        self.lock = threading.Lock()

    def call(self, fn: Callable[[], Any], timeout: float = CALL_SECONDS) -> Any:
        """``fn()`` on the keeper thread; a keeper that has not answered within ``timeout``
        (busy starting other children, or stuck) is a ``BackendError``, and a process it
        starts for a caller that gave up is killed."""
        with self.lock:
            if self.thread is None or not self.thread.is_alive():
                self.thread = threading.Thread(target=self._serve, daemon=True,
                                               name="adequacy-worker-keeper")
                self.thread.start()
        if threading.current_thread() is self.thread:
            return fn()
        done: queue.Queue[tuple[bool, Any]] = queue.Queue(maxsize=1)
        gave_up = threading.Event()
        self.jobs.put((fn, done, gave_up))
        try:
            ok, value = done.get(timeout=timeout)
        except queue.Empty:
            gave_up.set()
            raise BackendError(f"no child process was started within {timeout:.0f}s "
                               "(the keeper thread is stuck)") from None
        if not ok:
            raise value
        return value

    def _serve(self) -> None:
        while True:
            fn, done, gave_up = self.jobs.get()
            try:
                result: tuple[bool, Any] = (True, fn())
            except BaseException as e:  # noqa: BLE001 - re-raised in the caller's thread
                result = (False, e)
            if gave_up.is_set():
                if result[0] and isinstance(result[1], subprocess.Popen):
                    kill_group(result[1])
                continue
            done.put(result)


_KEEPER = _Keeper()


def renew_after_fork(obj: Any, *args: Any, **kwargs: Any) -> None:
    """Give a forked child its own ``obj`` (re-run its ``__init__`` in place, so every module
    holding it sees the new state). The batch's process pool forks: without this a child
    inherits the parent's workers (their processes and pipes: two processes writing one
    JVM's requests, or a spare JVM handed to specs in both) and locks a parent's thread may
    have held at the fork, with no thread left to release them. The parent's processes are
    left alone; they are the parent's to stop."""
    os.register_at_fork(after_in_child=lambda: obj.__init__(*args, **kwargs))


renew_after_fork(_KEEPER)


class JsonLineWorker:
    """One child process; not thread-safe (callers hand it to one user at a time).

    ``launch`` builds the command (it may build the program first and raise
    ``EngineUnavailable``); ``label`` names the child in messages ("rac worker").
    """

    def __init__(self, label: str, launch: Callable[[], Launch], *,
                 start_seconds: float = 60.0, max_requests: int | None = None,
                 workdir_prefix: str = "adequacy-worker-",
                 env: Mapping[str, str] | None = None) -> None:
        self.label = label
        self.env = dict(env or {})
        """Variables the child starts with besides ``clean_env``'s (never our own
        environment: ``PYTHONHASHSEED=0``, a tool's home)."""
        self.launch = launch
        self.start_timeout = start_seconds
        self.max_requests = max_requests
        self.workdir_prefix = workdir_prefix
        self.proc: subprocess.Popen[bytes] | None = None
        self.lines: queue.Queue[bytes | None] = queue.Queue()
        self.workdir: Path | None = None
        self.served = 0
        self.starts = 0
        self.start_seconds = 0.0
        """How long the last start took (ping answered)."""
        self._ids = itertools.count(1)

    def on_start(self) -> None:
        """Reset what the caller keeps about the child's state (a fresh child has none)."""

    def start(self) -> None:
        t0 = time.monotonic()
        cmd, limits, view = self.launch()
        self.workdir = make_workdir(self.workdir_prefix)
        workdir = self.workdir
        env = clean_env(self.env)
        self.proc = _KEEPER.call(lambda: popen_limited(cmd, cwd=workdir, env=env,
                                                       stderr=subprocess.DEVNULL,
                                                       limits=limits, view=view))
        self.lines = queue.Queue()
        self.served = 0
        self.starts += 1
        self.on_start()
        out, lines = self.proc.stdout, self.lines

        def pump() -> None:
            assert out is not None
            for line in out:
                if line.lstrip().startswith(b"{"):
                    lines.put(line)
            lines.put(None)

        threading.Thread(target=pump, daemon=True).start()
        reply = self._send({"op": "ping"}, self.start_timeout)
        if not reply.get("ok"):
            self.stop()
            raise BackendError(f"{self.label} failed to start: {reply}")
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
        """One request and its reply; a dead or worn-out child is replaced first, and one that
        dies or hangs now is killed (``WorkerDied``)."""
        if not self.alive() or (self.max_requests is not None
                                and self.served >= self.max_requests):
            self.stop()
            self.start()
        self.served += 1
        return self._send(obj, timeout)

    def stream(self, obj: dict[str, Any], timeout: float) -> Iterator[dict[str, Any]]:
        """One request answered in several lines, up to the one that says ``"end"`` (or asks
        for the child to be replaced); each line must come within ``timeout`` of the one
        before (``WorkerDied`` otherwise, as for ``request``). A caller that stops reading
        early leaves the rest to be skipped as late answers."""
        if not self.alive() or (self.max_requests is not None
                                and self.served >= self.max_requests):
            self.stop()
            self.start()
        self.served += 1
        rid = self._write(obj)
        while True:
            reply = self._read(rid, timeout)
            yield reply
            if reply.get("end") or "i" not in reply or self.proc is None:
                return

    def _send(self, obj: dict[str, Any], timeout: float) -> dict[str, Any]:
        return self._read(self._write(obj), timeout)

    def _write(self, obj: dict[str, Any]) -> str:
        assert self.proc is not None and self.proc.stdin is not None
        rid = str(next(self._ids))
        try:
            self.proc.stdin.write(json.dumps({"id": rid, **obj}).encode() + b"\n")
            self.proc.stdin.flush()
        except OSError as e:
            self.stop()
            raise WorkerDied(f"{self.label} died ({e})") from e
        return rid

    def _read(self, rid: str, timeout: float) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self.lines.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty as e:
                self.stop()
                raise WorkerDied(f"{self.label} did not answer within {timeout:.0f}s") from e
            if line is None:
                code = self.proc.poll() if self.proc else None
                self.stop()
                raise WorkerDied(f"{self.label} exited (code {code})")
            try:
                reply: dict[str, Any] = json.loads(line)
            except ValueError:
                continue  # chatter that happens to start with "{"
            if reply.get("id") not in (rid, None):
                continue  # a late answer to a request we gave up on
            if reply.get("exit") or reply.get("fatal"):
                self.stop()  # the child asked to be replaced (a runaway thread, a KeY error)
            return reply


__all__ = ["JsonLineWorker", "Launch"]
