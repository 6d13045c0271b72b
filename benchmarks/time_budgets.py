"""Time a spec that never finishes costs, with and without giving up a predicate after
consecutive case timeouts (``Limits.timeout_streak``, issue 10 section 5).

Spec: SpecGenBench's SGB_GCD (222 pre + 222 post cases after ``adequacy import
specgenbench``) with a pure helper that loops forever, called in the postcondition (variant
``post``) or in both clauses (variant ``both``), scored by ``rac`` with the default limits
(10 s per case, 600 s per spec). With the rule the whole spec is measured. Without it
(``timeout_streak=0``) a full run costs min(600 s, cases x 10 s) per engine run, so the script
times the first ``--sample`` looping cases and extrapolates per case, capped by the spec
budget; the printed ratio says which side is extrapolated.
Run:  python benchmarks/time_budgets.py [--sample 3] [--case-timeout 10]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from adequacy.backend import Limits
from adequacy.backends.openjml.importers.spec_harness import import_specgenbench
from adequacy.runner import score_spec
from adequacy.tasks import load_task

REPO = Path(__file__).resolve().parents[1]
SPIN = "\t/*@ pure @*/ static boolean spin(int a) { while (true) { } }\n"
VARIANTS = {"post": "\t//@ ensures spin(num1);\n",
            "both": "\t//@ requires spin(num2);\n\t//@ ensures spin(num1);\n"}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sample", type=int, default=3)
    ap.add_argument("--case-timeout", type=float, default=10.0)
    args = ap.parse_args()
    datasets = REPO.parent / "shared" / "datasets"
    if not (datasets / "specgenbench").is_dir():
        raise SystemExit(f"needs {datasets}/specgenbench (SpecGenBench's sgb.jsonl)")
    with tempfile.TemporaryDirectory() as tmp:
        import_specgenbench(datasets / "specgenbench", Path(tmp))
        task = load_task(Path(tmp) / "SGB_GCD")
        code = (Path(tmp) / "SGB_GCD" / "Solution.java").read_text()
        limits = Limits(case_seconds=args.case_timeout)
        for name, jml in VARIANTS.items():
            spec = code.replace("\tpublic static int solve", SPIN + jml +
                                "\tpublic static int solve")
            t0 = time.monotonic()
            rep = score_spec(task, spec, "Spin.java", limits=limits, engines=["rac"])
            with_rule = time.monotonic() - t0
            looping = [c for c in task.all_cases()
                       if c.bucket.predicate == "post" or name == "both"]
            sample = looping[:args.sample]
            t0 = time.monotonic()
            score_spec(task, spec, "Spin.java", engines=["rac"], cases=sample,
                       limits=limits.model_copy(update={"timeout_streak": 0}))
            per_case = (time.monotonic() - t0) / len(sample)
            # one engine run covers every case: the spec budget caps the whole of it
            without = min(limits.spec_seconds, per_case * len(looping))
            timeouts = sum(v.reason.startswith("timeout") for v in rep.verdicts)
            print(f"{name:5s} cases {len(rep.verdicts)}, looping {len(looping)}, timeouts paid "
                  f"{timeouts}: with streak {limits.timeout_streak}: {with_rule:.1f}s measured; "
                  f"without: {without:.0f}s extrapolated ({per_case:.1f}s/case on "
                  f"{len(sample)} cases, capped at the {limits.spec_seconds:.0f}s spec budget); "
                  f"ratio {without / with_rule:.1f}x")


if __name__ == "__main__":
    main()
