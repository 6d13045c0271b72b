"""The interp watchdog under the conditions where an exception sent to a thread bites: a tracer
in the process (coverage, a debugger) and deadlines that fall while a case is finishing."""

from __future__ import annotations

import subprocess
import sys
import textwrap

from adequacy.examples import bundled_folder

TASK = bundled_folder("verus") / "binary_search_first"

SCORE = textwrap.dedent(f"""
    import sys, threading
    if sys.argv[1] == "traced":
        def tracer(frame, event, arg):
            return None
        sys.settrace(tracer)
        threading.settrace(tracer)
    from adequacy.scoring.runner import score_spec
    from adequacy.taskdirs.load import load_task
    task = load_task({str(TASK)!r})
    rep = score_spec(task, open({str(TASK / "specs" / "gold.rs")!r}).read(), None,
                     engines=["interp"], cache=None)
    print(sorted((v.case_id, v.value.value) for v in rep.verdicts))
""")


def _run(code: str, *args: str) -> str:
    out = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout


def test_a_tracer_in_the_process_changes_no_verdict() -> None:
    """Withdrawing a sent exception that never came left CPython's eval breaker raised, and a
    traced thread then spun on its next call for good (every case, from the first)."""
    plain = _run(SCORE, "plain")
    assert "'true'" in plain and "'false'" in plain  # 38 decided cases of both kinds
    assert _run(SCORE, "traced") == plain


RACE = textwrap.dedent("""
    import time
    from adequacy_verus.interp import watchdog as W
    overran = 0
    for n in range(3000):
        try:
            dog = W.Watchdog(0.0002 * (n % 7))
            try:
                t = time.perf_counter()
                while time.perf_counter() - t < 0.0003:
                    pass
            finally:
                dog.disarm()
        except W.Overrun:
            overran += 1
        for _ in range(200):  # an Overrun arriving here escaped its disarm
            pass
    assert W._MONITOR.cond.acquire(timeout=5), "the monitor's lock was left held"
    W._MONITOR.cond.release()
    print(overran)
""")


def test_no_overrun_outlives_its_disarm_and_the_lock_stays_free() -> None:
    """Deadlines that fall before, during and after a case's end: an exception arrives in the
    case or in ``disarm``, never after it, and the monitor's lock is never left held."""
    overran = int(_run(RACE).split()[-1])
    assert 0 < overran < 3000, overran  # both outcomes were met
