"""Output mutants on converted Spec-Harness tasks: counts per operator and per task.

The original Spec-Harness mutator made 120 mutants equal to their original output (of 1,740 on
SpecGenBench) and crashed on ``String[]`` and ``char`` outputs. This script converts the dataset
with the JML importer (into a temporary folder; nothing is copied into the repository), makes
``--per-case`` mutants of every post_complete output, and checks each one independently of the
mutator: equal to the original under ``adequacy.model.values.encode``, or invalid under
``adequacy.model.values.validate``, would be a defect and is counted.

    python benchmarks/mutants_table.py [--dataset specgenbench|formalbench] [--per-case 3]
        [--seed 0] [--all-cases] [--datasets DIR]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from adequacy.errors import ValueTypeError
from adequacy.model.values import encode, validate
from adequacy.model.verdicts import Bucket
from adequacy.taskdirs.load import load_task
from adequacy_mutators import output_mutants, params_key

REPO = Path(__file__).resolve().parents[1]


def find_datasets(given: str | None) -> Path | None:
    for cand in ([Path(given)] if given else []) + [REPO.parent / "shared" / "datasets"]:
        if cand.is_dir():
            return cand
    return None


def collect(datasets: Path, dataset: str = "specgenbench", per_case: int = 3, seed: int = 0,
            official_only: bool = True) -> dict[str, Any]:
    """Convert, mutate and check; returns the figures the tables print."""
    from adequacy_openjml.importers.spec_harness import import_spec_harness

    per_op: Counter[str] = Counter()
    rows: list[dict[str, Any]] = []
    totals: Counter[str] = Counter()
    with tempfile.TemporaryDirectory() as tmp:
        rep = import_spec_harness(datasets / dataset, Path(tmp), dataset)
        for d in sorted(p for p in Path(tmp).iterdir() if p.is_dir()):
            task = load_task(d)
            cases = [c for c in task.cases.get(Bucket.post_complete, [])
                     if c.output is not None and (c.origin == "official" or not official_only)]
            made = equal = invalid = short = 0
            for c in cases:
                assert c.output is not None
                ms = output_mutants(c.output, task.outputs, per_case, seed,
                                    salt=params_key(c.input, task.inputs))
                short += per_case - len(ms)
                for m in ms:
                    made += 1
                    per_op[m.operator] += 1
                    if all(encode(m.value[p.name], p.type) == encode(c.output[p.name], p.type)
                           for p in task.outputs):
                        equal += 1
                    try:
                        for p in task.outputs:
                            validate(m.value[p.name], p.type)
                    except ValueTypeError:
                        invalid += 1
            types = ", ".join(f"{p.name}: {p.type}" for p in task.outputs)
            rows.append({"task": task.id, "output": types, "cases": len(cases), "mutants": made,
                         "short": short, "equal": equal, "invalid": invalid})
            totals.update({"cases": len(cases), "mutants": made, "short": short,
                           "equal": equal, "invalid": invalid})
    return {"per_operator": dict(per_op), "tasks": rows, "totals": dict(totals),
            "tasks_imported": len(rep.converted), "tasks_total": len(rep.outcomes)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dataset", default="specgenbench", choices=["specgenbench", "formalbench"])
    ap.add_argument("--per-case", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--all-cases", action="store_true",
                    help="also mutate the dataset's generated pairs (default: official only)")
    ap.add_argument("--datasets", help="folder holding specgenbench/ and formalbench/")
    args = ap.parse_args(argv)
    ds = find_datasets(args.datasets)
    if ds is None:
        print("no datasets folder (pass --datasets or put it at ../shared/datasets)",
              file=sys.stderr)
        return 2
    from rich.console import Console
    from rich.table import Table

    res = collect(ds, args.dataset, args.per_case, args.seed, not args.all_cases)
    con = Console(width=max(Console().width, 130))
    ops = Table(title=f"{args.dataset}: mutants per operator (per case {args.per_case}, "
                      f"seed {args.seed})")
    ops.add_column("operator")
    ops.add_column("mutants", justify="right")
    for op, n in sorted(res["per_operator"].items(), key=lambda kv: (-kv[1], kv[0])):
        ops.add_row(op, str(n))
    con.print(ops)
    tasks = Table(title=f"{args.dataset}: mutants per task")
    for col in ("task", "output", "cases", "mutants", "short", "equal", "invalid"):
        tasks.add_column(col, justify="left" if col in ("task", "output") else "right")
    for r in res["tasks"]:
        tasks.add_row(r["task"], r["output"], *(str(r[k]) for k in
                                                ("cases", "mutants", "short", "equal",
                                                 "invalid")))
    con.print(tasks)
    t = res["totals"]
    con.print(f"tasks {len(res['tasks'])} (imported {res['tasks_imported']} of "
              f"{res['tasks_total']}), cases {t.get('cases', 0)}, mutants "
              f"{t.get('mutants', 0)}, short of the requested number {t.get('short', 0)}, "
              f"[bold]equal to the original {t.get('equal', 0)}[/bold], "
              f"invalid {t.get('invalid', 0)}")
    return 1 if t.get("equal", 0) or t.get("invalid", 0) else 0


if __name__ == "__main__":
    raise SystemExit(main())
