"""Import of a generated problem package with 500 official tests and 100 hacks, judges
included (the max_index sample's C++ validator, checker and main solution, compiled once
per run with a fresh judge cache unless --warm), timed end to end.

    python benchmarks/package_import.py [--tests 500] [--hacks 100] [--warm] [--per-case 50]

Prints the wall time of the whole import and the cases per bucket; the issue's bar is 60 s on
2 cores.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import tempfile
import time
from pathlib import Path

from adequacy.examples import bundled_folder

SAMPLE = bundled_folder("packages") / "max_index"


def make_package(root: Path, tests: int, hacks: int, seed: int = 0) -> None:
    rng = random.Random(seed)
    shutil.copytree(SAMPLE, root, ignore=shutil.ignore_patterns("tests", "hacks"))
    (root / "tests").mkdir()
    (root / "hacks").mkdir()
    for i in range(1, tests + 1):
        a = [rng.randint(-10**9, 10**9) for _ in range(rng.randint(1, 100))]
        (root / "tests" / f"{i:03d}").write_text(f"{len(a)}\n{' '.join(map(str, a))}\n")
        (root / "tests" / f"{i:03d}.a").write_text(f"{a.index(max(a)) + 1}\n")
    xml = (root / "problem.xml").read_text()
    xml = xml.replace("<test-count>8</test-count>", f"<test-count>{tests}</test-count>")
    xml = xml.replace("tests/%02d", "tests/%03d")
    (root / "problem.xml").write_text(xml)
    for h in range(1, hacks + 1):
        n = rng.choice([0, 101, 105]) if h % 4 == 0 else rng.randint(1, 100)
        a = [rng.randint(-10**9, 10**9) for _ in range(n)]
        if h % 8 == 4 and n == 0:
            n, a = 3, [5, 3 * 10**9, 1]  # out of range
        (root / "hacks" / f"h{h}").write_text(f"{n}\n{' '.join(map(str, a))}\n")
        k = (a.index(max(a)) + 1 if a and h % 2 else rng.randint(0, max(n, 1)))
        (root / "hacks" / f"h{h}.out").write_text(f"{k}\n")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tests", type=int, default=500)
    ap.add_argument("--hacks", type=int, default=100)
    ap.add_argument("--warm", action="store_true", help="keep compiled judges cached")
    ap.add_argument("--per-case", type=int, default=50, metavar="N",
                    help="also time the validator on N tests batched vs one run per case "
                         "(0: skip)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        if not args.warm:
            os.environ["ADEQUACY_CACHE"] = str(Path(d) / "cache")
        from adequacy.packages import import_packages
        pkg = Path(d) / "generated"
        make_package(pkg, args.tests, args.hacks)
        start = time.monotonic()
        cpu0 = os.times()
        report = import_packages([pkg], Path(d) / "out")
        wall = time.monotonic() - start
        cpu1 = os.times()
        (o,) = report.outcomes
        load = os.getloadavg()[0]
        print(f"{args.tests} tests + {args.hacks} hacks: converted={o.converted} "
              f"buckets={o.counts} in {wall:.1f} s wall at load {load:.0f} (our process's "
              f"CPU {cpu1.user + cpu1.system - cpu0.user - cpu0.system:.1f} s; the sandboxed "
              f"judges' is not visible here); bar 60 s: {'met' if wall < 60 else 'NOT met'} "
              f"({wall / 60:.2f}x of it)")
        if not o.converted:
            print(o.problems[0].detail if o.problems else "")
        if args.per_case:
            per_case_ratio(pkg, args.per_case)


def per_case_ratio(pkg: Path, n: int) -> None:
    """The validator on ``n`` tests: one sandboxed run for all (the driver) vs one per case."""
    from adequacy.packages.layout import read_package
    from adequacy.packages.programs import judge_cache, run_judge
    from adequacy.sandbox import toolchain

    p = read_package(pkg)
    assert p.validator is not None
    cases = [(t.input.read_bytes(), b"", b"") for t in p.tests[:n]]
    cache = judge_cache(toolchain.cache_dir(shared_with_sandbox=True))
    run_judge(p.validator, "validator", cases[:1], cache=cache)  # compiled before timing
    t0 = time.monotonic()
    batched = run_judge(p.validator, "validator", cases, cache=cache)
    t1 = time.monotonic()
    single = [run_judge(p.validator, "validator", [c], cache=cache)[0] for c in cases]
    t2 = time.monotonic()
    assert [o.valid for o in batched] == [o.valid for o in single]
    print(f"validator on {n} tests: one sandbox run {t1 - t0:.2f} s, one run per case "
          f"{t2 - t1:.2f} s ({(t2 - t1) / max(t1 - t0, 1e-9):.1f}x), same verdicts")


if __name__ == "__main__":
    main()
