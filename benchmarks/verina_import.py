"""How much of VERINA the importer converts, and why the rest does not.

Usage: python benchmarks/verina_import.py [VERINA_DIR] [--lenient]
(default: ../shared/datasets/verina beside the checkout). Writes into a temporary folder.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from adequacy_verus.verina.importer import import_verina

REPO = Path(__file__).resolve().parents[1]


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("verina", nargs="?", type=Path,
                    default=REPO.parent / "shared" / "datasets" / "verina")
    ap.add_argument("--lenient", action="store_true",
                    help="keep a task's converting cases (default: strict, all or nothing)")
    args = ap.parse_args(argv)
    src = args.verina
    if not src.is_dir():
        print(f"no VERINA dataset at {src}")
        return 2
    strict = not args.lenient
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        report = import_verina(src, Path(tmp), strict=strict)
        secs = time.perf_counter() - t0
        print(f"mode: {'strict (a task converts only if every case does)' if strict else 'lenient'}")
        print(report.summary())
        print(f"import time: {secs:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
