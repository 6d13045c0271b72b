"""The JML semantics table: cases decided per engine, wrong decisions, rac-vs-key disagreements.

Three suites, measured in one run:
- probes: tests/semantics/jml_probes.py (hand-checked truths with their sources); "wrong" counts
  decided verdicts that contradict the truth (must be 0: "decided means correct");
- bundled: every spec of examples/jml/*/specs on all its cases;
- sgb-gold: examples/sgb-gold on SpecGenBench tasks imported from ../shared/datasets (sampled
  cases per bucket plus wrong outputs and hand-written invalid inputs; skipped when missing).
"disagree" counts cases both engines decided differently (must be 0).
Run:  python benchmarks/semantics_jml.py [--per-bucket 3] [--bundled-per-bucket N] [--no-key]
      [--no-sgb]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "semantics"))

from jml_probes import PROBES, run, wrong  # noqa: E402

from adequacy.backend import Limits  # noqa: E402
from adequacy.tasks import Task  # noqa: E402


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
    from adequacy.backends.key.fidelity import cross_check
    from adequacy.backends.openjml.jml.load import load
    from adequacy.backends.openjml.rac import engine as rac_engine

    row: dict[str, object] = {"suite": name, "cases": 0, "rac decided": 0}
    if use_key:
        row.update({"key decided": 0, "disagree": 0})
    limits = Limits(case_seconds=20, spec_seconds=900)
    for task, spec in pairs:
        if use_key:
            rep = cross_check(task, spec, limits)
            if rep.error:
                print(f"  {name} {spec}: {rep.error}")
                continue
            row["cases"] = int(str(row["cases"])) + len(rep.rows)
            row["rac decided"] = int(str(row["rac decided"])) + sum(
                r.rac != "unknown" for r in rep.rows)
            row["key decided"] = int(str(row["key decided"])) + rep.key_decided
            row["disagree"] = int(str(row["disagree"])) + len(rep.disagreements)
            for r in rep.disagreements:
                print(f"  DISAGREE {spec} {r.bucket} {r.case_id}: rac {r.rac} ({r.rac_reason}) "
                      f"key {r.key} ({r.key_reason})")
        else:
            s = load(task, spec.read_text(), str(spec))
            cases = task.all_cases()
            vs = rac_engine.check(s.unit, s.file, task, cases, limits,
                                  gap=s.math_gap)
            row["cases"] = int(str(row["cases"])) + len(vs)
            row["rac decided"] = int(str(row["rac decided"])) + sum(
                v.value.value != "unknown" for v in vs)
    return row


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--per-bucket", type=int, default=3)
    ap.add_argument("--bundled-per-bucket", type=int, default=0,
                    help="sample bundled specs' cases (0: every case)")
    ap.add_argument("--no-key", action="store_true")
    ap.add_argument("--no-sgb", action="store_true")
    args = ap.parse_args()
    from adequacy.backends.key import build
    from adequacy.backends.key.fidelity import bundled, sample, sgb_gold

    use_key = not args.no_key and build.why_unavailable() is None
    if not args.no_key and not use_key:
        print(f"key engine unavailable: {build.why_unavailable()}")
    engines = ["rac", "key"] if use_key else ["rac"]
    rows = []
    t0 = time.monotonic()
    rows.append(probes(engines))
    pairs = list(bundled(REPO / "examples" / "jml"))
    if args.bundled_per_bucket:
        pairs = [(sample(t, args.bundled_per_bucket), s) for t, s in pairs]
    rows.append(cross("bundled", pairs, use_key))
    sgb = REPO.parent / "shared" / "datasets" / "specgenbench" / "sgb.jsonl"
    if not args.no_sgb and sgb.exists():
        from adequacy.backends.openjml.importers.spec_harness import import_specgenbench
        with tempfile.TemporaryDirectory(prefix="sgb-") as d:
            import_specgenbench(sgb, Path(d))
            sgb_pairs = sgb_gold(REPO / "examples" / "sgb-gold", Path(d), args.per_bucket)
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
