"""Spec-mutant and program-mutant strength per benchmark, before and after the found cases.

Usage: python benchmarks/strength_table.py --suite NAME=TASKS[:GOLD] ... [--budget 3]
       [--work DIR] [--engine E]... [--limit N] [--no-recheck]

For each suite the task folders are copied into a work folder (the originals are left alone),
then every task is measured as ``adequacy task strength --add`` measures it: every one-change
mutant of its gold spec (``GOLD``: a folder of ``<task id>.<ext>``; without one, each task's
own ``specs/gold.<ext>`` or its language's bundled golds) scored on the task's cases,
survivors judged (the solver where the language has one, else sampling), blind spots searched
against the gold, and the reference program's mutants run on the task's valid inputs; the
cases found are added. Then:

- ``task audit`` runs on the work copies with the same golds: every finding on an added case
  (origin ``blind_spot`` or ``program_mutant``) is a contradiction of the gold spec or the
  reference (goal 0);
- unless ``--no-recheck``, the strength is measured again on the work copies (no more adding):
  the spec-mutant strength measured then is the independent "after", to set beside the one
  the first run predicted.

Prints per suite: tasks measured per figure, median and 10th percentile before and after, the
mutant totals (equivalent survivors by how they were judged), cases added, contradictions on
added cases, and the time. Without --suite, the bundled examples of each language are used.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from adequacy.examples import bundled_folder
from adequacy.records.html import qa_of
from adequacy.scoring.options import ScoreOptions
from adequacy.search.audit import audit_task
from adequacy.search.strength import (
    StrengthReport,
    add_cases,
    gold_for,
    row_of,
    task_strength,
    totals,
)
from adequacy.taskdirs.discovery import discover_tasks
from adequacy.taskdirs.load import load_task
from adequacy_mutators import program_mutants_task

ADDED = ("blind_spot", "program_mutant")


def _f(v: float | None) -> str:
    return "n/a" if v is None else f"{v:.2f}"


def measure(folder: Path, gold: str, opts: ScoreOptions, budget: float, add: bool
            ) -> StrengthReport:
    task = load_task(folder)
    prog = program_mutants_task(folder, write=add)
    rep, found = task_strength(task, gold_for(task, gold), opts, budget=budget, programs=prog)
    if add and found:
        rep.cases_added = add_cases(load_task(folder), found)
    return rep


def contradictions(folders: list[Path], gold: str, opts: ScoreOptions) -> tuple[int, int, list[str]]:
    """(added cases, findings on added cases, the first few findings)."""
    from adequacy.extensions.registry import registry
    added = 0
    bad: list[str] = []
    for f in folders:
        task = load_task(f)
        ids = {c.key for c in task.all_cases() if c.origin in ADDED}
        added += len(ids)
        if not ids:
            continue
        bundled = registry().backend_for(task.language).gold_dir
        dirs = [Path(gold)] if gold != "gold" else [bundled] if bundled is not None else []
        rep = audit_task(task, dirs, opts)
        if rep.error:
            bad.append(f"{task.id}: the audit could not run: {rep.error}")
        for x in rep.findings:
            if x.case in ids:
                bad.append(f"{task.id}: {x.kind}: {x.case}: {x.detail[:160]}")
    return added, len(bad), bad[:10]


def suite(name: str, tasks: Path, gold: str, work: Path, opts: ScoreOptions, budget: float,
          limit: int | None, recheck: bool) -> dict[str, Any]:
    dest = work / name
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    folders = []
    for f in discover_tasks([tasks])[:limit]:
        shutil.copytree(f, dest / f.name)
        folders.append(dest / f.name)
    t0 = time.monotonic()
    before: list[StrengthReport] = []
    for n, f in enumerate(folders, 1):
        r = measure(f, gold, opts, budget, add=True)
        before.append(r)
        print(f"  [{name} {n}/{len(folders)}] {r.task}: spec {_f(r.strength)} -> "
              f"{_f(r.strength_after)}, program {_f(r.program_strength)} -> "
              f"{_f(r.program_strength_after)} ({r.seconds:.0f} s)", file=sys.stderr, flush=True)
    first = time.monotonic() - t0
    added, n_bad, bad = contradictions(folders, gold, opts)
    again: list[StrengthReport] = []
    if recheck:
        for f in folders:
            again.append(measure(f, gold, opts, budget, add=False))
    return {"name": name, "tasks": len(folders), "before": before, "again": again,
            "added": added, "contradictions": n_bad, "bad": bad, "seconds": first}


def show(res: dict[str, Any]) -> None:
    qa = qa_of([row_of(r) for r in res["before"]])
    again = qa_of([row_of(r) for r in res["again"]]) if res["again"] else None
    print(f"\n## {res['name']}: {res['tasks']} tasks, {res['seconds']:.0f} s "
          f"({res['seconds'] / max(1, res['tasks']):.1f} s per task)")
    print("| measure | tasks | median | p10 | mean | worst |")
    print("|---|---|---|---|---|---|")
    for m in qa.summary:
        print(f"| {m.measure} | {m.tasks} | {_f(m.median)} | {_f(m.p10)} | {_f(m.mean)} | "
              f"{', '.join(m.worst[:3])} |")
    if again is not None:
        m = again.summary[0]
        print(f"| spec-mutant strength, measured again after --add | {m.tasks} | "
              f"{_f(m.median)} | {_f(m.p10)} | {_f(m.mean)} | {', '.join(m.worst[:3])} |")
        p = again.summary[2]
        print(f"| program-mutant strength, measured again after --add | {p.tasks} | "
              f"{_f(p.median)} | {_f(p.p10)} | {_f(p.mean)} | {', '.join(p.worst[:3])} |")
    tot = totals(res["before"])
    eq = {k.removeprefix("equivalent_"): v for k, v in tot.items() if k.startswith("equivalent_")}
    print(f"\nspec mutants {tot.get('made', 0)}: killed {tot.get('killed', 0)}, survived "
          f"{tot.get('survived', 0)} (equivalent {eq or 0}; blind spots "
          f"{tot.get('blind_spots', 0)}, closed {tot.get('closed', 0)}), invalid "
          f"{tot.get('invalid', 0)} (never counted killed), unknown {tot.get('unknown', 0)}")
    print(f"program mutants {tot.get('program_mutants', 0)}: wrong programs "
          f"{tot.get('wrong_programs', 0)}; cases added: blind spots {tot.get('cases_added', 0)},"
          f" program mutants {tot.get('program_cases_added', 0)}")
    print(f"added cases audited: {res['added']}; contradicting the gold spec or the reference: "
          f"**{res['contradictions']}**")
    spec = [r for r in res["before"] if r.made]
    made = sum(r.made for r in spec)
    golds = [r.gold_seconds for r in spec if r.gold_seconds]
    if made and golds:
        per = sum(r.mutant_seconds for r in spec) / made
        med = statistics.median(golds)
        print(f"time: {made} spec mutants scored at {per:.2f} s each, an ordinary score of a "
              f"gold spec {med:.3f} s (median; ratio {per / med:.1f}); survivors judged in "
              f"{sum(r.judge_seconds for r in spec):.0f} s")
    progs = [r.programs for r in res["before"] if r.programs is not None and r.programs.made]
    if progs:
        pm = sum(p.made for p in progs)
        print(f"time: {pm} program mutants in {sum(p.seconds for p in progs):.0f} s "
              f"({sum(p.seconds for p in progs) / pm:.2f} s each, reference runs included)")
    for b in res["bad"]:
        print(f"  {b}")
    errors = [r for r in res["before"] if r.error]
    for r in errors:
        print(f"  error: {r.task}: {r.error}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--suite", action="append", default=[], metavar="NAME=TASKS[:GOLD]")
    ap.add_argument("--budget", type=float, default=3.0)
    ap.add_argument("--work", type=Path, default=None)
    ap.add_argument("--engine", action="append", default=[])
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--no-recheck", action="store_true")
    args = ap.parse_args()
    suites = []
    for s in args.suite or [f"{lang}={bundled_folder(lang)}" for lang in
                            ("verus", "jml", "python")]:
        name, rest = s.split("=", 1)
        tasks, _, gold = rest.partition(":")
        suites.append((name, Path(tasks), gold or "gold"))
    work = args.work or Path(tempfile.mkdtemp(prefix="strength-table-"))
    opts = ScoreOptions(engines=args.engine)
    print(f"work folder: {work}; budget {args.budget:g} s per survivor; engines "
          f"{args.engine or 'default'}")
    for name, tasks, gold in suites:
        res = suite(name, tasks, gold, work, opts, args.budget, args.limit,
                    not args.no_recheck)
        show(res)


if __name__ == "__main__":
    main()
