"""The rac engine's JVMs: one per spec run, fresh ones ready, none lost to a passing thread."""

from __future__ import annotations

import threading
import time

import pytest

from adequacy.backends.openjml.engines.rac.worker import Worker

pytestmark = [pytest.mark.slow, pytest.mark.requires("javac")]


def test_a_worker_started_by_a_thread_that_ended_stays_alive() -> None:
    """bubblewrap's --die-with-parent fires when the spawning *thread* ends: a worker started
    from a request thread (MCP server) or a spare-starting thread used to die with it."""
    w = Worker(heap_mb=128)
    try:
        t = threading.Thread(target=w.start)
        t.start()
        t.join()
        time.sleep(1.5)
        assert w.alive()
        assert w.request({"op": "ping"}, timeout=30).get("ok")
        assert w.starts == 1  # answered by the same JVM, not a restarted one
    finally:
        w.stop()


def test_an_eval_jvm_serves_one_spec_only() -> None:
    """The JVM itself refuses a second spec, whatever the Python side does."""
    from adequacy.backends.openjml.engines.rac.worker import build_dir, warm_up_request

    warm = warm_up_request(build_dir())
    assert warm is not None
    load = {k: v for k, v in warm.items() if k not in ("op", "evals")}
    w = Worker(heap_mb=128)
    try:
        assert w.request({"op": "load", **load}, timeout=60).get("ok")
        assert w.request({"op": "load", **load}, timeout=60).get("ok")  # the same spec again
        other = w.request({"op": "load", **{**load, "key": "another"}}, timeout=60)
        assert not other.get("ok") and "another spec" in str(other.get("error"))
        missing = w.request({"op": "eval", "key": "another", "pred": "pre", "input": [1, 2]},
                            timeout=60)
        assert missing.get("missing")
        assert w.request({"op": "warm", **warm}, timeout=60).get("error")  # not after a spec
    finally:
        w.stop()
