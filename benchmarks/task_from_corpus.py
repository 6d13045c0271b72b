"""`adequacy task from` on a corpus of annotated Verus programs (Verus-Bench's MBPP set).

Usage: python benchmarks/task_from_corpus.py [MBPP_VERIFIED_DIR] [--engine interp] [-v]
       python benchmarks/task_from_corpus.py --jml SPECGEN_ORACLE_DIR [-v]

For each program, the function its ``main`` tests most becomes a task (with ``--jml``: every
specified method, the other files of its folder given as ``--with``); the program's own
contract (``specs/original.rs``) is then scored on the cases derived from the program's tests.
Prints how many programs became tasks, on how many the contract passes every derived case
(the issue's goal: 70 of 79), and the reasons for the rest. The dataset is read from where it
lies; the tasks go to a temporary folder and are not kept.
"""

from __future__ import annotations

import argparse
import collections
import re
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from adequacy.errors import AdequacyError
from adequacy.model.verdicts import Bucket
from adequacy.scoring.options import ScoreOptions
from adequacy.scoring.runner import score_spec
from adequacy.taskdirs.load import load_task
from adequacy_verus.syntax.parser import parse_module
from adequacy_verus.task_from import convert, tests_of

REPO = Path(__file__).resolve().parents[1]
DEFAULT = REPO.parent / "shared" / "datasets" / "verus-bench" / "MBPP" / "verified"


def tested_function(path: Path) -> str | None:
    mod = parse_module(path.read_text(encoding="utf-8"), str(path))
    counts: collections.Counter[str] = collections.Counter()
    for fn in mod.all_fns():
        if fn.mode == "exec" and fn.name != "main":
            counts[fn.name] = len(tests_of(mod, fn.name))
    best = counts.most_common(1)
    return best[0][0] if best and best[0][1] else None


def passes_every_case(rep: Any) -> bool:
    """Whether the contract passed every derived case: scored, at least one case, none failed
    or unknown (one definition for both corpora, so their figures count the same thing)."""
    buckets = rep.buckets.values()
    return bool(rep.status == "scored" and sum(s.total for s in buckets)
                and all(s.passed == s.total for s in buckets))


def _reason(msg: str) -> str:
    """The message with its names and numbers folded to ``_`` (lists of them to one), so
    methods lost for the same reason count together."""
    folded = re.sub(r"`[^`]*`|'[^']*'|\d+", "_", msg.split(": ", 1)[-1])
    return re.sub(r"_(?:, _)+", "_", folded)[:100]


def jml_corpus(root: Path, verbose: bool) -> int:
    """Every specified method of every class: a task, then its own contract under rac."""
    from adequacy_openjml.jml.load import signature_text
    from adequacy_openjml.jml.source import read_source
    from adequacy_openjml.task_from import convert as convert_jml

    files = sorted(root.rglob("*.java"))
    if not files:
        print(f"no .java programs in {root}", file=sys.stderr)
        return 2
    methods = made = passing = 0
    by_program: dict[str, list[bool]] = {}
    reasons: collections.Counter[str] = collections.Counter()
    t0 = time.perf_counter()
    opts = ScoreOptions(engines=["rac"])
    with tempfile.TemporaryDirectory() as tmp:
        for f in files:
            try:
                src = read_source(f.read_text(encoding="utf-8"), str(f))
            except AdequacyError as e:
                reasons[f"does not read: {_reason(str(e))}"] += 1
                continue
            results: list[bool] = []
            for cls in src.classes:
                for m in cls.methods:
                    if not m.spec or not m.has_body or m.return_type is None:
                        continue
                    methods += 1
                    dest = Path(tmp) / f"{f.stem}_{methods}"
                    try:
                        siblings = sorted(p for p in f.parent.glob("*.java") if p != f)
                        convert_jml(f, signature_text(m), dest, extra=siblings)
                        task = load_task(dest)
                    except AdequacyError as e:
                        reasons[_reason(str(e))] += 1
                        if verbose:
                            print(f"{f.name} {signature_text(m)}: {e}")
                        continue
                    made += 1
                    spec = dest / "specs" / "original.java"
                    rep = score_spec(task, spec.read_text(encoding="utf-8"), str(spec), opts)
                    total = sum(s.total for s in rep.buckets.values())
                    ok = passes_every_case(rep)
                    results.append(ok)
                    passing += ok
                    if not ok:
                        why = (f"contract {rep.status}" if rep.status != "scored" else
                               "no input was handled" if not total else
                               "the engine leaves a derived case unknown"
                               if any(s.unknown for s in rep.buckets.values()) else
                               "the contract rejects an input or output of the method's own")
                        reasons[why] += 1
                        if verbose:
                            print(f"{f.name} {signature_text(m)}: {why} "
                                  f"{str(rep.error or rep.invalid or '')[:200]}")
            prog = f.parent.relative_to(root).parts[0] if f.parent != root else f.stem
            by_program.setdefault(prog, []).extend(results)
    programs_some = sum(any(r) for r in by_program.values())
    programs_ok = sum(bool(r) and all(r) for r in by_program.values())
    print(f"programs: {len(by_program)} ({len(files)} files) in {root}; specified methods with "
          f"a body: {methods}")
    print(f"methods that became tasks: {made}; own contract passes every derived case (rac): "
          f"{passing}")
    print(f"programs with every in-reach method passing: {programs_ok}; with at least one: "
          f"{programs_some} (goal: 25 of SpecGen's 33)")
    print(f"time: {time.perf_counter() - t0:.1f} s")
    if reasons:
        print("\nthe rest, by reason:")
        for r, n in reasons.most_common():
            print(f"  {n:4d}  {r}")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("corpus", nargs="?", default=str(DEFAULT))
    ap.add_argument("--engine", default="interp")
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("--jml", metavar="DIR", help="a corpus of Java classes with JML instead "
                    "(e.g. SpecGen's oracle programs, fetched by the user)")
    ns = ap.parse_args(argv)
    if ns.jml:
        return jml_corpus(Path(ns.jml), ns.verbose)
    root = Path(ns.corpus)
    files = sorted(root.glob("*.rs"))
    if not files:
        print(f"no .rs programs in {root}", file=sys.stderr)
        return 2
    made = passing = 0
    reasons: collections.Counter[str] = collections.Counter()
    t0 = time.perf_counter()
    opts = ScoreOptions(engines=[ns.engine])
    with tempfile.TemporaryDirectory() as tmp:
        for f in files:
            try:
                fn = tested_function(f)
            except AdequacyError as e:
                reasons[f"does not parse: {_reason(str(e))}"] += 1
                continue
            if fn is None:
                reasons["main tests no function"] += 1
                continue
            dest = Path(tmp) / f.stem
            try:
                done = convert(f, fn, dest)
                task = load_task(dest)
            except AdequacyError as e:
                reasons[_reason(str(e))] += 1
                if ns.verbose:
                    print(f"{f.name}: {e}")
                continue
            made += 1
            if not done.cases:
                reasons["no test could be evaluated"] += 1
                continue
            spec = dest / "specs" / "original.rs"
            rep = score_spec(task, spec.read_text(encoding="utf-8"), str(spec), opts)
            if passes_every_case(rep):
                passing += 1
            else:
                pre = rep.buckets.get(Bucket.pre_complete)
                if rep.status != "scored":
                    why = f"contract {rep.status}: {_reason(rep.error or '')}"
                elif pre is not None and pre.failed:
                    why = ("a test of main calls the function outside its requires (main is "
                           "not verified): the contract rejects that input")
                elif any(s.unknown for s in rep.buckets.values()):
                    why = "the engine leaves a derived case unknown"
                else:
                    why = "the contract rejects a test's output"
                reasons[why] += 1
                if ns.verbose:
                    print(f"{f.name} ({fn}): {why} {rep.error or ''}".strip())
    dt = time.perf_counter() - t0
    print(f"programs: {len(files)} in {root}")
    print(f"became tasks: {made}")
    print(f"own contract passes every derived case ({ns.engine}): {passing} (goal: 70 of 79)")
    print(f"time: {dt:.1f} s")
    if reasons:
        print("\nthe rest, by reason:")
        for r, n in reasons.most_common():
            print(f"  {n:4d}  {r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
