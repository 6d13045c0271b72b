"""What the bubblewrap layer of the sandbox costs, measured in one run: each workload sandboxed
(bubblewrap + the Landlock launcher + rlimits + uid drop) against the same workload with only the inner layer
(``ADEQUACY_BWRAP=`` turns bubblewrap off), alternating the two to share the machine's load.

Workloads: starting a trivial process (``true``); one exec_spec harness run evaluating every
case of a bundled Verus task (the compiled harness comes from the engine's cache; the first
run builds it); one rac JVM worker start up to its first answer.
Run:  python benchmarks/sandbox_overhead.py [--repeat 10]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from adequacy import sandbox
from adequacy.examples import bundled_folder
from adequacy.extensions.backend import Limits
from adequacy.sandbox import bwrap
from adequacy.taskdirs.load import load_task
from adequacy_openjml.engines.rac.worker import Worker
from adequacy_verus.exec_spec import engine
from adequacy_verus.plugin import VerusBackend

REPO = Path(__file__).resolve().parents[1]
TASK = bundled_folder("verus") / "binary_search_first"


def bubblewrap(on: bool) -> None:
    if on:
        os.environ.pop("ADEQUACY_BWRAP", None)
    else:
        os.environ["ADEQUACY_BWRAP"] = ""
    bwrap.probe.cache_clear()


def child_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def measure(work: Callable[[], object], repeat: int) -> tuple[float, float, float, float]:
    """Median wall seconds and mean child CPU seconds (sandboxed, inner layer only), runs
    interleaved. CPU time does not depend on how loaded the machine is; wall time does."""
    times: dict[bool, list[float]] = {True: [], False: []}
    cpu: dict[bool, float] = {True: 0.0, False: 0.0}
    for on in (True, False):  # warm both paths (library lists, page cache)
        bubblewrap(on)
        work()
    for _ in range(repeat):
        for on in (True, False):
            bubblewrap(on)
            t0, c0 = time.perf_counter(), child_cpu()
            work()
            times[on].append(time.perf_counter() - t0)
            cpu[on] += child_cpu() - c0
    bubblewrap(True)
    return (statistics.median(times[True]), statistics.median(times[False]),
            cpu[True] / repeat, cpu[False] / repeat)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=10)
    a = ap.parse_args()
    if not bwrap.probe(False).ok:
        raise SystemExit(f"bubblewrap cannot run here: {bwrap.probe(False).reason}")
    rows: list[tuple[str, float, float, float, float]] = []

    work = sandbox.make_workdir()
    true = shutil.which("true") or "/bin/true"
    rows.append(("start `true`", *measure(
        lambda: sandbox.run_limited([true], cwd=work, timeout=30), a.repeat)))
    sandbox.remove_tree(work)

    if engine.availability()[0]:
        task = load_task(TASK)
        text = (TASK / "specs" / "gold.rs").read_text()
        VerusBackend().load_spec(task, text, "gold.rs")  # the front end accepts it
        cases = task.all_cases()
        built = engine.build(text, task, None, Limits())
        assert built.binary is not None, built
        binary = built.binary
        lines = text.count("\n") + 1
        rows.append((f"exec_spec harness run ({len(cases)} cases)", *measure(
            lambda: engine.run(binary, task, cases, Limits(), lines), a.repeat)))

    def jvm() -> None:
        w = Worker(heap_mb=256)
        w.start()
        w.stop()
    rows.append(("rac JVM worker start + first answer", *measure(jvm, max(3, a.repeat // 3))))

    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"{'workload':40} {'wall: sandboxed':>15} {'inner only':>10} {'ratio':>5}"
          f" {'child CPU: sandboxed':>20} {'inner only':>10} {'ratio':>5}")
    for name, on, off, con, coff in rows:
        line = f"{name:40} {on * 1000:13.1f}ms {off * 1000:8.1f}ms {on / off:5.2f}"
        if "JVM" in name:  # killed, not waited for: its CPU time never reaches our rusage
            line += f" {'n/a (killed)':>20}"
        else:
            line += (f" {con * 1000:18.1f}ms {coff * 1000:8.1f}ms"
                     f" {con / max(coff, 1e-6):5.2f}")
        print(line)


if __name__ == "__main__":
    main()
