"""A predicate that keeps failing for want of resources or rights is given up, whatever the
kind of failure: out of memory, stack overflow, a forbidden action, a worker that
died (timeouts: test_rac_time_budget.py). Three failures in a row, then the predicate's other
cases are unknown with a reason that names the kind; the other predicate is scored normally,
and so is the next spec."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from jml_support import TWO_INTS, with_spec, write_task
from test_rac_time_budget import sgb_like

from adequacy.extensions.backend import Limits, engine_named
from adequacy.extensions.registry import registry
from adequacy.model.verdicts import Truth
from adequacy.sandbox.run import kill_group
from adequacy.scoring.runner import score_spec
from adequacy.taskdirs.load import load_task
from adequacy_openjml.engines.rac import engine as rac

pytestmark = [pytest.mark.slow, pytest.mark.requires("javac")]

HOG = ("    /*@ pure @*/ static boolean hog(int a) { long[][] m = new long[1 << 20][]; "
       "for (int i = 0; i < m.length; i++) m[i] = new long[1 << 20]; return m.length > a; }")
DEEP = "    /*@ pure @*/ static boolean deep(int a) { return deep(a + 1) || a > 0; }"
PEEK = ("    /*@ pure @*/ static boolean peek(int a) { "
        "return System.getProperty(\"user.home\") != null || a > 0; }")
WORDS = {"hog": "ran out of memory", "deep": "overflowed its stack",
         "peek": "attempted a forbidden action"}


def _given_up_post(tmp_path: Path, helper: str, call: str, limits: Limits) -> list:
    task = load_task(sgb_like(tmp_path / "t", n=30))
    spec = with_spec(TWO_INTS, helper + f"\n    //@ ensures {call}(x);")
    t0 = time.monotonic()
    b = registry().backends["openjml"]
    loaded = b.load_spec(task, spec, "Spec.java")
    # a helper that reads System is a gap of the front end (every case unknown
    # before any engine runs); the engine's own give-up rule is tested underneath it
    loaded.data.gap = None
    verdicts = engine_named(b, "rac").check(loaded, task, task.all_cases(), limits)
    took = time.monotonic() - t0
    pre = [v for v in verdicts if v.bucket.predicate == "pre"]
    post = [v for v in verdicts if v.bucket.predicate == "post"]
    assert all(v.value is Truth.true for v in pre), {v.reason for v in pre}
    assert all(v.value is Truth.unknown for v in post)
    return [post, took]


@pytest.mark.parametrize("name,helper", [("hog", HOG), ("deep", DEEP), ("peek", PEEK)])
def test_each_failure_kind_gives_the_predicate_up(tmp_path: Path, name: str, helper: str
                                                  ) -> None:
    post, took = _given_up_post(tmp_path, helper, name, Limits(case_seconds=20,
                                                               memory_mb=512))
    skipped = post[3:]
    assert all(WORDS[name] in v.reason and "3 cases in a row" in v.reason
               and "remaining cases are skipped" in v.reason for v in skipped), \
        {v.reason for v in skipped}
    assert not any("in a row" in v.reason for v in post[:3]), [v.reason for v in post[:3]]
    assert took < 60, f"took {took:.0f}s"


def test_after_running_out_of_memory_the_next_spec_is_scored_normally(tmp_path: Path) -> None:
    limits = Limits(case_seconds=20, memory_mb=512)
    _given_up_post(tmp_path / "a", HOG, "hog", limits)
    task = load_task(sgb_like(tmp_path / "b", n=30))
    t0 = time.monotonic()
    rep = score_spec(task, with_spec(TWO_INTS, "    //@ ensures \\result == x + y;"),
                     "Gold.java", limits=limits, engines=["rac"])
    assert all(v.value is Truth.true for v in rep.verdicts), {v.reason for v in rep.verdicts}
    assert time.monotonic() - t0 < 30


def test_a_worker_that_keeps_dying_gives_the_predicate_up(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    """The JVM is killed (SIGKILL, for real) as each case is sent.

    Killing the launcher's process group and reaping it is not enough: bubblewrap runs the
    JVM in a session of its own, which dies only when its PID namespace goes, a moment
    later. On a loaded machine the JVM could still read the request and answer it (a
    correct ``true``, but not the death this test is about), so each kill waits until the
    JVM's stdout is closed, which happens only once every process in the sandbox is gone."""
    task = load_task(write_task(tmp_path / "t"))
    from adequacy.model.task import Case
    from adequacy.model.verdicts import Bucket

    real = rac.Run.request

    def kill(self: rac.Run) -> None:
        if not self.worker.alive():
            self.worker = rac.JVMS.replace(self.worker)
        rac._load(self.worker, self.unit, self.key, self.classes)
        assert self.worker.proc is not None
        kill_group(self.worker.proc)  # the evaluation request meets a dead JVM
        self.worker.proc.wait(timeout=10)
        until = time.monotonic() + 30
        while self.worker.lines.get(timeout=max(0.01, until - time.monotonic())) is not None:
            pass  # nothing was asked of it since its classes loaded: no reply is lost
        self.worker.lines.put(None)  # the end of its output, for the reader to find

    def killed_first(self: rac.Run, req: dict, timeout: float) -> dict:
        if req.get("op") != "eval":
            return real(self, req, timeout)
        kill(self)
        return self.worker._send(req, timeout)

    def killed_stream(self: rac.Run, req: dict, timeout: float):  # type: ignore[no-untyped-def]
        kill(self)
        yield self.worker._send(req, timeout)  # the stream's request meets the dead JVM

    monkeypatch.setattr(rac.Run, "request", killed_first)
    monkeypatch.setattr(rac.Run, "stream", killed_stream)
    from adequacy_openjml.plugin import OpenJmlBackend

    b = OpenJmlBackend()
    spec = b.load_spec(task, with_spec(TWO_INTS, "    //@ requires x >= 0;"), "Spec.java")
    cases = [Case(id=f"c{i}", bucket=Bucket.pre_complete, input={"x": i, "y": i})
             for i in range(8)]
    vs = rac.RacEngine().check(spec, task, cases, Limits())
    assert all(v.value is Truth.unknown for v in vs), [(v.value, v.reason) for v in vs]
    assert all("worker" in v.reason for v in vs[:3]), [v.reason for v in vs[:3]]
    assert all("killed its worker on 3 cases in a row" in v.reason for v in vs[3:]), \
        [v.reason for v in vs[3:]]
