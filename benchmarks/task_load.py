"""Cost of the hostile-input guards when loading tasks, measured in one run.

Usage: python benchmarks/task_load.py TASKS_DIR [--repeat N]
Loads every task under TASKS_DIR (e.g. an imported SpecGenBench) with the guarded JSON parser
(integer digit cap, nesting cap: adequacy.model.textfiles.parse_json) and with plain ``json.loads`` in
its place, and prints both times and their ratio.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from adequacy.taskdirs import load
from adequacy.taskdirs.load import check_task


def _time(dirs: list[Path], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for d in dirs:
            _, errors = check_task(d)
            assert not errors, errors[0]
        best = min(best, time.perf_counter() - start)
    return best


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("tasks_dir", type=Path)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    dirs = sorted(d for d in args.tasks_dir.iterdir() if (d / "task.toml").is_file())
    if not dirs:
        print(f"no task folders in {args.tasks_dir}", file=sys.stderr)
        return 2
    n = sum(len(t.all_cases()) for t in (load.load_task(d) for d in dirs))
    guarded = _time(dirs, args.repeat)
    original = load.parse_json
    load.parse_json = json.loads  # type: ignore[assignment]
    try:
        plain = _time(dirs, args.repeat)
    finally:
        load.parse_json = original
    print(f"{len(dirs)} tasks, {n} cases (best of {args.repeat})")
    print(f"guarded parse_json {guarded:7.2f} s   plain json.loads {plain:7.2f} s   "
          f"ratio {guarded / plain:.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
