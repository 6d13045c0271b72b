"""How long the report's bootstrap intervals take as a study grows (1000 resamples, seeded).

Prints, for studies of 100, 500 and 2000 tasks with 14 headline figures each (Pass@1, two
pass@k, two pass^k, four buckets, Harness, PostHarness, VR and two more), the seconds per
approach and the ratio to the smallest study: the cost grows linearly with the tasks (one
draw per resample, shared by every figure).

    PYTHONPATH=. python benchmarks/report_bootstrap.py
"""

from __future__ import annotations

import argparse
import random
import time

from adequacy.records.html._intervals import bootstrap

FIGURES = 14


def study(n: int) -> dict[str, dict[str, tuple[float, float]]]:
    r = random.Random(n)
    return {f"t{i}": {f"f{j}": (r.random() * 3, 3.0) for j in range(FIGURES)} for i in range(n)}


def main() -> None:
    argparse.ArgumentParser(description=__doc__.split("\n\n")[0]).parse_args()
    base = None
    for n in (100, 500, 2000):
        data = study(n)
        t0 = time.perf_counter()
        out = bootstrap(data)
        dt = time.perf_counter() - t0
        assert all(iv is not None for iv in out.values())
        base = base or dt / n
        print(f"{n:5d} tasks x {FIGURES} figures: {dt:6.2f} s per approach; "
              f"per task {dt / n / base:.2f}x the 100-task study's")


if __name__ == "__main__":
    main()
