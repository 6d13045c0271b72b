"""The rac engine's JVMs: one per spec run, fresh ones ready, none lost to a passing thread."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from adequacy_openjml.engines.rac.worker import Worker

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
    from adequacy_openjml.engines.rac.worker import build_dir, warm_up_request

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


def test_first_compile_on_an_empty_cache_does_not_deadlock(tmp_path: Path) -> None:
    """On a cache without the worker's archives (no ``adequacy setup`` yet), the first thing a
    process did was compile (an MCP ``check``): the compile JVM's launch, under the compiler's
    lock, dumped the eval archive, which compiles through that same lock, and hung for ever.
    Now the compile JVM starts without waiting for archives; the compile answers."""
    import os
    import subprocess
    import sys

    code = ("from adequacy_openjml.engines.rac.worker import COMPILER, WARM_UP\n"
            "r = COMPILER.compile('k', {'class': 'Solution', 'source': WARM_UP})\n"
            "print('ok' if r.get('ok') else r)\n")
    env = {**os.environ, "ADEQUACY_CACHE": str(tmp_path / "cache")}
    try:
        p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           env=env, timeout=240)
    except subprocess.TimeoutExpired:
        pytest.fail("the first compile on an empty cache hung (lock cycle)")
    assert p.returncode == 0 and p.stdout.strip().endswith("ok"), p.stderr[-2000:]


def test_a_jvm_goes_back_to_the_spares_only_if_no_spec_loaded_in_it() -> None:
    """A spec that fails to compile gives back the JVM taken for it while it compiled
    (engine.start_run): the JVM ran no spec code, so the next spec may have it. One that
    loaded a spec, or answered anything since it became a spare, is killed instead."""
    from adequacy_openjml.engines.rac.jvms import Jvms
    from adequacy_openjml.engines.rac.worker import build_dir, warm_up_request

    warm = warm_up_request(build_dir())
    assert warm is not None
    load = {k: v for k, v in warm.items() if k not in ("op", "evals")}
    jvms = Jvms(spares=1, makers=2)
    try:
        a = jvms.acquire("spec-a", 128)
        jvms.give_back(a)
        assert a.alive() and a.origin is None
        assert any(w is a for w in jvms.ready[128])  # to be handed out again, as a spare
        b = jvms.acquire("spec-b", 128)
        assert b.request({"op": "load", **load}, timeout=60).get("ok")
        b.loaded.add(str(load["key"]))
        jvms.give_back(b)
        assert not b.alive()  # it loaded a spec: killed, not reused
        assert not any(w is b for w in jvms.ready[128])
        c = jvms.acquire("spec-c", 128)
        assert c is not b and c.alive()
        assert c.request({"op": "ping"}, timeout=30).get("ok")
        jvms.give_back(c)  # answered a request since it was a spare: killed
        assert not c.alive()
    finally:
        jvms.shutdown()


def test_a_spec_run_sends_its_cases_in_one_request(monkeypatch: pytest.MonkeyPatch) -> None:
    """All cases of a spec run travel in one streamed ``evals`` request (a round trip per
    case cost about 1 ms each, paid by every spec), and the verdicts are still per case:
    the gold spec of array_max accepts exactly the cases it should."""
    from jml_support import EXAMPLES

    from adequacy.scoring.runner import score_spec
    from adequacy.taskdirs.load import load_task

    streams: list[int] = []
    single: list[str] = []
    real_stream, real_request = Worker.stream, Worker.request

    def stream(self: Worker, obj: dict, timeout: float):
        streams.append(len(obj.get("cases", [])))
        return real_stream(self, obj, timeout)

    def request(self: Worker, obj: dict, timeout: float) -> dict:
        single.append(str(obj.get("op")))
        return real_request(self, obj, timeout)

    monkeypatch.setattr(Worker, "stream", stream)
    monkeypatch.setattr(Worker, "request", request)
    task = load_task(EXAMPLES / "array_max")
    rep = score_spec(task, (task.root / "specs" / "gold.java").read_text(), "gold.java",
                     engines=["rac"])
    assert len(rep.verdicts) >= 10
    assert all(v.passed for v in rep.verdicts), [v.reason for v in rep.verdicts
                                                   if not v.passed]
    assert streams == [len(rep.verdicts)], streams
    assert "eval" not in single, single


def test_the_worker_is_built_without_invokedynamic_string_concatenation() -> None:
    """Each fresh eval JVM paid for bootstrapping ``StringConcatFactory`` (start + warm-up CPU
    0.82x without it, benchmarks/jvm_start.py --jdks): the jar must not refer to it."""
    import zipfile

    from adequacy_openjml.engines.rac.worker import JAR, build_dir

    with zipfile.ZipFile(build_dir(archives=False) / JAR) as z:
        classes = [n for n in z.namelist() if n.endswith(".class")]
        assert len(classes) > 5
        indy = [n for n in classes if b"StringConcatFactory" in z.read(n)]
    assert indy == []

