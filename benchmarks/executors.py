"""Per-pair overhead of the Ray executor against the local process pool, on the same batch.

Prints, measured in one run on this machine:
- the in-process cost of scoring one pair (no executor at all),
- each executor's wall time per pair times its workers, and the overhead that leaves per pair,
- the throughput (pairs/s) of a VERINA-size batch (185 tasks x 4 specs = 740 pairs) with each.
The pairs are the bundled Verus specs scored by interp, each made a distinct job by a comment
line, so no cache or resume hides work. Ray runs a local instance with as many CPUs as the pool
has workers; on a cluster the per-pair overhead is what limits how small a job may be.

    python benchmarks/executors.py [--pairs 740] [--workers 2] [--rounds 5]

With ``--rounds N`` the two executors alternate N times on the same jobs and the medians are
compared (a 100-pair batch takes well under a second, so one round of each is mostly noise).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from adequacy.batch.pool import BatchOptions, Job, _score_job, run_batch
from adequacy.batch.ray import shutdown
from adequacy.examples import bundled_folder
from adequacy.scoring.options import ScoreOptions

REPO = Path(__file__).resolve().parents[1]


def jobs(n: int) -> list[Job]:
    specs = sorted((bundled_folder("verus")).glob("*/specs/*.rs"))
    out = []
    for i in range(n):
        s = specs[i % len(specs)]
        out.append(Job(task=str(s.parent.parent), spec=str(s),
                       spec_text=s.read_text() + f"\n// variant {i}\n"))
    return out


def timed_batch(js: list[Job], opts: BatchOptions, workers: int) -> float:
    with tempfile.TemporaryDirectory() as d:
        t = time.perf_counter()
        summary = run_batch(js, Path(d) / "r.jsonl", opts, workers=workers, progress=False)
        wall = time.perf_counter() - t
    assert summary.computed == len(js) and summary.errors == 0, summary
    return wall


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pairs", type=int, default=740)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=5, help="alternating rounds of each executor")
    args = ap.parse_args()
    local = BatchOptions(score=ScoreOptions(engines=["interp"]), cache_path=None)
    ray = local.model_copy(update={"executor": "ray"})

    sample = jobs(60)
    inproc = []
    for j in sample:
        t = time.perf_counter()
        _score_job(j, local)
        inproc.append(time.perf_counter() - t)
    base = statistics.median(inproc)

    warm = jobs(2 * args.workers)
    timed_batch(warm, ray, args.workers)  # start Ray and its workers outside the timing
    big = jobs(args.pairs)
    walls: dict[str, list[float]] = {"local pool": [], "ray (local instance)": []}
    for _ in range(args.rounds):
        for name, opts in (("local pool", local), ("ray (local instance)", ray)):
            walls[name].append(timed_batch(big, opts, args.workers))
    rows = []
    for name, ws in walls.items():
        wall = statistics.median(ws)
        per_pair = wall * args.workers / len(big)
        rows.append((name, wall, len(big) / wall, per_pair, per_pair - base))
    shutdown()
    print(f"{len(big)} pairs (bundled Verus specs x interp), {args.workers} workers, "
          f"median of {args.rounds} alternating rounds; "
          f"in-process scoring: {base * 1000:.1f} ms per pair (median of {len(sample)})")
    print(f"{'executor':<22} {'wall s':>8} {'pairs/s':>8} {'ms/pair*worker':>15} "
          f"{'overhead ms/pair':>17}")
    for name, wall, tput, per_pair, over in rows:
        print(f"{name:<22} {wall:8.2f} {tput:8.1f} {per_pair * 1000:15.1f} {over * 1000:17.1f}")
    (_, _, t_local, _, o_local), (_, _, t_ray, _, o_ray) = rows
    print(f"ray / pool throughput: {t_ray / t_local:.2f}x; ray overhead per pair "
          f"{o_ray * 1000:.1f} ms vs pool {o_local * 1000:.1f} ms: "
          f"{o_ray / o_local if o_local > 0 else float('inf'):.2f}x (goal <= 1.2x)")


if __name__ == "__main__":
    main()
