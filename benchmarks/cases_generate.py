"""What generated cases change on the imported benchmarks, measured in one run.

Usage: python benchmarks/cases_generate.py [--sgb N] [--fb N] [--verina N] [--valid N]
       [--seed S] [--no-baselines]
Imports SpecGenBench, FormalBench and VERINA from ../shared/datasets (or $ADEQUACY_DATASETS;
a missing one is skipped) into a temporary folder, then builds two copies of each: *before*
(what `adequacy import` made before generation: mutants only) and *after* (the default now:
`cases generate` then `mutate`). N limits a dataset to its first N tasks (0: all). Prints:

- tasks with >= 3 pre_sound cases or every_input_valid, and tasks with >= 50 valid pairs;
- every task short of a goal, grouped by the reason (``mutators/_shortfall.py``; importer
  failures count against both goals);
- the gold specs (examples/sgb-gold, examples/verina-gold) Pass@1 before and after;
- contradictions: generated cases a gold spec fails (goal 0), each named;
- the template writer's Spec-Harness metrics before and after (the baselines' table shape).
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from adequacy.examples import bundled_folder
from adequacy.extensions.importer import ImportReport
from adequacy.extensions.registry import registry
from adequacy.extensions.writers import Writer
from adequacy.model.task import Task
from adequacy.model.verdicts import Bucket, Truth
from adequacy.scoring.runner import score_spec
from adequacy.taskdirs.load import load_task
from adequacy_mutators import GenerateReport, generate_task, mutate_task, pre_reason, valid_reason
from adequacy_mutators._shortfall import PRE_GOAL
from adequacy_optimizers.templates import TemplateWriter

REPO = Path(__file__).resolve().parents[1]
GOLD = {"specgenbench": bundled_folder("sgb-gold"), "verina": bundled_folder("verina-gold")}
NAMES = (("post_corr", "PostCorr"), ("post_comp", "PostComp"), ("pre_corr", "PreCorr"),
         ("pre_comp", "PreComp"))


def _datasets() -> Path:
    env = os.environ.get("ADEQUACY_DATASETS")
    return Path(env) if env else REPO.parent / "shared" / "datasets"


def _source(name: str, data: Path, n: int, tmp: Path) -> Path | None:
    """The dataset's file/folder, cut to its first ``n`` tasks (a copy in ``tmp``)."""
    rel = {"specgenbench": "specgenbench/sgb.jsonl", "formalbench": "formalbench/fb.jsonl",
           "verina": "verina"}[name]
    src = data / rel
    if not src.exists():
        return None
    if not n:
        return src
    if src.is_file():
        cut = tmp / f"{name}.jsonl"
        cut.write_text("\n".join(src.read_text(encoding="utf-8").splitlines()[:n]) + "\n",
                       encoding="utf-8")
        return cut
    cut = tmp / f"{name}-src"
    cut.mkdir()
    folders = sorted(d for d in src.iterdir() if (d / "test.json").is_file())[:n]
    for d in folders:
        shutil.copytree(d, cut / d.name)
    return cut


def _folders(root: Path) -> list[Path]:
    return sorted(d for d in root.iterdir() if (d / "task.toml").is_file())


def _drop_every_input_valid(d: Path) -> None:
    """The task as importers wrote it before this feature (no importer every_input_valid)."""
    toml = d / "task.toml"
    lines = [ln for ln in toml.read_text(encoding="utf-8").splitlines(keepends=True)
             if not ln.startswith("every_input_valid")]
    toml.write_text("".join(lines), encoding="utf-8")


def _coverage(tasks: list[Task]) -> dict[str, int]:
    pre3 = sum(len(t.cases.get(Bucket.pre_sound, [])) >= 3 or t.every_input_valid
               for t in tasks)
    valid50 = sum(len(t.cases.get(Bucket.post_complete, [])) >= 50 for t in tasks)
    eiv = sum(t.every_input_valid for t in tasks)
    pre = sum(len(t.cases.get(Bucket.pre_sound, [])) for t in tasks)
    return {"tasks": len(tasks), "pre3_or_eiv": pre3, "valid50": valid50, "eiv": eiv,
            "pre_sound": pre}


def _gold(name: str, tasks: list[Task]) -> tuple[int, int, list[str], int]:
    """(golds scored, golds passing everything, contradictions, generated cases checked)."""
    gold_dir = GOLD.get(name)
    if gold_dir is None or not gold_dir.is_dir():
        return 0, 0, [], 0
    by_id = {t.id: t for t in tasks}
    n = passed = checked = 0
    bad: list[str] = []
    for g in sorted(gold_dir.iterdir()):
        t = by_id.get(g.stem)
        if t is None:
            continue
        rep = score_spec(t, g.read_text(encoding="utf-8"), str(g))
        n += 1
        passed += rep.passed_all
        # ours carry their seed (the datasets' own extra pairs are "generated" too)
        gen = {c.key for c in t.all_cases() if c.origin == "generated" and c.seed is not None}
        for v in rep.verdicts:
            if f"{v.bucket.value}/{v.case_id}" in gen:
                checked += 1
                if v.value is not Truth.unknown and not v.passed:
                    bad.append(f"{t.id} {v.bucket.value}/{v.case_id}: {v.reason[:90]}")
    return n, passed, bad, checked


def _templates(tasks: list[Task], writer: Writer | None = None) -> dict[str, Any]:
    """Mean metrics of one writer's spec per task (the template writer by default)."""
    sums: dict[str, list[float]] = {k: [] for k, _ in NAMES}
    harness = 0
    for t in tasks:
        [w] = (writer or TemplateWriter()).write(t)
        if w.text is None:
            continue
        rep = score_spec(t, w.text)
        if rep.metrics is None:
            continue
        harness += bool(rep.metrics.harness_at(1.0))
        for k, _ in NAMES:
            v = getattr(rep.metrics, k)
            if v is not None:
                sums[k].append(v)
    out: dict[str, Any] = {k: (statistics.mean(v) if v else None) for k, v in sums.items()}
    out["n"] = {k: len(v) for k, v in sums.items()}
    out["harness"] = harness / len(tasks) if tasks else None
    return out


def _shortfalls(tasks: list[Task], reports: dict[str, GenerateReport], imported: ImportReport,
                valid: int) -> None:
    """Print, per goal, every task short of it grouped by reason (counts, then up to 6 ids)."""
    groups: dict[tuple[str, str], list[str]] = {}
    for o in imported.failed:
        kind = o.problems[0].kind if o.problems else "unknown"
        for goal in ("pre", "valid"):
            groups.setdefault((goal, f"importer: not converted ({kind})"), []).append(o.task_id)
    for t in tasks:
        r = reports.get(t.id)
        if r is None:
            continue
        for goal, why in (("pre", pre_reason(t, r, PRE_GOAL)), ("valid", valid_reason(t, r, valid))):
            if why is not None:
                groups.setdefault((goal, why), []).append(t.id)
    for goal, label in (("pre", f">= {PRE_GOAL} pre_sound or every_input_valid"),
                        ("valid", f">= {valid} valid pairs")):
        rows = sorted(((why, ids) for (g, why), ids in groups.items() if g == goal),
                      key=lambda x: (-len(x[1]), x[0]))
        print(f"short of {label}: {sum(len(ids) for _, ids in rows)}")
        for why, ids in rows:
            more = f" ... +{len(ids) - 6}" if len(ids) > 6 else ""
            print(f"  {len(ids):4d}  {why}  [{', '.join(ids[:6])}{more}]")


def _f(v: Any) -> str:
    return "n/a" if v is None else f"{v:.3f}" if isinstance(v, float) else str(v)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--sgb", type=int, default=0, help="first N SpecGenBench tasks (0: all)")
    ap.add_argument("--fb", type=int, default=60, help="first N FormalBench tasks (0: all)")
    ap.add_argument("--verina", type=int, default=0, help="first N VERINA tasks (0: all)")
    ap.add_argument("--valid", type=int, default=50)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--no-baselines", action="store_true")
    ap.add_argument("--houdini", type=int, default=0,
                    help="also the Houdini writer (KeY, minutes per task) on a seeded sample "
                         "of N tasks per Java dataset (0: skip)")
    args = ap.parse_args(argv)
    data = _datasets()
    if not data.is_dir():
        print(f"no datasets at {data}: nothing to measure", file=sys.stderr)
        return 0
    limits = {"specgenbench": args.sgb, "formalbench": args.fb, "verina": args.verina}
    with tempfile.TemporaryDirectory() as tmpd:
        tmp = Path(tmpd)
        for name, n in limits.items():
            src = _source(name, data, n, tmp)
            if src is None:
                print(f"## {name}: not in {data}, skipped\n")
                continue
            raw = tmp / f"{name}-raw"
            imported = registry().importers[name].run(src, raw)
            before, after = tmp / f"{name}-before", tmp / f"{name}-after"
            shutil.copytree(raw, before)
            shutil.copytree(raw, after)
            t0 = time.perf_counter()
            gen_seconds: list[float] = []
            reports: dict[str, GenerateReport] = {}
            for d in _folders(after):
                t1 = time.perf_counter()
                r = generate_task(d, valid=args.valid, seed=args.seed)
                reports[r.task] = r
                gen_seconds.append(time.perf_counter() - t1)
                mutate_task(d, per_case=3, seed=0)
            t_after = time.perf_counter() - t0
            for d in _folders(before):
                _drop_every_input_valid(d)
                mutate_task(d, per_case=3, seed=0)
            tb = [load_task(d) for d in _folders(before)]
            ta = [load_task(d) for d in _folders(after)]
            cb, ca = _coverage(tb), _coverage(ta)
            print(f"## {name} ({ca['tasks']} tasks; generation + mutation {t_after:.0f} s, "
                  f"median generation {statistics.median(gen_seconds) if gen_seconds else 0:.1f}"
                  " s per task)")
            print("| | before | after |\n|---|---|---|")
            for k, label in (("pre3_or_eiv", ">= 3 pre_sound or every_input_valid"),
                             ("valid50", ">= 50 valid pairs"), ("eiv", "every_input_valid"),
                             ("pre_sound", "pre_sound cases")):
                print(f"| {label} | {cb[k]} | {ca[k]} |")
            _shortfalls(ta, reports, imported, args.valid)
            gb, ga = _gold(name, tb), _gold(name, ta)
            if ga[0]:
                print(f"gold specs: Pass@1 before {gb[1]}/{gb[0]} = {gb[1] / gb[0]:.2f}, after "
                      f"{ga[1]}/{ga[0]} = {ga[1] / ga[0]:.2f}; generated cases checked "
                      f"{ga[3]}, contradictions {len(ga[2])}")
                for line in ga[2][:10]:
                    print(f"  contradiction: {line}")
            if not args.no_baselines and name != "verina":
                mb, ma = _templates(tb), _templates(ta)
                print("| writer | " + " | ".join(n for _, n in NAMES) + " | Harness@1 |")
                print("|---" * 6 + "|")
                rows = [("templates before", mb), ("templates after", ma)]
                if args.houdini:
                    from adequacy_optimizers.houdini import HoudiniWriter

                    ids = random.Random(args.seed).sample(range(len(tb)), min(args.houdini,
                                                                               len(tb)))
                    hw = HoudiniWriter(proof_seconds=30)
                    rows += [(f"houdini before (sample {len(ids)})",
                              _templates([tb[i] for i in ids], hw)),
                             (f"houdini after (sample {len(ids)})",
                              _templates([ta[i] for i in ids], hw))]
                for label, m in rows:
                    print(f"| {label} | " + " | ".join(
                        f"{_f(m[k])} (n={m['n'][k]})" for k, _ in NAMES)
                          + f" | {_f(m['harness'])} |")
            print()
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
