"""Sandboxed Python workers that hold one spec or one reference (``runtime/worker.py``).

A worker that dies or hangs is killed by ``JsonLineWorker``; the next request starts a fresh
one, and ``ask`` sends it what the old one held (the spec or the reference) first.
"""

from __future__ import annotations

from typing import Any

from adequacy.plugin import JsonLineWorker, Limits, SpecInvalid, WorkerDied

from . import sandboxing

LOAD_SECONDS = 30.0


class LoadFailed(Exception):
    def __init__(self, message: str, line: int | None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


class HeldWorker(JsonLineWorker):
    """A worker that is (re)loaded with ``load`` before its first request."""

    def __init__(self, limits: Limits, load: dict[str, Any], label: str = "python worker"
                 ) -> None:
        super().__init__(label, lambda: sandboxing.launch(limits), start_seconds=60.0)
        self.load = load
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


def spec_load(spec_text: str, inputs: list[Any], outputs: list[Any], limits: Limits
              ) -> dict[str, Any]:
    return {"op": "load", "source": spec_text, "inputs": inputs, "outputs": outputs,
            "case_seconds": limits.case_seconds}


def as_invalid(e: LoadFailed, path: str | None, engine: str) -> SpecInvalid:
    """An engine that cannot load a spec the front end accepted: its cases become unknown."""
    return SpecInvalid(f"the worker refused the spec: {e.message}", file=path, line=e.line,
                       engine=engine)


__all__ = ["HeldWorker", "LoadFailed", "WorkerDied", "as_invalid", "spec_load"]
