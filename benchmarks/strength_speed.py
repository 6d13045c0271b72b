"""What task strength costs: one SpecGenBench task and one VERINA task end to end, and the whole
of SpecGenBench, with the time per mutant beside the time of one ordinary score.

Usage: python benchmarks/strength_speed.py [--sgb DIR] [--verina DIR] [--sgb-task ID]
       [--verina-task ID] [--budget 3] [--whole/--no-whole]

Without DIR the datasets in ../shared/datasets are imported into a temporary folder (as
``adequacy import`` does, generation and mutation included). Every figure comes from this run,
with the verdict cache off (a cached score would make the ordinary score look free):

- ordinary score: ``score_spec`` of the gold spec on the task's cases (what ``adequacy score``
  costs);
- per spec mutant: scoring one mutant on the task's cases (the same work as an ordinary score
  of another spec), then judging the survivors (sampling ``--budget`` s each);
- per program mutant: running one mutant of the reference on the task's valid inputs.

Prints the ratios (time per spec mutant / time per ordinary score).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from adequacy.scoring.options import ScoreOptions
from adequacy.search.strength import StrengthReport, gold_for, task_strength
from adequacy.taskdirs.discovery import discover_tasks
from adequacy.taskdirs.load import load_task
from adequacy_mutators import program_mutants_task

DATA = Path(__file__).resolve().parents[2] / "shared" / "datasets"
REPO = Path(__file__).resolve().parents[1]
SGB_GOLD = REPO / "backends" / "adequacy_openjml" / "examples" / "sgb-gold"
VERINA_GOLD = REPO / "backends" / "adequacy_verus" / "examples" / "verina-gold"


def _import(kind: str, src: Path, dest: Path) -> Path:
    """``adequacy import`` as a user runs it (conversion, then generated and mutated cases)."""
    import subprocess
    subprocess.run([sys.executable, "-m", "adequacy", "import", kind, str(src), str(dest)],
                   check=True, stdout=subprocess.DEVNULL)
    return dest


def one(folder: Path, gold: Path, budget: float) -> StrengthReport:
    task = load_task(folder)
    t0 = time.monotonic()
    prog = program_mutants_task(folder, write=False)
    rep, _ = task_strength(task, gold_for(task, gold), ScoreOptions(), cache=None,
                           budget=budget, programs=prog)
    rep.seconds = round(time.monotonic() - t0, 3)
    return rep


def line(rep: StrengthReport) -> str:
    p = rep.programs
    per_mutant = rep.mutant_seconds / rep.made if rep.made else None
    judged = rep.survived
    parts = [f"{rep.task}: {rep.seconds:.1f} s end to end",
             f"ordinary score {rep.gold_seconds:.2f} s",
             f"{rep.made} spec mutants in {rep.mutant_seconds:.1f} s"
             + (f" ({per_mutant:.2f} s each, {per_mutant / rep.gold_seconds:.2f}x an ordinary "
                f"score)" if per_mutant is not None and rep.gold_seconds else ""),
             f"{judged} survivors judged in {rep.judge_seconds:.1f} s"]
    if p is not None and p.made:
        parts.append(f"{p.made} program mutants in {p.seconds:.1f} s "
                     f"({p.seconds / p.made:.2f} s each)")
    return "; ".join(parts)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sgb", type=Path)
    ap.add_argument("--verina", type=Path)
    ap.add_argument("--sgb-task", default="SGB_LinearSearch")
    ap.add_argument("--verina-task", default="verina_basic_10")
    ap.add_argument("--budget", type=float, default=3.0)
    ap.add_argument("--whole", action=argparse.BooleanOptionalAction, default=True)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="strength-speed-"))
    sgb = args.sgb or _import("specgenbench", DATA / "specgenbench" / "sgb.jsonl", tmp / "sgb")
    ver = args.verina or _import("verina", DATA / "verina", tmp / "verina")
    print(f"one task each (verdict cache off, budget {args.budget:g} s per survivor):")
    for folder, gold in ((sgb / args.sgb_task, SGB_GOLD), (ver / args.verina_task, VERINA_GOLD)):
        print("  " + line(one(folder, gold, args.budget)), flush=True)
    if not args.whole:
        return
    t0 = time.monotonic()
    reps = []
    for n, f in enumerate(discover_tasks([sgb]), 1):
        reps.append(one(f, SGB_GOLD, args.budget))
        print(f"  [{n}] {line(reps[-1])}", file=sys.stderr, flush=True)
    total = time.monotonic() - t0
    spec = [r for r in reps if r.made]
    made = sum(r.made for r in spec)
    mutant_s = sum(r.mutant_seconds for r in spec)
    judge_s = sum(r.judge_seconds for r in spec)
    ordinary = [r.gold_seconds for r in spec if r.gold_seconds]
    progs = [r.programs for r in reps if r.programs is not None and r.programs.made]
    pm = sum(p.made for p in progs)
    pm_s = sum(p.seconds for p in progs)
    print(f"\nwhole SpecGenBench ({len(reps)} tasks, {len(spec)} with a gold spec): "
          f"{total:.0f} s")
    if made and ordinary:
        per = mutant_s / made
        med = statistics.median(ordinary)
        print(f"  spec mutants: {made} in {mutant_s:.0f} s, {per:.2f} s each; an ordinary score "
              f"of a gold spec: median {med:.2f} s; ratio {per / med:.2f}")
        print(f"  survivors judged in {judge_s:.0f} s ({sum(r.survived for r in spec)} "
              "survivors)")
    if pm:
        print(f"  program mutants: {pm} in {pm_s:.0f} s over {len(progs)} tasks, "
              f"{pm_s / pm:.2f} s each")
    print(f"  tasks with a gold spec, end to end: median "
          f"{statistics.median([r.seconds for r in spec]) if spec else 0:.1f} s; without one "
          f"(program mutants only): median "
          f"{statistics.median([r.seconds for r in reps if not r.made] or [0]):.1f} s")


if __name__ == "__main__":
    main()
