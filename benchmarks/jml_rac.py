"""Stubs per second of the rac engine on SpecGenBench: one persistent JVM worker vs one JVM
per stub (the original Spec-Harness design ran a fresh checker process for every stub).

Data: ``adequacy import specgenbench`` into a temporary folder (the real importer output: all
tasks, typed values, post-state outputs); each task with recorded pairs gets a small spec
(``ensures \\result == \\result`` or, for void methods, the same on the post-state output,
plus a bounded quantifier), and a stub is one (spec, post_complete case) evaluation.
Without the datasets, the bundled examples/jml gold specs stand in.
The one-JVM-per-stub side starts a fresh worker, compiles the spec, evaluates one case and
stops, on a sample of tasks spread over the list, for about ``--one-jvm-seconds``.
Run:  python benchmarks/jml_rac.py [--max-cases N] [--one-jvm-seconds 60]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from adequacy.examples import bundled_folder
from adequacy.extensions.backend import Limits, engine_named
from adequacy.model.task import Case, Task
from adequacy.model.verdicts import Bucket
from adequacy.sandbox.run import remove_tree
from adequacy.taskdirs.load import load_task
from adequacy_openjml.engines.rac import worker as W
from adequacy_openjml.engines.rac.engine import _classes, _load, ordered_args, unit_for, unit_key
from adequacy_openjml.importers.spec_harness import import_specgenbench
from adequacy_openjml.jml.load import annotated
from adequacy_openjml.plugin import OpenJmlBackend

REPO = Path(__file__).resolve().parents[1]
QUANT = "ensures (\\forall int k; 0 <= k < 3; k >= 0);"


def sgb_tasks(datasets: Path, out: Path, max_cases: int) -> list[tuple[Task, str, list[Case]]]:
    import_specgenbench(datasets / "specgenbench", out)
    data = []
    for d in sorted(out.iterdir()):
        task = load_task(d)
        cases = task.cases.get(Bucket.post_complete, [])[:max_cases]
        if not cases:
            continue  # void methods whose harness prints nothing
        if task.settings.get("java_return", "void") != "void":
            first = "ensures \\result == \\result;"
        else:
            p = task.settings["post_state"][0]
            first = f"ensures {p} == {p};"
        data.append((task, annotated(task, [first, QUANT]), cases))
    return data


def example_tasks(_out: Path, max_cases: int) -> list[tuple[Task, str, list[Case]]]:
    data = []
    for d in sorted((bundled_folder("jml")).iterdir()):
        if (d / "specs" / "gold.java").exists():
            task = load_task(d)
            data.append((task, (d / "specs" / "gold.java").read_text(),
                         task.all_cases()[:max_cases]))
    return data


def one_jvm_per_stub(b: OpenJmlBackend, task: Task, spec: str, case: Case,
                     limits: Limits) -> float:
    loaded = b.load_spec(task, spec)
    unit = unit_for(loaded.data)
    t0 = time.monotonic()
    w = W.Worker()
    try:
        w.start()
        _load(w, unit, unit_key(unit), _classes(unit, unit_key(unit), None, limits))
        reply = w.request({"op": "eval", "key": unit_key(unit), "pred": case.bucket.predicate,
                           "input": ordered_args(task, unit, case.input),
                           "output": case.output, "timeout_ms": 10000}, timeout=60)
        assert reply.get("value") in ("true", "false"), reply
    finally:
        w.stop()
    return time.monotonic() - t0


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--datasets", type=Path, default=REPO.parent / "shared" / "datasets")
    ap.add_argument("--max-cases", type=int, default=10_000, help="cases per task")
    ap.add_argument("--one-jvm-seconds", type=float, default=60.0)
    args = ap.parse_args()
    b = OpenJmlBackend()
    tmp = Path(tempfile.mkdtemp(prefix="jml-bench-"))
    try:
        if (args.datasets / "specgenbench" / "sgb.jsonl").exists():
            data, source = sgb_tasks(args.datasets, tmp, args.max_cases), "SpecGenBench"
        else:
            data, source = example_tasks(tmp, args.max_cases), "examples/jml (no datasets)"
        limits = Limits()
        W.build_dir()
        # warm-up: the JVM start and javac's first compile are paid once per worker lifetime
        task, spec, cases = data[0]
        engine_named(b, "rac").check(b.load_spec(task, spec), task, cases[:1], limits)

        t0 = time.monotonic()
        n_stubs = undecided = 0
        for task, spec, cases in data:
            vs = engine_named(b, "rac").check(b.load_spec(task, spec), task, cases, limits)
            undecided += sum(1 for v in vs if not v.decided)
            n_stubs += len(cases)
        persistent = time.monotonic() - t0
        rate = n_stubs / persistent

        samples: list[float] = []
        step = max(1, len(data) // 40)
        t1 = time.monotonic()
        for task, spec, cases in data[::step]:
            samples.append(one_jvm_per_stub(b, task, spec, cases[0], limits))
            if time.monotonic() - t1 > args.one_jvm_seconds and len(samples) >= 3:
                break
        cold = sum(samples) / len(samples)
        print(f"data: {source}: {len(data)} specs, {n_stubs} stubs (post_complete cases), "
              f"{undecided} undecided")
        print(f"persistent worker: {persistent:.1f}s, {rate:.0f} stubs/s "
              f"({persistent / len(data) * 1000:.0f} ms per spec, javac included)")
        print(f"one JVM per stub:  {cold:.2f}s per stub over {len(samples)} samples, "
              f"{1 / cold:.2f} stubs/s")
        print(f"ratio: {rate * cold:.0f}x (target >= 20x)")
    finally:
        remove_tree(tmp)
    return 0


if __name__ == "__main__":
    sys.exit(main())
