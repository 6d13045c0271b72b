"""Fidelity of the ``key`` engine against ``rac`` on SpecGenBench with our gold specs.

Data: every examples/sgb-gold/<task_id>.java (our own JML for SpecGenBench methods), a sample
of the task's cases per bucket, plus a wrong output per post_complete case (post_sound) and the
hand-written invalid inputs of ``jml_crosscheck.SGB_INVALID`` (pre_sound). Prints per spec how many
cases each engine decides, every disagreement, and the fraction of stub checks KeY decides.
Run:  python benchmarks/key_sgb.py [--per-bucket 20] [--sgb DIR]
(DIR: an `adequacy import specgenbench` output; default: import ../shared/datasets afresh).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from jml_crosscheck import cross_check, decided, problem, sgb_gold

from adequacy.examples import bundled_folder
from adequacy.extensions.backend import Limits, engine_named
from adequacy.extensions.registry import registry

REPO = Path(__file__).resolve().parents[1]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--per-bucket", type=int, default=20)
    ap.add_argument("--sgb", type=Path, default=None)
    ap.add_argument("--only", nargs="*", default=None, help="task ids")
    args = ap.parse_args()
    key = engine_named(registry().owner("jml"), "key").info()
    if not key.available:
        print(f"key engine unavailable: {key.reason}")
        return 2
    root = args.sgb
    if root is None:
        from adequacy_openjml.importers.spec_harness import import_specgenbench
        root = Path(tempfile.mkdtemp(prefix="sgb-"))
        import_specgenbench(REPO.parent / "shared" / "datasets" / "specgenbench" / "sgb.jsonl",
                            root)
    total = key_dec = rac_dec = 0
    bad = []
    t0 = time.monotonic()
    for task, spec in sgb_gold(bundled_folder("sgb-gold"), root, args.per_bucket):
        if args.only and task.id not in args.only:
            continue
        rep = cross_check(task, spec, Limits(case_seconds=20, spec_seconds=900))
        why = problem(rep)
        if why:
            print(f"{task.id}: ERROR {why}")
            continue
        n = len(rep.verdicts)
        kd, rd = decided(rep, "key"), decided(rep, "rac")
        total += n
        key_dec += kd
        rac_dec += rd
        bad += [(task.id, d) for d in rep.disagreements]
        secs = sum(r.seconds for r in rep.engines if r.name == "key")
        print(f"{task.id}: {n} cases, key decided {kd}, rac {rd}, "
              f"disagree {len(rep.disagreements)}, key {secs:.0f}s", flush=True)
    print(f"\ntotal: {total} cases, key decided {key_dec} ({key_dec / max(1, total):.0%}), "
          f"rac {rac_dec}, disagreements {len(bad)}, {time.monotonic() - t0:.0f}s")
    for tid, d in bad:
        print(f"DISAGREE {tid} {d.bucket.value}/{d.case_id}: "
              + "; ".join(f"{e} {v.value} ({d.reasons.get(e, '')[:140]})"
                          for e, v in d.values.items()))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
