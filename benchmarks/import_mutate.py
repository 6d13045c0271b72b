"""What `adequacy import --mutate` (the default) costs over `--no-mutate`, measured in one run.

Usage: python benchmarks/import_mutate.py [DATASETS_DIR] [--tasks N]
Imports SpecGenBench (the first N records, default all 120) twice through the real CLI, with and
without the mutate step, and prints both wall times, their ratio, and the sound cases added.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _count(dest: Path, bucket: str) -> int:
    return sum(len(f.read_text().splitlines())
               for f in dest.glob(f"*/tests/{bucket}.jsonl"))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    default = os.environ.get("ADEQUACY_DATASETS") or str(
        Path(__file__).resolve().parents[2] / "shared" / "datasets")
    ap.add_argument("datasets", nargs="?", default=default)
    ap.add_argument("--tasks", type=int, default=0, help="first N records only (0: all)")
    args = ap.parse_args()
    sgb = Path(args.datasets) / "specgenbench" / "sgb.jsonl"
    if not sgb.is_file():
        print(f"no SpecGenBench at {sgb}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "sgb.jsonl"
        lines = sgb.read_text().splitlines()
        src.write_text("\n".join(lines[: args.tasks or len(lines)]) + "\n")
        times = {}
        for flag in ("--no-mutate", "--mutate"):
            dest = Path(tmp) / flag.strip("-")
            start = time.perf_counter()
            subprocess.run([sys.executable, "-m", "adequacy", "import", "specgenbench",
                            str(src), str(dest), flag], check=True, capture_output=True)
            times[flag] = time.perf_counter() - start
            print(f"import {flag:12s} {times[flag]:7.1f} s  pre_sound "
                  f"{_count(dest, 'pre_sound'):6d}  post_sound {_count(dest, 'post_sound'):6d}"
                  f"  ({len(list(dest.glob('*/task.toml')))} tasks)")
        print(f"ratio mutate/no-mutate: {times['--mutate'] / times['--no-mutate']:.1f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
