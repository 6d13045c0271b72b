"""Does each dataset gold spec pin the output? The solver's output figures over imported tasks.

For every gold spec of an imported dataset (VERINA's with the Verus backend's
``examples/verina-gold``, SpecGenBench's with the JML backend's ``examples/sgb-gold``), two
questions:

1. Over **every** input the gold's precondition accepts: are there two different outputs its
   postcondition accepts (``adequacy.search.symbolic.unique_post``)? Determined (for every
   input, or every input with collections of at most L elements), two outputs (confirmed
   concretely, listed), or unknown.
2. On each valid input of its task with a known right output: another output the gold's
   postcondition accepts (``adequacy.search.symbolic.output_determination``). A gold is counted
   as

- **pinned**: the solver proved, on every valid input, that no other output is accepted (for
  every output, or every output whose collections have at most L elements: said per gold);
- **second output**: on some input it found another output that the concrete engines accept
  and the task's oracles call wrong: a finding about the gold spec (too weak) or the task (a
  recorded output that is not the only right one); each is listed with its input;
- **unknown**: neither on some input (a timeout, a construct outside the encoding, a model the
  concrete engines could not decide), with the reasons.

Usage: python benchmarks/symbolic_golds.py VERINA_TASKS SGB_TASKS [--budget 40]
(the task folders written by ``adequacy import verina`` / ``adequacy import specgenbench``).
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("ADEQUACY_CACHE", tempfile.mkdtemp(prefix="adequacy-golds-bench-"))

from adequacy.errors import AdequacyError  # noqa: E402
from adequacy.examples import bundled_folder  # noqa: E402
from adequacy.extensions.symbolic import SolverLimits  # noqa: E402
from adequacy.model.symbolic_figures import OutputDetermination  # noqa: E402
from adequacy.scoring.options import ScoreOptions  # noqa: E402
from adequacy.search.symbolic import output_determination, unique_post  # noqa: E402
from adequacy.taskdirs.load import load_task  # noqa: E402


def one(task_dir: Path, gold: Path, budget: float, max_inputs: int
        ) -> tuple[str, OutputDetermination | str, float]:
    t0 = time.monotonic()
    try:
        task = load_task(task_dir)
        got = output_determination(task, gold.read_text(encoding="utf-8"), str(gold),
                                   ScoreOptions(), deadline=time.monotonic() + budget,
                                   limits=SolverLimits(query_seconds=5.0),
                                   max_inputs=max_inputs)
    except AdequacyError as e:
        got = f"error: {str(e).splitlines()[0]}"
    secs = time.monotonic() - t0
    if isinstance(got, str):
        return "unknown", got, secs
    if got.second_output:
        return "second output", got, secs
    if got.pinned == got.inputs:
        return "pinned", got, secs
    return "unknown", got, secs


def universal(task_dir: Path, gold: Path, budget: float) -> tuple[str, str]:
    try:
        task = load_task(task_dir)
        got = unique_post(task, gold.read_text(encoding="utf-8"), str(gold), ScoreOptions(),
                          deadline=time.monotonic() + budget,
                          limits=SolverLimits(query_seconds=min(10.0, budget)))
    except AdequacyError as e:
        return "unknown", f"error: {str(e).splitlines()[0]}"
    if isinstance(got, str):
        return "unknown", got
    kind = {"determined": "determined", "two_outputs": "two outputs"}.get(got.status, "unknown")
    return kind, got.figure()


def run(name: str, tasks: Path, golds: Path, ext: str, budget: float, max_inputs: int) -> None:
    print(f"== {name}: golds in {golds}, tasks in {tasks}")
    print("-- every input the gold's precondition accepts (two outputs its post accepts?)")
    every: collections.Counter[str] = collections.Counter()
    for gold in sorted(golds.glob(f"*.{ext}")):
        td = tasks / gold.stem
        if not td.is_dir():
            continue
        t0 = time.monotonic()
        kind, text = universal(td, gold, budget / 2)
        every[kind] += 1
        print(f"  {gold.stem:28} {kind:13} {time.monotonic() - t0:5.1f} s  {text[:160]}")
    print(f"{name}, every input: {sum(every.values())} golds: determined "
          f"{every['determined']}, two outputs {every['two outputs']}, unknown "
          f"{every['unknown']}")
    print("-- the task's valid inputs (another output than the right one?)")
    counts: collections.Counter[str] = collections.Counter()
    findings: list[str] = []
    unknowns: list[str] = []
    scopes: collections.Counter[str] = collections.Counter()
    total_s = 0.0
    for gold in sorted(golds.glob(f"*.{ext}")):
        td = tasks / gold.stem
        if not td.is_dir():
            print(f"  {gold.stem}: no imported task folder (skipped)")
            continue
        kind, got, secs = one(td, gold, budget, max_inputs)
        total_s += secs
        counts[kind] += 1
        if isinstance(got, str):
            unknowns.append(f"{gold.stem}: {got}")
            print(f"  {gold.stem:28} {kind:13} {secs:5.1f} s  {got[:100]}")
            continue
        bounded = {r.claim for r in got.results if r.status == "pinned"
                   and r.claim != "no other output"}
        if kind == "pinned":
            scopes["bounded" if bounded else "all"] += 1
        print(f"  {gold.stem:28} {kind:13} {secs:5.1f} s  {got.figure()}"
              + (f" [{'; '.join(sorted(bounded))}]" if bounded else ""))
        for r in got.results:
            if r.status == "second_output":
                findings.append(f"{gold.stem}: input {json.dumps(r.input)} right "
                                f"{json.dumps(r.output)} ({r.source}) also accepted "
                                f"{json.dumps(r.other)}: {r.reason}")
        if kind == "unknown":
            why = collections.Counter(r.reason.split(":")[0][:80] for r in got.results
                                      if r.status not in ("pinned", "second_output"))
            unknowns.append(f"{gold.stem}: " + "; ".join(f"{k} (x{n})"
                                                         for k, n in why.most_common(3)))
    n = sum(counts.values())
    print(f"{name}: {n} golds: pinned {counts['pinned']} (every output {scopes['all']}, "
          f"bounded lengths {scopes['bounded']}), second output {counts['second output']}, "
          f"unknown {counts['unknown']}; {total_s:.0f} s")
    for f in findings:
        print(f"  FINDING {f}")
    for u in unknowns:
        print(f"  unknown {u}")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("verina", type=Path, help="task folders of `adequacy import verina`")
    ap.add_argument("sgb", type=Path, help="task folders of `adequacy import specgenbench`")
    ap.add_argument("--budget", type=float, default=40.0, help="seconds per gold")
    ap.add_argument("--max-inputs", type=int, default=40)
    ap.add_argument("--only", choices=["verina", "sgb"])
    a = ap.parse_args()
    from adequacy.symbolic.solver import ask
    ask("(declare-const x Int)(assert (> x 0))", [], timeout=5, cache=False)
    if a.only in (None, "verina"):
        run("VERINA", a.verina, bundled_folder("verina-gold"), "rs", a.budget, a.max_inputs)
    if a.only in (None, "sgb"):
        run("SpecGenBench", a.sgb, bundled_folder("sgb-gold"), "java", a.budget, a.max_inputs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
