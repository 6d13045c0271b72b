"""Fidelity of the Verus engines, measured in one run.

    python benchmarks/semantics_verus.py [--datasets ../shared/datasets] [--no-verina]

1. The hand-checked probes of tests/semantics/verus_probe_data.py: per engine, cases decided,
   decided wrongly (against the truth worked out from the Verus guide / vstd), and decided on a
   case Verus leaves unspecified (must be 0: "undefined is undefined everywhere").
2. Every bundled spec (examples/verus/*/specs, examples/verina-gold with the VERINA tasks
   imported from the datasets): per engine, cases decided; per engine pair, cases both decided
   and cases where they disagree (must be 0).
"""

from __future__ import annotations

import argparse
import itertools
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "semantics"))

from verus_bundled_specs import example_specs, verina_gold_specs  # noqa: E402
from verus_probe_data import PROBES, available_engines, run_probe  # noqa: E402

from adequacy.extensions.backend import Limits, engine_named  # noqa: E402
from adequacy.extensions.registry import registry  # noqa: E402
from adequacy.model.verdicts import Truth  # noqa: E402


def probes_table(engines: list[str], work: Path) -> int:
    total = sum(len(p.cases) for p in PROBES)
    unspecified = sum(1 for p in PROBES for _, w in p.cases if w is None)
    decided = dict.fromkeys(engines, 0)
    wrong = dict.fromkeys(engines, 0)
    on_unspecified = dict.fromkeys(engines, 0)
    for p in PROBES:
        got = run_probe(p, work, engines)
        for e, vs in got.items():
            for (_, want), v in zip(p.cases, vs, strict=True):
                if v.value is Truth.unknown:
                    continue
                decided[e] += 1
                if want is None:
                    on_unspecified[e] += 1
                elif (v.value is Truth.true) != want:
                    wrong[e] += 1
    print(f"Probes: {len(PROBES)} specs, {total} cases ({unspecified} unspecified in Verus)")
    print(f"{'engine':<12}{'decided':>10}{'share':>8}{'wrong':>8}{'on unspecified':>16}")
    for e in engines:
        print(f"{e:<12}{decided[e]:>10}{decided[e] / total:>8.0%}{wrong[e]:>8}"
              f"{on_unspecified[e]:>16}")
    return sum(wrong.values()) + sum(on_unspecified.values())


def corpus_table(engines: list[str], specs: list, label: str) -> int:
    backend = registry().backends["verus"]
    decided = dict.fromkeys(engines, 0)
    pairs = {pr: [0, 0] for pr in itertools.combinations(engines, 2)}
    cases_total = 0
    start = time.monotonic()
    for task, path in specs:
        spec = backend.load_spec(task, path.read_text(), str(path))
        cases = task.all_cases()
        cases_total += len(cases)
        got = {e: engine_named(backend, e).check(spec, task, cases, Limits()) for e in engines}
        for e, vs in got.items():
            decided[e] += sum(1 for v in vs if v.decided)
        for (a, b), cnt in pairs.items():
            for va, vb in zip(got[a], got[b], strict=True):
                if va.decided and vb.decided:
                    cnt[0] += 1
                    cnt[1] += va.value != vb.value
    print(f"\n{label}: {len(specs)} specs, {cases_total} cases "
          f"({time.monotonic() - start:.1f}s)")
    print(f"{'engine':<12}{'decided':>10}{'share':>8}")
    for e in engines:
        share = decided[e] / cases_total if cases_total else 0.0
        print(f"{e:<12}{decided[e]:>10}{share:>8.0%}")
    print(f"{'pair':<24}{'both decided':>14}{'disagree':>10}")
    for (a, b), (both, dis) in pairs.items():
        print(f"{a + ' / ' + b:<24}{both:>14}{dis:>10}")
    return sum(d for _, d in pairs.values())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--datasets", type=Path, default=REPO.parent / "shared" / "datasets")
    ap.add_argument("--no-verina", action="store_true", help="skip the VERINA gold specs")
    args = ap.parse_args()
    engines = available_engines()
    print(f"Engines available: {', '.join(engines)}")
    with tempfile.TemporaryDirectory() as d:
        bad = probes_table(engines, Path(d) / "probes")
        bad += corpus_table(engines, example_specs(), "Bundled examples (examples/verus)")
        if not args.no_verina:
            gold = verina_gold_specs(args.datasets if args.datasets.is_dir() else None,
                                     Path(d) / "verina")
            if gold:
                bad += corpus_table(engines, gold, "VERINA gold (examples/verina-gold)")
            else:
                print("\nVERINA gold: skipped (no verina folder in the datasets)")
    print(f"\nwrong decided verdicts + disagreements: {bad}")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
