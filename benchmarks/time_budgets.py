"""Time a spec that never finishes costs, with and without giving up a predicate after
consecutive failed cases (``Limits.timeout_streak``).

Spec: SpecGenBench's SGB_GCD (222 pre + 222 post cases after ``adequacy import
specgenbench``) with a pure helper that loops forever, called in the postcondition (variant
``post``) or in both clauses (variant ``both``), scored by ``rac`` with the default limits
(10 s per case, 600 s per spec). With the rule the whole spec is measured. Without it
(``timeout_streak=0``) a full run costs min(600 s, cases x 10 s) per engine run, so the script
times the first ``--sample`` looping cases and extrapolates per case, capped by the spec
budget; the printed ratio says which side is extrapolated.

Beside them: SGB_Abs imported *with* mutants (``adequacy import specgenbench``, then
the mutate step: 206 pre + 824 post cases) and a pure model method that allocates without
bound (``new long[1 << 20][]``, each row ``new long[1 << 20]``) in the postcondition: every
post case runs out of memory; measured with the rule (goal: under 30 s) and, for a sample,
without it. Run:  python benchmarks/time_budgets.py [--sample 3] [--case-timeout 10]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from adequacy.extensions.backend import Limits
from adequacy.scoring.runner import score_spec
from adequacy.taskdirs.load import load_task
from adequacy_openjml.importers.spec_harness import import_specgenbench

REPO = Path(__file__).resolve().parents[1]
SPIN = "\t/*@ pure @*/ static boolean spin(int a) { while (true) { } }\n"
VARIANTS = {"post": "\t//@ ensures spin(num1);\n",
            "both": "\t//@ requires spin(num2);\n\t//@ ensures spin(num1);\n"}
HOG = ("\t//@ public static model pure boolean hog(int a) { long[][] m = new long[1 << 20][]; "
       "for (int i = 0; i < m.length; i++) m[i] = new long[1 << 20]; return m.length > a; }\n"
       "\t//@ ensures hog(num);\n")


def out_of_memory(sgb: Path, tmp: Path, limits: Limits, sample: int) -> None:
    """SGB_Abs with mutants and a helper that fills the heap on every post case."""
    src = tmp / "abs.jsonl"
    src.write_text(next(line for line in sgb.read_text().splitlines()
                        if json.loads(line)["task_id"] == "SGB_Abs") + "\n")
    subprocess.run([sys.executable, "-m", "adequacy", "import", "specgenbench", str(src),
                    str(tmp / "abs")], check=True, capture_output=True)
    task = load_task(tmp / "abs" / "SGB_Abs")
    code = (tmp / "abs" / "SGB_Abs" / "Solution.java").read_text()
    spec = code.replace("\tpublic static int solve", HOG + "\tpublic static int solve")
    post = [c for c in task.all_cases() if c.bucket.predicate == "post"]
    t0 = time.monotonic()
    rep = score_spec(task, spec, "Hog.java", limits=limits, engines=["rac"])
    with_rule = time.monotonic() - t0
    t0 = time.monotonic()
    score_spec(task, spec, "Hog.java", engines=["rac"], cases=post[:sample],
               limits=limits.model_copy(update={"timeout_streak": 0}))
    per_case = (time.monotonic() - t0) / sample
    oom = sum("out of memory" in v.reason and "in a row" not in v.reason
              for v in rep.verdicts)
    skipped = sum("ran out of memory" in v.reason for v in rep.verdicts)
    without = min(limits.spec_seconds, per_case * len(post))
    print(f"oom   cases {len(rep.verdicts)}, post {len(post)}, out-of-memory cases paid {oom}, "
          f"skipped {skipped}: with streak {limits.timeout_streak}: {with_rule:.1f}s measured "
          f"(goal < 30 s: {'met' if with_rule < 30 else 'MISSED'}); without: {without:.0f}s "
          f"extrapolated ({per_case:.2f}s/case on {sample} cases); "
          f"ratio {without / with_rule:.1f}x")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sample", type=int, default=3)
    ap.add_argument("--case-timeout", type=float, default=10.0)
    ap.add_argument("--only", choices=["loops", "oom"], help="one of the two measurements")
    args = ap.parse_args()
    datasets = REPO.parent / "shared" / "datasets"
    if not (datasets / "specgenbench").is_dir():
        raise SystemExit(f"needs {datasets}/specgenbench (SpecGenBench's sgb.jsonl)")
    with tempfile.TemporaryDirectory() as tmp:
        import_specgenbench(datasets / "specgenbench", Path(tmp))
        task = load_task(Path(tmp) / "SGB_GCD")
        code = (Path(tmp) / "SGB_GCD" / "Solution.java").read_text()
        limits = Limits(case_seconds=args.case_timeout)
        for name, jml in VARIANTS.items() if args.only != "oom" else ():
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
        if args.only != "loops":
            out_of_memory(datasets / "specgenbench" / "sgb.jsonl", Path(tmp), limits,
                          args.sample)


if __name__ == "__main__":
    main()
