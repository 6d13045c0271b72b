"""What clean pool workers cost: the same batch with workers spawned (the default) and forked.

A spawned worker is a fresh interpreter that imports the package and the backends it needs
before its first pair; a forked one inherits them (and, unsafely, the parent's threads, locks
and JVM pipes: docs/scale.md). Prints the wall time of each per pair, their ratio, and the
fixed cost per worker that ratio comes from, measured in one run on this machine.

    python benchmarks/pool_start.py [--pairs 40] [--workers 2] [--rounds 3]

The pairs are the bundled Verus specs scored by interp, each made a distinct job by a comment
line, so no cache or resume hides work.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

from adequacy.batch.pair_pool import START_METHOD_ENV
from adequacy.batch.pool import BatchOptions, Job, run_batch
from adequacy.examples import bundled_folder
from adequacy.scoring.options import ScoreOptions

REPO = Path(__file__).resolve().parents[1]


def jobs(n: int, salt: str) -> list[Job]:
    specs = sorted((bundled_folder("verus")).glob("*/specs/*.rs"))
    return [Job(task=str(s.parent.parent), spec=str(s),
                spec_text=s.read_text() + f"\n// {salt} variant {i}\n")
            for i, s in ((i, specs[i % len(specs)]) for i in range(n))]


def timed(method: str, n: int, workers: int, salt: str) -> float:
    os.environ[START_METHOD_ENV] = method
    with tempfile.TemporaryDirectory() as d:
        t = time.perf_counter()
        s = run_batch(jobs(n, salt), Path(d) / "r.jsonl", BatchOptions(score=ScoreOptions(engines=["interp"])),
                      workers=workers, progress=False)
        wall = time.perf_counter() - t
    assert s.computed == n and s.errors == 0, s
    return wall


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pairs", type=int, default=40)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    walls: dict[str, list[float]] = {"spawn": [], "fork": []}
    for r in range(a.rounds):
        for method in walls:
            walls[method].append(timed(method, a.pairs, a.workers, f"{method}{r}"))
    med = {m: statistics.median(w) for m, w in walls.items()}
    for m, w in med.items():
        print(f"{m:>6}: {w:6.2f} s for {a.pairs} pairs on {a.workers} workers "
              f"({1000 * w / a.pairs:.1f} ms/pair)")
    print(f"spawn/fork wall ratio: {med['spawn'] / med['fork']:.2f}x; spawn's extra cost "
          f"{med['spawn'] - med['fork']:.2f} s per batch ({a.workers} workers started)")


if __name__ == "__main__":
    main()
