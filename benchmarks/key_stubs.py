"""KeY stub proofs: median time per stub proof, fraction of cases decided, and the ratio of one
persistent worker (all stubs of a spec in one request) to one JVM per stub (the original
Spec-Harness design: a fresh checker process for every stub).

Data: the bundled examples/jml gold specs, every case, both directions (phi and not-phi); with
``--sgb N`` also N SpecGenBench tasks (imported into a temporary folder) with the spec
``ensures \\result == \\result;``. The one-JVM side starts a fresh worker for each of a few
stubs (``--one-jvm N``), so the whole run stays within a few minutes.
Also prints where a request's time goes (the worker's own timers): worker start-up (JVM to
ready, of which the warm-up proof with KeY's taclet parse), environment load per request, and
per stub the proof-obligation build and the strategy run (median and p95).
Run:  python benchmarks/key_stubs.py [--one-jvm 3] [--sgb 0] [--tasks abs_value,array_max]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from adequacy.examples import bundled_folder
from adequacy.model.task import Case, Task
from adequacy.model.verdicts import Bucket
from adequacy.sandbox.run import remove_tree
from adequacy.taskdirs.load import load_task
from adequacy_openjml.engines.key import build, launch
from adequacy_openjml.engines.key.client import WORKER, KeyWorker
from adequacy_openjml.engines.key.engine import (
    INTEGER_SEMANTICS,
    MAX_STEPS,
    prove_file,
    write_unit,
)
from adequacy_openjml.engines.key.stubs import KeyStubFile, render_key_stubs
from adequacy_openjml.jdk import find_java
from adequacy_openjml.jml.load import annotated, load

REPO = Path(__file__).resolve().parents[1]
PROOF_SECONDS = 20.0


def workload(sgb: int, only: set[str]) -> list[tuple[Task, str, list[Case]]]:
    data = []
    for d in sorted((bundled_folder("jml")).iterdir()):
        if only and d.name not in only:
            continue
        if (d / "specs" / "gold.java").exists():
            task = load_task(d)
            data.append((task, (d / "specs" / "gold.java").read_text(), task.all_cases()))
    if sgb:
        from adequacy_openjml.importers.spec_harness import import_specgenbench
        src = REPO.parent / "shared" / "datasets" / "specgenbench"
        out = Path(tempfile.mkdtemp(prefix="sgb-"))
        import_specgenbench(src, out)
        for d in sorted(out.iterdir())[:: max(1, len(list(out.iterdir())) // sgb)][:sgb]:
            task = load_task(d)
            cases = task.cases.get(Bucket.post_complete, [])[:5]
            if cases and task.settings.get("java_return", "void") != "void":
                data.append((task, annotated(task, ["ensures \\result == \\result;"]), cases))
    return data


def one_request(sf: KeyStubFile, names: list[str]) -> tuple[float, dict]:
    d, name = write_unit(sf.class_name, sf.text)
    t0 = time.monotonic()
    try:
        reply = prove_file(d, name, names, PROOF_SECONDS)
    finally:
        remove_tree(d)
    return time.monotonic() - t0, reply


def compare_starts(rounds: int) -> None:
    """Worker start (JVM start to ready: the ping's ``ready_ms``, and ``cpu_ms``, the JVM's CPU
    over all its threads) for each JVM with and without its archive, alternating so the
    machine's load falls on all alike; ratios are to the default java without an archive."""
    jdks = {j.java: j for j in (find_java(), launch.worker_java()) if j is not None}
    configs = [(j.java, arch) for j in sorted(jdks.values(), key=lambda j: j.major or 0)
               for arch in (False, True)]
    for java, _ in configs:
        build.dump_archive(java)
    seen: dict[tuple[str, bool], list[tuple[float, float]]] = {c: [] for c in configs}
    load0 = _load()
    for _ in range(rounds):
        for java, arch in configs:
            w = KeyWorker(use_archive=arch, java=java)
            try:
                got = w.request({"op": "ping"}, timeout=300)
            finally:
                w.stop()
            seen[(java, arch)].append((got.get("ready_ms", 0) / 1000,
                                       got.get("cpu_ms", 0) / 1000))
    base: tuple[float, float] | None = None
    print(f"worker start, median of {rounds} alternating rounds (load before {load0}, "
          f"after {_load()}):")
    for (java, arch), xs in seen.items():
        wall = statistics.median(x[0] for x in xs)
        cpu = statistics.median(x[1] for x in xs)
        base = base or (wall, cpu)
        kind = ("AOT cache" if launch.uses_aot(java) else "AppCDS") if arch else "no archive"
        print(f"  Java {launch.release_version(java)} {kind}: wall {wall:.1f}s "
              f"({base[0] / max(wall, 1e-9):.2f}x faster), CPU {cpu:.1f}s "
              f"({base[1] / max(cpu, 1e-9):.2f}x less)", flush=True)


def compare_jdks(rounds: int, only: set[str], sgb: int) -> None:
    """Steady state on each JDK: one warm worker per JVM (each with its archive), the same
    requests (every spec's stubs in one request) sent to each in turn for ``rounds`` rounds;
    per JVM the median environment load, the median proof and the worker's CPU seconds per
    round (the ping's ``cpu_ms`` before and after). Says whether a faster start costs speed
    later (a JIT that warms differently)."""
    jdks = {j.java: j for j in (find_java(), launch.worker_java()) if j is not None}
    javas = sorted(jdks, key=lambda j: jdks[j].major or 0)
    work = [(task.id, render_key_stubs(load(task, text, "gold.java"), task, cases))
            for task, text, cases in workload(sgb, only)]
    workers = {j: KeyWorker(java=j) for j in javas}
    stats: dict[str, dict[str, list[float]]] = {
        j: {"load": [], "proof": [], "cpu": [], "wall": []} for j in javas}
    verdicts: dict[str, list[dict[str, str]]] = {j: [] for j in javas}
    load0 = _load()
    try:
        for w in workers.values():
            w.request({"op": "ping"}, timeout=300)
        for _ in range(rounds):
            for j, w in workers.items():
                cpu0 = w.request({"op": "ping"}, timeout=60).get("cpu_ms", 0)
                t0 = time.monotonic()
                got: dict[str, str] = {}
                for tid, sf in work:
                    d, name = write_unit(sf.class_name, sf.text)
                    try:
                        reply = w.request({
                            "op": "prove", "dir": str(d), "file": name,
                            "methods": [s.name for s in sf.stubs], "max_steps": MAX_STEPS,
                            "timeout_ms": int(PROOF_SECONDS * 1000),
                            "integer_semantics": INTEGER_SEMANTICS}, timeout=600)
                    finally:
                        remove_tree(d)
                    stats[j]["load"].append(reply.get("load_ms", 0) / 1000)
                    for r in reply.get("results", []):
                        stats[j]["proof"].append(r["millis"] / 1000)
                        got[f"{tid}.{r['method']}"] = r["status"]
                stats[j]["wall"].append(time.monotonic() - t0)
                cpu1 = w.request({"op": "ping"}, timeout=60).get("cpu_ms", 0)
                stats[j]["cpu"].append((cpu1 - cpu0) / 1000)
                verdicts[j].append(got)
    finally:
        for w in workers.values():
            w.stop()
    print(f"steady state, {len(work)} requests a round, {rounds} alternating rounds "
          f"(load before {load0}, after {_load()}):")
    for j in javas:
        st = stats[j]
        print(f"  Java {launch.release_version(j)}: environment load median "
              f"{statistics.median(st['load']):.2f}s, proof median "
              f"{statistics.median(st['proof']):.3f}s p95 {_p95(st['proof']):.3f}s, per round "
              f"wall median {statistics.median(st['wall']):.1f}s CPU median "
              f"{statistics.median(st['cpu']):.1f}s", flush=True)
    firsts = [verdicts[j][0] for j in javas]
    same = all(v == firsts[0] for v in firsts)
    print(f"  verdicts (status per stub, first round) the same on every JDK: {same}")


def _load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def _p95(xs: list[float]) -> float:
    ys = sorted(xs)
    return ys[min(len(ys) - 1, int(0.95 * len(ys)))]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--one-jvm", type=int, default=3, help="stubs for the one-JVM side")
    ap.add_argument("--sgb", type=int, default=0, help="SpecGenBench tasks to add")
    ap.add_argument("--per-stub-requests", type=int, default=4, metavar="N",
                    help="N stubs sent one request each to the warm worker (an environment "
                         "load per stub, the design before stubs were batched per spec)")
    ap.add_argument("--tasks", default="", help="comma-separated bundled task ids (default all)")
    ap.add_argument("--start-compare", type=int, default=0, metavar="N",
                    help="also start N rounds of workers on each JDK (the default java and a "
                         "JDK 25+), each without and with its class archive (AppCDS on 17, "
                         "the AOT cache on 25), alternating, and print wall and CPU seconds")
    ap.add_argument("--jdk-compare", type=int, default=0, metavar="N",
                    help="also send the workload N times to a warm worker on each JDK, "
                         "alternating, and print environment load, proof time and CPU")
    args = ap.parse_args()
    if build.why_unavailable():
        print(f"key engine unavailable: {build.why_unavailable()}")
        return 2
    if args.start_compare:
        compare_starts(args.start_compare)
    if args.jdk_compare:
        compare_jdks(args.jdk_compare, {t for t in args.tasks.split(",") if t}, args.sgb)
    t0 = time.monotonic()
    with WORKER.lock:
        ping = WORKER.request({"op": "ping"}, timeout=300)
    print(f"worker start-up: {time.monotonic() - t0:.1f}s (JVM start to ready "
          f"{ping.get('ready_ms', 0) / 1000:.1f}s, of which warm-up proof "
          f"{ping.get('warmup_ms', 0) / 1000:.1f}s; CPU {ping.get('cpu_ms', 0) / 1000:.1f}s; "
          f"load {_load()})")
    proofs: list[float] = []
    pos: list[float] = []
    loads: list[float] = []
    wall = 0.0
    stubs = cases_n = decided = 0
    files: list[KeyStubFile] = []
    only = {t for t in args.tasks.split(",") if t}
    for task, text, cases in workload(args.sgb, only):
        spec = load(task, text, "gold.java")
        sf = render_key_stubs(spec, task, cases)
        files.append(sf)
        secs, reply = one_request(sf, [s.name for s in sf.stubs])
        wall += secs
        stubs += len(sf.stubs)
        res = {r["method"]: r for r in reply.get("results", [])}
        proofs += [r["millis"] / 1000 for r in res.values()]
        pos += [r.get("po_ms", 0) / 1000 for r in res.values()]
        loads.append(reply.get("load_ms", 0) / 1000)
        closed = {m for m, r in res.items() if r["status"] == "closed"}
        ok = {s.index for s in sf.stubs if s.name in closed}
        cases_n += len(cases)
        decided += len(ok)
        print(f"{task.id}: {len(sf.stubs)} stubs in {secs:.1f}s (load {loads[-1]:.1f}s), "
              f"{len(ok)}/{len(cases)} cases decided", flush=True)
    per_stub = wall / max(1, stubs)
    print(f"\npersistent worker: {stubs} stubs, median proof {statistics.median(proofs):.2f}s, "
          f"{per_stub:.2f}s wall per stub (environment load included)")
    print(f"decided: {decided}/{cases_n} cases = {decided / max(1, cases_n):.1%}")
    if proofs:
        print(f"per stub: median {statistics.median(proofs):.3f}s p95 {_p95(proofs):.3f}s "
              f"(of which proof obligation median {statistics.median(pos):.3f}s); "
              f"environment load per request median {statistics.median(loads):.2f}s "
              f"({sum(loads):.1f}s of {wall:.1f}s wall)")
    single: list[float] = []
    picks = [(f, s.name) for f in files for s in f.stubs][: args.per_stub_requests]
    for sf, stub in picks:
        secs, _reply = one_request(sf, [stub])
        single.append(secs)
    if single:
        med = statistics.median(single)
        print(f"one request per stub (warm worker): {len(single)} stubs, median {med:.2f}s "
              f"wall each; ratio to batched per spec: {med / per_stub:.1f}x")
    one: list[float] = []
    sample = [(sf, s.name) for sf in files for s in sf.stubs[:1]][: args.one_jvm]
    for sf, stub in sample:
        w = KeyWorker()
        d, name = write_unit(sf.class_name, sf.text)
        t1 = time.monotonic()
        try:
            w.request({"op": "prove", "dir": str(d), "file": name, "methods": [stub],
                       "max_steps": MAX_STEPS, "timeout_ms": int(PROOF_SECONDS * 1000),
                       "integer_semantics": INTEGER_SEMANTICS}, timeout=300)
        finally:
            one.append(time.monotonic() - t1)
            w.stop()
            remove_tree(d)
    if one:
        med = statistics.median(one)
        print(f"one JVM per stub: {len(one)} stubs, median {med:.1f}s each "
              f"(start-up + load + proof)")
        print(f"ratio (one JVM per stub / persistent, wall per stub): {med / per_stub:.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
