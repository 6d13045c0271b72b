"""Conversion figures of the Spec-Harness importers on the datasets beside the checkout.

Usage: python benchmarks/jml_import.py [DATASETS_DIR] [--keep DEST]
Prints, per dataset, tasks and pairs converted and the grouped reasons for the rest, and the
time taken (a ratio-free figure: the importer is a one-off, the point is what converts).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

from adequacy_openjml.importers import import_formalbench, import_specgenbench


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    default = os.environ.get("ADEQUACY_DATASETS") or str(
        Path(__file__).resolve().parents[2] / "shared" / "datasets")
    ap.add_argument("datasets", nargs="?", default=default)
    ap.add_argument("--keep", type=Path, help="write the tasks here instead of a temp folder")
    args = ap.parse_args()
    root = Path(args.datasets)
    if not root.is_dir():
        print(f"no datasets at {root}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        dest = args.keep or Path(tmp)
        for name, fn, sub in (("specgenbench", import_specgenbench, "specgenbench"),
                              ("formalbench", import_formalbench, "formalbench")):
            if not (root / sub).is_dir():
                print(f"{name}: missing under {root}")
                continue
            t0 = time.perf_counter()
            report = fn(root / sub, dest / name)
            dt = time.perf_counter() - t0
            print(report.summary())
            print(f"  time: {dt:.2f} s ({report.figures.get('pairs_total', 0) / dt:.0f} pairs/s)\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
