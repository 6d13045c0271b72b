"""Sandboxed Python workers that hold one spec or one reference (``runtime/worker.py``).

A worker that dies or hangs is killed by ``JsonLineWorker``; the next request starts a fresh
one, and ``ask`` sends it what the old one held (the spec or the reference) first.

Starting a worker (bubblewrap, the launcher, an interpreter) costs far more than the cases of
a spec, so up to two spares are started ahead by a background thread: a spare is a worker
that has never held a spec, so a spec taking one still has a fresh process of its own (no
state of another spec can be in it); it is stopped when the spec's run ends, like any other.
"""

from __future__ import annotations

import math
import threading
from typing import Any

from adequacy.plugin import JsonLineWorker, Limits, SpecInvalid, WorkerDied, renew_after_fork

from . import sandboxing

LOAD_SECONDS = 30.0


class LoadFailed(Exception):
    def __init__(self, message: str, line: int | None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


class HeldWorker(JsonLineWorker):
    """A worker that is (re)loaded with ``load`` before its first request."""

    def __init__(self, limits: Limits, load: dict[str, Any] | None,
                 label: str = "python worker", seed: int = 0) -> None:
        # a chosen hash seed: the same spec gives the same verdicts in every run (a value that
        # depends on set order is decided only where seeds 0 and 1 agree, the same every time)
        super().__init__(label, lambda: sandboxing.launch(limits), start_seconds=60.0,
                         env={"PYTHONHASHSEED": str(seed)})
        self.seed = seed
        self.load = load or {"op": "ping"}
        self.loaded = False

    def on_start(self) -> None:
        self.loaded = False

    def ask(self, req: dict[str, Any], timeout: float) -> dict[str, Any]:
        """The reply to ``req``; ``WorkerDied`` when the worker died or did not answer in
        ``timeout`` seconds, ``LoadFailed`` when it refused what it was to hold."""
        if not self.alive():
            self.stop()
            self.start()
        if not self.loaded:
            r = self.request(self.load, LOAD_SECONDS)
            if not r.get("ok"):
                raise LoadFailed(str(r.get("error", r)), r.get("line"))
            self.loaded = True
        return self.request(req, timeout)


SPARES = 2


def _key(limits: Limits, seed: int) -> tuple[int, int, int]:
    return limits.memory_mb, math.ceil(limits.spec_seconds), seed


class Spares:
    """Started workers that have held nothing yet, by the limits they were started with."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.ready: dict[tuple[int, int, int], list[HeldWorker]] = {}
        self.starting: dict[tuple[int, int, int], int] = {}

    def take(self, limits: Limits, load: dict[str, Any], label: str, seed: int = 0
             ) -> HeldWorker:
        """A fresh worker for one spec (a spare when one is ready), and a refill started."""
        key = _key(limits, seed)
        with self.lock:
            ready = self.ready.get(key, [])
            w = ready.pop() if ready else None
        if w is None or not w.alive():
            if w is not None:
                w.stop()
            w = HeldWorker(limits, load, label, seed)
        w.load, w.label, w.loaded = load, label, False
        self._refill(limits, seed)
        return w

    def _refill(self, limits: Limits, seed: int) -> None:
        key = _key(limits, seed)
        with self.lock:
            missing = SPARES - len(self.ready.get(key, [])) - self.starting.get(key, 0)
            if missing <= 0:
                return
            self.starting[key] = self.starting.get(key, 0) + missing

        def start() -> None:
            for _ in range(missing):
                w = HeldWorker(limits, None, "python worker (spare)", seed)
                try:
                    w.start()
                except Exception:  # noqa: BLE001 - a spare that cannot start is no spare
                    w.stop()
                    w = None  # type: ignore[assignment]
                with self.lock:
                    self.starting[key] -= 1
                    if w is not None:
                        self.ready.setdefault(key, []).append(w)

        threading.Thread(target=start, daemon=True, name="python-worker-spares").start()

    def drain(self) -> None:
        """Stop the spares that are ready (a caller that wants every start on its path)."""
        with self.lock:
            ready = [w for ws in self.ready.values() for w in ws]
            self.ready.clear()
        for w in ready:
            w.stop()

    def count(self, limits: Limits, seed: int = 0) -> int:
        with self.lock:
            return len(self.ready.get(_key(limits, seed), []))


SPARE_WORKERS = Spares()
renew_after_fork(SPARE_WORKERS)


def spec_load(spec_text: str, inputs: list[Any], outputs: list[Any], limits: Limits
              ) -> dict[str, Any]:
    return {"op": "load", "source": spec_text, "inputs": inputs, "outputs": outputs,
            "case_seconds": limits.case_seconds}


def as_invalid(e: LoadFailed, path: str | None, engine: str) -> SpecInvalid:
    """An engine that cannot load a spec the front end accepted: its cases become unknown."""
    return SpecInvalid(f"the worker refused the spec: {e.message}", file=path, line=e.line,
                       engine=engine)


__all__ = ["SPARE_WORKERS", "HeldWorker", "LoadFailed", "WorkerDied", "as_invalid", "spec_load"]
