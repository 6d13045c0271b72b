"""How much of VERINA the importer converts, and why the rest does not.

Usage: python benchmarks/verina_import.py [VERINA_DIR] [--lenient]
(default: ../shared/datasets/verina beside the checkout). Writes into a temporary folder.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from adequacy.backends.verus.verina.importer import import_verina

REPO = Path(__file__).resolve().parents[1]


def main(argv: list[str]) -> int:
    args = [a for a in argv if not a.startswith("--")]
    src = Path(args[0]) if args else REPO.parent / "shared" / "datasets" / "verina"
    if not src.is_dir():
        print(f"no VERINA dataset at {src}")
        return 2
    strict = "--lenient" not in argv
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
