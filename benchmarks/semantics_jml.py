"""The JML semantics table: cases decided per engine, wrong decisions, rac-vs-key disagreements.

Three suites, measured in one run:
- probes: tests/semantics/jml_probes.py (hand-checked truths with their sources); "wrong" counts
  decided verdicts that contradict the truth (must be 0: "decided means correct");
- bundled: every spec of examples/jml/*/specs on all its cases;
- sgb-gold: examples/sgb-gold on SpecGenBench tasks imported from ../shared/datasets (sampled
  cases per bucket plus wrong outputs and hand-written invalid inputs; skipped when missing).
"disagree" counts cases both engines decided differently (must be 0).
Run:  python benchmarks/semantics_jml.py [--per-bucket 3] [--bundled-per-bucket N] [--no-key]
      [--no-sgb] [--probes-only]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "semantics"))

sys.path.insert(0, str(REPO / "benchmarks"))

from jml_crosscheck import bundled, cross_check, decided, problem, sample, sgb_gold  # noqa: E402
from jml_probes import PROBES, run, wrong  # noqa: E402

from adequacy.examples import bundled_folder  # noqa: E402
from adequacy.extensions.backend import Limits, engine_named  # noqa: E402
from adequacy.extensions.registry import registry  # noqa: E402
from adequacy.model.task import Task  # noqa: E402


def probes(engines: list[str]) -> dict[str, object]:
    row: dict[str, object] = {"suite": "probes", "cases": 0}
    per: dict[str, list[str]] = {}
    with tempfile.TemporaryDirectory() as d:
        for p in PROBES:
            if p.invalid:
                continue
            row["cases"] = int(str(row["cases"])) + len(p.cases)
            for e in engines:
                res = run(p, e, Path(d) / e)
                row[f"{e} decided"] = int(str(row.get(f"{e} decided", 0))) + sum(
                    v != "unknown" for _t, v, _r in res)
                bad = wrong(res)
                row[f"{e} wrong"] = int(str(row.get(f"{e} wrong", 0))) + len(bad)
                per.setdefault(e, []).extend(v for _t, v, _r in res)
    if len(engines) == 2:
        row["disagree"] = sum(a != b and "unknown" not in (a, b)
                              for a, b in zip(per[engines[0]], per[engines[1]], strict=True))
    return row


def cross(name: str, pairs: list[tuple[Task, Path]], use_key: bool) -> dict[str, object]:
    """The runner's ``--cross-check`` (rac and key) on every pair; rac alone without key."""
    engines = ("rac", "key") if use_key else ("rac",)
    row: dict[str, object] = {"suite": name, "cases": 0, "rac decided": 0}
    if use_key:
        row.update({"key decided": 0, "disagree": 0})
    limits = Limits(case_seconds=20, spec_seconds=900)
    for task, spec in pairs:
        rep = cross_check(task, spec, limits, engines)
        why = problem(rep, engines)
        if why:
            print(f"  {name} {spec}: {why}")
            continue
        row["cases"] = int(str(row["cases"])) + len(rep.verdicts)
        for e in engines:
            row[f"{e} decided"] = int(str(row[f"{e} decided"])) + decided(rep, e)
        if use_key:
            row["disagree"] = int(str(row["disagree"])) + len(rep.disagreements)
        for d in rep.disagreements:
            print(f"  DISAGREE {spec} {d.bucket.value} {d.case_id}: " + "; ".join(
                f"{e} {v.value} ({d.reasons.get(e, '')})" for e, v in d.values.items()))
    return row


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--per-bucket", type=int, default=3)
    ap.add_argument("--bundled-per-bucket", type=int, default=0,
                    help="sample bundled specs' cases (0: every case)")
    ap.add_argument("--no-key", action="store_true")
    ap.add_argument("--no-sgb", action="store_true")
    ap.add_argument("--probes-only", action="store_true",
                    help="only the hand-checked probes (the suite that measures 'wrong')")
    args = ap.parse_args()
    key = engine_named(registry().owner("jml"), "key").info()
    use_key = not args.no_key and key.available
    if not args.no_key and not use_key:
        print(f"key engine unavailable: {key.reason}")
    engines = ["rac", "key"] if use_key else ["rac"]
    rows = []
    t0 = time.monotonic()
    rows.append(probes(engines))
    if args.probes_only:
        args.no_sgb = True
    pairs = [] if args.probes_only else list(bundled(bundled_folder("jml")))
    if args.bundled_per_bucket:
        pairs = [(sample(t, args.bundled_per_bucket), s) for t, s in pairs]
    if not args.probes_only:
        rows.append(cross("bundled", pairs, use_key))
    sgb = REPO.parent / "shared" / "datasets" / "specgenbench" / "sgb.jsonl"
    if not args.no_sgb and sgb.exists():
        from adequacy_openjml.importers.spec_harness import import_specgenbench
        with tempfile.TemporaryDirectory(prefix="sgb-") as d:
            import_specgenbench(sgb, Path(d))
            sgb_pairs = sgb_gold(bundled_folder("sgb-gold"), Path(d), args.per_bucket)
            rows.append(cross("sgb-gold", list(sgb_pairs), use_key))
    elif not args.no_sgb:
        print(f"sgb-gold skipped: {sgb} missing")
    cols = ["suite", "cases"] + [c for e in engines for c in (f"{e} decided", f"{e} wrong")] + \
        (["disagree"] if use_key else [])
    print(" | ".join(f"{c:>11}" for c in cols))
    for r in rows:
        print(" | ".join(f"{str(r.get(c, '-')):>11}" for c in cols))
    print(f"({time.monotonic() - t0:.0f} s; 'wrong' is measured on probes only, whose truths "
          "are known; 'disagree' = both engines decided, differently)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
