"""Benchmark of the exec_spec engine: its figures, as ratios from one run.

    python benchmarks/verus_exec.py [--cases 240] [--per-case-sample 40]

Builds a copy of the bundled binary-search task with generated cases (all four buckets, truth
by construction), then measures on this machine:

1. warm per-spec time: compile one new spec crate with vstd already built, and the first run;
2. one process for all cases vs one process per case (per-case cost measured on a sample and
   scaled), the ratio the issue targets at >= 20x;
3. the runner's verdict cache: scoring the same spec again (hit) vs the first time (miss).
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

from adequacy.examples import bundled_folder
from adequacy.extensions.backend import Limits
from adequacy.model.task import Case
from adequacy.model.verdicts import Bucket
from adequacy.taskdirs.load import load_task, write_cases
from adequacy_verus.exec_spec import engine

REPO = Path(__file__).resolve().parents[1]
SOURCE = bundled_folder("verus") / "binary_search_first"


def first_index(arr: list[int], t: int) -> int | None:
    return next((i for i, x in enumerate(arr) if x == t), None)


def make_task(dest: Path, n: int, seed: int = 7) -> Path:
    """The binary-search task with ``n`` generated cases spread over the four buckets."""
    rng = random.Random(seed)
    shutil.copytree(SOURCE, dest, ignore=shutil.ignore_patterns("tests"))
    per = n // 4
    buckets: dict[Bucket, list[Case]] = {b: [] for b in Bucket}
    for i in range(per):
        arr = sorted(rng.randint(-50, 50) for _ in range(rng.randint(0, 400)))
        t = rng.randint(-55, 55)
        buckets[Bucket.pre_complete].append(Case(id=f"g{i}", bucket=Bucket.pre_complete,
                                                 input={"arr": arr, "target": t},
                                                 origin="generated"))
        bad = arr[:] + [-60] if arr else [2, 1]  # a smaller value after the rest: unsorted
        buckets[Bucket.pre_sound].append(Case(id=f"g{i}", bucket=Bucket.pre_sound,
                                              input={"arr": bad, "target": t},
                                              origin="generated"))
        k = first_index(arr, t)
        right = None if k is None else {"some": k}
        buckets[Bucket.post_complete].append(Case(
            id=f"g{i}", bucket=Bucket.post_complete, input={"arr": arr, "target": t},
            output={"result": right}, origin="generated"))
        wrong = {"some": len(arr)} if k is None else ({"some": k + 1} if k + 1 < len(arr)
                                                        and arr[k + 1] == t else None)
        buckets[Bucket.post_sound].append(Case(
            id=f"g{i}", bucket=Bucket.post_sound, input={"arr": arr, "target": t},
            output={"result": wrong}, origin="generated"))
    for b, cases in buckets.items():
        write_cases(dest, b, cases)
    return dest


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=240)
    ap.add_argument("--per-case-sample", type=int, default=40)
    args = ap.parse_args()
    ok, version, reason = engine.availability()
    if not ok:
        print(f"exec_spec unavailable: {reason}")
        return 1
    tmp = Path(tempfile.mkdtemp(prefix="adequacy-bench-"))
    try:
        task = load_task(make_task(tmp / "binary_search_first", args.cases))
        cases = task.all_cases()
        gold = (task.root / "specs" / "gold.rs").read_text()
        # A comment unique to this run defeats the binary cache: a fresh compile, warm vstd.
        spec = gold + f"\n// benchmark run {time.time_ns()}\n"
        limits = Limits()
        print(f"exec_spec: {version}")
        print(f"task: {task.id} with {len(cases)} generated cases")

        engine.build(gold, task, None, limits)  # vstd and the lock file warm
        t0 = time.monotonic()
        built = engine.build(spec, task, None, limits)
        compile_s = time.monotonic() - t0
        assert built.binary is not None
        spec_lines = spec.count("\n") + 1
        t0 = time.monotonic()
        verdicts = engine.run(built.binary, task, cases, limits, spec_lines)
        batch_s = time.monotonic() - t0
        failed = [v for v in verdicts if not v.passed]
        print(f"1. warm per-spec time: compile {compile_s:.2f}s + evaluate all "
              f"{len(cases)} cases {batch_s:.3f}s = {compile_s + batch_s:.2f}s "
              f"(gold spec fails {len(failed)} cases)")

        sample = cases[: args.per_case_sample]
        t0 = time.monotonic()
        for c in sample:
            engine.run(built.binary, task, [c], limits, spec_lines)
        per_case = (time.monotonic() - t0) / len(sample)
        est = per_case * len(cases)
        print(f"2. one process for all cases {batch_s:.3f}s vs one process per case "
              f"{est:.2f}s ({per_case * 1000:.1f} ms/case over a sample of {len(sample)}): "
              f"ratio {est / batch_s:.1f}x")
        try:
            from adequacy.scoring.cache import VerdictCache
            from adequacy.scoring.runner import score_spec
        except ImportError as e:
            print(f"3. cache: adequacy.scoring.runner/cache not available ({e})")
            return 0
        cache = VerdictCache(tmp / "verdicts.sqlite")
        spec2 = gold + f"\n// cache probe {time.time_ns()}\n"
        t0 = time.monotonic()
        r1 = score_spec(task, spec2, "gold.rs", engines=["exec_spec"], limits=limits,
                        cache=cache)
        miss = time.monotonic() - t0
        t0 = time.monotonic()
        r2 = score_spec(task, spec2, "gold.rs", engines=["exec_spec"], limits=limits,
                        cache=cache)
        hit = time.monotonic() - t0
        print(f"3. runner verdict cache: miss {miss:.2f}s (compile + run, status {r1.status}) "
              f"vs hit {hit:.3f}s (status {r2.status}): ratio {miss / max(hit, 1e-9):.0f}x")
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
