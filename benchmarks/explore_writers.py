"""How often ``explore`` finds a new failing case for writer specs that pass the fixed suite.

Usage: python benchmarks/explore_writers.py [--verina TASKS] [--sgb TASKS] [--gold DIR]...
       [--budget 10] [--houdini N] [--limit N] [--suites verina,sgb]

Template specs (optimizers/templates.py) for every VERINA and SpecGenBench task, and Houdini
specs (optimizers/houdini.py, KeY) for a sample of N SpecGenBench tasks, are scored on all the
task's cases with the default engine. Those that pass every case (no failure, no unknown;
empty buckets left out) are explored for ``--budget`` seconds each, against the task's gold
spec where a ``--gold`` folder has one (``<task id>.<ext>``), else against the task's oracles
(reference, checker, validator, recorded cases). A find counts when the counterexample is not
already a case of the task. Prints the share found, the median time to the first find and
over all explored specs, and a few minimal counterexamples. Without task folders it imports
../shared/datasets into a temporary folder.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from adequacy.extensions.registry import registry
from adequacy.scoring.options import ScoreOptions
from adequacy.scoring.runner import score_spec
from adequacy.search.explore import compare
from adequacy.search.oracles import OracleJudge, SpecJudge
from adequacy.taskdirs.discovery import discover_tasks
from adequacy.taskdirs.load import load_task
from adequacy_optimizers.templates import TemplateWriter

DATA = Path(__file__).resolve().parents[2] / "shared" / "datasets"


def _import(kind: str, src: Path, dest: Path) -> Path:
    from adequacy.extensions.registry import registry
    imp = registry().importers[kind]
    imp.run(src, dest)
    return dest


def _spec(writer: Any, task: Any) -> str | None:
    got = writer.write(task)
    return got[0].text if got else None


def _gold(task: Any, dirs: list[Path]) -> Path | None:
    ext = registry().backend_for(task.language).writer_texts().spec_ext
    for d in dirs:
        if (d / f"{task.id}.{ext}").is_file():
            return d / f"{task.id}.{ext}"
    p = task.root / "specs" / f"gold.{ext}"
    return p if p.is_file() else None


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--verina", type=Path)
    ap.add_argument("--sgb", type=Path)
    ap.add_argument("--gold", type=Path, action="append", default=[])
    ap.add_argument("--budget", type=float, default=10.0)
    ap.add_argument("--houdini", type=int, default=5)
    ap.add_argument("--limit", type=int, default=0, help="tasks per benchmark (0: all)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--suites", default="verina,sgb", help="comma-separated: verina, sgb")
    a = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="explore-writers-"))
    suites: dict[str, Path] = {}
    if "verina" in a.suites:
        suites["verina"] = a.verina or _import("verina", DATA / "verina", tmp / "verina")
    if "sgb" in a.suites:
        suites["sgb"] = a.sgb or _import("specgenbench", DATA / "specgenbench" / "sgb.jsonl",
                                         tmp / "sgb")
    opts = ScoreOptions()
    from adequacy.scoring.cache import VerdictCache, default_cache_dir
    cache = VerdictCache(str(default_cache_dir() / "verdicts.sqlite"))  # the fixed suite only
    rows: list[dict[str, Any]] = []
    wanted = set(a.suites.split(","))
    writers: list[tuple[str, Any, str]] = [("templates", TemplateWriter(), s) for s in suites
                                           if s in wanted]
    if a.houdini and "sgb" in wanted:
        from adequacy_optimizers.houdini import HoudiniWriter
        writers.append(("houdini", HoudiniWriter(), "sgb"))
    for wname, writer, suite in writers:
        dirs = discover_tasks([suites[suite]])
        if wname == "houdini":
            dirs = sorted(random.Random(a.seed).sample(dirs, min(a.houdini, len(dirs))))
        elif a.limit:
            dirs = dirs[: a.limit]
        for d in dirs:
            t = load_task(d)
            text = _spec(writer, t)
            if not text:
                continue
            rep = score_spec(t, text, None, opts, cache=None if cache.broken else cache)
            if rep.status != "scored" or not rep.verdicts or not all(
                    v.passed for v in rep.verdicts):
                continue
            gold = _gold(t, a.gold)
            left = SpecJudge(t, text, f"{wname}:{t.id}", opts.with_(
                limits=opts.limits.model_copy(update={"case_seconds": 2.0})))
            right: Any = (SpecJudge(t, gold.read_text(encoding="utf-8"), str(gold), opts)
                          if gold else OracleJudge(t))
            start = time.monotonic()
            try:
                r = compare(t, left, right, seed=a.seed, budget=a.budget)
            except Exception as e:  # noqa: BLE001 - one odd task must not stop the table
                print(f"{suite} {wname} {t.id}: error {type(e).__name__}: {e}", file=sys.stderr)
                continue
            new = [x for x in r.disagreements if not x.existing]
            rows.append({"suite": suite, "writer": wname, "task": t.id,
                         "oracle": "gold" if gold else "task oracles", "found": bool(new),
                         "first": r.first_found_seconds if new else None,
                         "seconds": time.monotonic() - start, "cex": new[:1]})
            print(f"{suite:7} {wname:9} {t.id:28} oracle={rows[-1]['oracle']:12} "
                  f"found={bool(new)!s:5} first={rows[-1]['first'] or 0:.1f}s "
                  f"{rows[-1]['seconds']:.1f}s", flush=True)
    print()
    print("| suite | writer | passing specs explored | new failing case found | share | "
          "median s to first find | median s per spec |")
    print("|---|---|---|---|---|---|---|")
    for key in sorted({(r["suite"], r["writer"]) for r in rows}):
        rs = [r for r in rows if (r["suite"], r["writer"]) == key]
        found = [r for r in rs if r["found"]]
        med_first = statistics.median([r["first"] for r in found]) if found else float("nan")
        print(f"| {key[0]} | {key[1]} | {len(rs)} | {len(found)} | "
              f"{len(found) / len(rs):.2f} | {med_first:.2f} | "
              f"{statistics.median([r['seconds'] for r in rs]):.1f} |")
    if rows:
        found = [r for r in rows if r["found"]]
        print(f"\nall: {len(found)}/{len(rows)} = {len(found) / len(rows):.2f}")
    print("\nminimal counterexamples (first five):")
    for row in [r for r in rows if r["found"]][:5]:
        x = row["cex"][0]
        print(f"- {row['suite']} {row['writer']} {row['task']} ({row['oracle']}): "
              f"{x.bucket.value} "
              f"input {x.input}" + (f" output {x.output}" if x.output is not None else "")
              + f"; spec {x.left_reason}, oracle {x.right_reason}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
