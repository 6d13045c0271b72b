"""A forked child (the batch's process pool forks) starts with state of its own: the interp
watchdog's monitor (whose lock a parent thread may hold at the fork: a CI run hung for good in a
pool child, in test_synthesize_then_run_reports_by_writer), and the JVM workers."""

from __future__ import annotations

import multiprocessing
import threading

from adequacy_verus.interp import watchdog


def _arm_and_disarm() -> None:
    watchdog.Watchdog(1.0).disarm()


def test_a_forked_child_arms_a_watchdog_while_a_parent_thread_holds_the_lock() -> None:
    held, release = threading.Event(), threading.Event()

    def hold() -> None:  # what the monitor thread does between two waits
        with watchdog._MONITOR.cond:
            held.set()
            release.wait(30)

    t = threading.Thread(target=hold, daemon=True)
    t.start()
    assert held.wait(10)
    try:
        p = multiprocessing.get_context("fork").Process(target=_arm_and_disarm)
        p.start()
        p.join(20)
        hung = p.is_alive()
        if hung:
            p.kill()
            p.join()
    finally:
        release.set()
        t.join(10)
    assert not hung and p.exitcode == 0


def _report_state(q: multiprocessing.Queue[tuple[int, int, bool]]) -> None:
    from adequacy_openjml.engines.rac.jvms import JVMS
    from adequacy_openjml.engines.rac.worker import COMPILER
    q.put((JVMS.started, len(COMPILER.done), JVMS.cond.acquire(timeout=5)))


def test_a_forked_child_gets_its_own_jvm_pool_and_compiler() -> None:
    """The JVM workers a process holds (spares, the compile JVM) are never shared with a child
    it forks: two processes would hand one spare to two specs, or write into one pipe."""
    from adequacy_openjml.engines.rac.jvms import JVMS
    from adequacy_openjml.engines.rac.worker import COMPILER
    ctx = multiprocessing.get_context("fork")
    q: multiprocessing.Queue[tuple[int, int, bool]] = ctx.Queue()
    started, done = JVMS.started, dict(COMPILER.done)
    JVMS.started, COMPILER.done["parent-unit"] = 7, {"ok": True}
    held, release = threading.Event(), threading.Event()

    def hold() -> None:
        with JVMS.cond:
            held.set()
            release.wait(30)

    t = threading.Thread(target=hold, daemon=True)
    t.start()
    assert held.wait(10)
    try:
        p = ctx.Process(target=_report_state, args=(q,))
        p.start()
        got = q.get(timeout=20)
        p.join(20)
    finally:
        release.set()
        t.join(10)
        JVMS.started, COMPILER.done = started, done
    assert got == (0, 0, True)
