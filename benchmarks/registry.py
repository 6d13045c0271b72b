"""What the plugin registry saves per scored spec: backends built and engine infos asked once.

Usage: python benchmarks/registry.py [N]
Scores the gold spec of examples/verus/euclid_mod N times (default 30) with interp, a warm
verdict cache in a temporary folder, two ways in the same run: with the registry as it is (one
construction per process) and with a fresh registry before every score (what every call paid
before the registry: each hook re-run, every engine's ``info()`` asked again, i.e. ``rustc
--version`` and friends). Prints the construction counts, the mean times and their ratio;
timings are noisy on a shared machine, the ratio measured in one run is the figure to quote.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from adequacy.examples import bundled_folder

REPO = Path(__file__).resolve().parents[1]
TASK = bundled_folder("verus") / "euclid_mod"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("n", nargs="?", type=int, default=30, help="scores per way (default 30)")
    n = ap.parse_args().n
    os.environ.setdefault("ADEQUACY_CACHE", tempfile.mkdtemp(prefix="adequacy-bench-"))
    from adequacy.extensions import registry
    from adequacy.scoring.runner import score_spec
    from adequacy.taskdirs.load import load_task
    from adequacy_verus import plugin as verus_plugin

    made = [0]
    real_init = verus_plugin.VerusBackend.__init__

    def counting(self: object) -> None:
        made[0] += 1
        real_init(self)
    setattr(verus_plugin.VerusBackend, "__init__", counting)  # noqa: B010 - a counting stand-in
    task = load_task(TASK)
    gold = (TASK / "specs" / "gold.rs").read_text()
    score_spec(task, gold, engines=["interp"])  # warm the verdict cache and imports

    def run(fresh: bool) -> tuple[float, int]:
        made[0] = 0
        start = time.perf_counter()
        for _ in range(n):
            if fresh:
                registry._registries.clear()
            assert score_spec(task, gold, engines=["interp"]).passed_all
        return (time.perf_counter() - start) / n, made[0]

    once, made_once = run(fresh=False)
    fresh, made_fresh = run(fresh=True)
    print(f"{n} scores of euclid_mod/gold.rs (interp, warm verdict cache)")
    print(f"  registry once per process: {once * 1000:7.2f} ms/score, "
          f"{made_once} VerusBackend constructions")
    print(f"  fresh registry per score:  {fresh * 1000:7.2f} ms/score, "
          f"{made_fresh} VerusBackend constructions")
    print(f"  ratio fresh / once: {fresh / once:.2f}")
    print(f"  load: {os.getloadavg()}")


if __name__ == "__main__":
    main()
