"""Fidelity of the ``key`` engine against ``rac`` on SpecGenBench with our gold specs.

Data: every examples/sgb-gold/<task_id>.java (our own JML for SpecGenBench methods), a sample
of the task's cases per bucket, plus a wrong output per post_complete case (post_sound) and the
hand-written invalid inputs of ``fidelity.SGB_INVALID`` (pre_sound). Prints per spec how many
cases each engine decides, every disagreement, and the fraction of stub checks KeY decides.
Run:  python benchmarks/key_sgb.py [--per-bucket 20] [--sgb DIR]
(DIR: an `adequacy import specgenbench` output; default: import ../shared/datasets afresh).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from adequacy.backend import Limits
from adequacy.backends.key import build
from adequacy.backends.key.fidelity import cross_check, sgb_gold

REPO = Path(__file__).resolve().parents[1]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--per-bucket", type=int, default=20)
    ap.add_argument("--sgb", type=Path, default=None)
    ap.add_argument("--only", nargs="*", default=None, help="task ids")
    args = ap.parse_args()
    if build.why_unavailable():
        print(f"key engine unavailable: {build.why_unavailable()}")
        return 2
    root = args.sgb
    if root is None:
        from adequacy.backends.openjml.importers.spec_harness import import_specgenbench
        root = Path(tempfile.mkdtemp(prefix="sgb-"))
        import_specgenbench(REPO.parent / "shared" / "datasets" / "specgenbench" / "sgb.jsonl",
                            root)
    total = key_dec = rac_dec = both = 0
    bad = []
    reasons: Counter[str] = Counter()
    t0 = time.monotonic()
    for task, spec in sgb_gold(REPO / "examples" / "sgb-gold", root, args.per_bucket):
        if args.only and task.id not in args.only:
            continue
        rep = cross_check(task, spec, Limits(case_seconds=20, spec_seconds=900))
        if rep.error:
            print(f"{task.id}: ERROR {rep.error}")
            continue
        n = len(rep.rows)
        rd = sum(r.rac != "unknown" for r in rep.rows)
        total += n
        key_dec += rep.key_decided
        rac_dec += rd
        both += len(rep.both_decided)
        bad += [(task.id, r) for r in rep.disagreements]
        for r in rep.rows:
            if r.key == "unknown":
                reasons[f"{task.id}/{r.bucket}"] += 1
        print(f"{task.id}: {n} cases, key decided {rep.key_decided}, rac {rd}, "
              f"disagree {len(rep.disagreements)}, key {rep.key_seconds:.0f}s", flush=True)
    print(f"\ntotal: {total} cases, key decided {key_dec} ({key_dec / max(1, total):.0%}), "
          f"rac {rac_dec}, both {both}, disagreements {len(bad)}, "
          f"{time.monotonic() - t0:.0f}s")
    for tid, r in bad:
        print(f"DISAGREE {tid} {r.bucket}/{r.case_id}: rac {r.rac} ({r.rac_reason[:100]}) "
              f"key {r.key} ({r.key_reason[:160]})")
    for k, v in reasons.most_common():
        print(f"key unknown: {k}: {v}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
