"""What the ecosystem paths cost, measured in one run: grading through an exported Harbor
task's grader (``python -m adequacy.ecosystem.harbor_verifier``, what ``tests/test.sh`` runs)
against ``adequacy score --json`` on the same spec, for a bundled Verus and a bundled JML task;
exporting tasks to Harbor (with the wheel built once) and to a Hugging Face folder and back.

Usage: python benchmarks/ecosystem.py [--repeat 3]
Prints medians and the ratio grader / score (the cost of writing reward.json and ctrf.json
and of the grader's own start-up). Verdict cache off in both.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from adequacy.examples import bundled_folder

VERUS, JML = bundled_folder("verus"), bundled_folder("jml")
TASKS = {"binary_search_first": (VERUS / "binary_search_first", "gold.rs"),
         "jml_abs_value": (JML / "abs_value", "gold.java")}


def _median(f: Callable[[], object], n: int) -> float:
    times = []
    for _ in range(n):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def _run(cmd: list[str], ok: tuple[int, ...] = (0,)) -> None:
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if r.returncode not in ok:
        raise SystemExit(f"{' '.join(cmd)} exited {r.returncode}: {r.stderr[-500:]}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    n = ap.parse_args().repeat
    py = sys.executable
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        print(f"{'task':24} {'score s':>8} {'grader s':>9} {'ratio':>6}")
        for tid, (task, spec) in TASKS.items():
            path = task / "specs" / spec
            score_cmd = [py, "-m", "adequacy", "score", str(task), str(path), "--json",
                         "--no-cache"]
            grade_cmd = [py, "-m", "adequacy.ecosystem.harbor_verifier", "--task", str(task),
                         "--spec", str(path), "--out", str(out / "v")]
            score = _median(partial(_run, score_cmd), n)
            grade = _median(partial(_run, grade_cmd), n)
            print(f"{tid:24} {score:8.2f} {grade:9.2f} {grade / score:6.2f}")

        from adequacy.ecosystem.harbor_export import HarborOptions, export_harbor
        from adequacy.ecosystem.wheel import build_wheel

        t = time.perf_counter()
        wheel = build_wheel(out / "wheel")
        built = time.perf_counter() - t
        tasks = [VERUS, JML]
        t = time.perf_counter()
        done = export_harbor(tasks, out / "harbor", HarborOptions(wheel=wheel))
        exported = time.perf_counter() - t
        print(f"wheel build {built:.1f} s; Harbor export of {len(done.tasks)} tasks "
              f"{exported:.1f} s ({exported / len(done.tasks):.2f} s per task)")
        try:
            from adequacy.ecosystem.hf_dataset import export_hf, import_hf
        except ImportError:
            return
        t = time.perf_counter()
        ids = export_hf(tasks, out / "hf")
        hf_out = time.perf_counter() - t
        t = time.perf_counter()
        import_hf(str(out / "hf"), out / "back")
        hf_in = time.perf_counter() - t
        print(f"Hugging Face export of {len(ids)} tasks {hf_out:.1f} s, import {hf_in:.1f} s")


if __name__ == "__main__":
    main()
