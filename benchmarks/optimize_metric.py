"""Cost of the optimizer's inner loop: one metric call, and the share of a GEPA run outside the LM.

Usage: python benchmarks/optimize_metric.py [--calls N] [--gepa-calls M]  (M = 0: part 1 only)
       python benchmarks/optimize_metric.py --baseline DIR[,DIR...] [--rounds R] [--calls N]
With ``--baseline`` (checkouts of older commits, e.g. ``git worktree add DIR ae4926a``):
only the rac fresh/same-spec calls, measured in child processes that import each DIR's code
and this checkout's code in turn (R rounds each, alternating, one session), with the ratios
new / DIR. Each child warms its engines with ``--warm`` fresh calls first (default 10),
as an optimizer's long-lived process has.
1. Median and p95 latency of one ``SpecMetric`` call (adequacy, verdict cache off, engines
   warmed by one call first) on a bundled Verus task (binary_search_first, interp) and a bundled
   JML task (array_max, rac). Each call scores a *fresh* spec (the gold with a distinct,
   trivially true extra clause), as GEPA's candidates are new text each time; a column with the
   same spec repeated shows what per-spec work engines reuse.
2. A scripted GEPA run (tests/optimizers/test_gepa_e2e.py's set-up) where the task and
   reflection LMs sleep 1 s per call: the share of wall time spent outside the LMs.
Goals: < 50 ms Verus, < 150 ms JML, < 5% outside the LM.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import dspy

from adequacy.examples import bundled_folder
from adequacy.model.task import Task
from adequacy.taskdirs.load import load_task
from adequacy_optimizers.metrics import SpecMetric
from adequacy_optimizers.optimize import OptimizeOptions, optimize

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))  # the scripted LM is a test double, not shipped
from scripted_lm import ScriptedLM, prompt_text  # noqa: E402


def _variant(task: Task, gold: str, i: int) -> str:
    if task.language == "verus":
        return gold.replace("spec fn pre_spec(input: Input) -> bool {\n",
                            f"spec fn pre_spec(input: Input) -> bool {{\n    {i} >= 0 &&\n", 1)
    return gold.replace("    /*@ requires", f"    //@ requires {i} >= 0;\n    /*@ requires", 1) \
        if "/*@" in gold else gold.replace("//@ requires", f"//@ requires {i} >= 0;\n    //@ "
                                           "requires", 1)


def latency(task: Task, gold: str, calls: int, pause: float = 0.0, start: int = 1
            ) -> tuple[float, float, float, float]:
    """Median and p95 ms of fresh and same-spec calls; ``pause`` seconds before each call
    stand for the optimizer's LM time between metric calls (0: back to back). Fresh specs
    are variants ``start``, ``start + 1``, ...: never seen before in this process."""
    metric = SpecMetric([task])
    ex = dspy.Example(task_id=task.id)
    first = metric(ex, dspy.Prediction(spec_text=gold))
    assert first.score == 1.0, first.feedback
    fresh, same = [], []
    for i in range(calls):
        text = _variant(task, gold, start + i)
        time.sleep(pause)
        t0 = time.perf_counter()
        r = metric(ex, dspy.Prediction(spec_text=text))
        fresh.append(time.perf_counter() - t0)
        assert r.score == 1.0, (r.feedback, text)
        time.sleep(pause)
        t0 = time.perf_counter()
        metric(ex, dspy.Prediction(spec_text=gold))
        same.append(time.perf_counter() - t0)

    def p95(xs: list[float]) -> float:
        return sorted(xs)[max(0, int(round(0.95 * len(xs))) - 1)]

    return (statistics.median(fresh) * 1000, p95(fresh) * 1000,
            statistics.median(same) * 1000, p95(same) * 1000)


@contextlib.contextmanager
def rac_breakdown() -> Iterator[dict[str, list[float]]]:
    """Times (ms) of the rac engine's steps, per call: compile (the compile JVM, or its
    cache), wait (for a fresh eval JVM, overlapping the compile), eval (load and cases in
    that JVM) and start (a JVM's start and warm-up, off the caller's path)."""
    from adequacy_openjml.engines.rac import engine, jvms, worker

    parts: dict[str, list[float]] = {"compile": [], "wait": [], "eval": [], "start": []}
    saved = [(engine, "_classes"), (jvms.JVMS, "acquire"), (engine, "check"),
             (worker.Worker, "start")]
    originals = [getattr(o, n) for o, n in saved]

    def timed(f: Callable[..., Any], into: list[float]) -> Callable[..., Any]:
        def g(*a: Any, **k: Any) -> Any:
            t0 = time.perf_counter()
            try:
                return f(*a, **k)
            finally:
                into.append((time.perf_counter() - t0) * 1000)
        return g

    total: list[float] = []
    for (o, n), f, into in zip(saved, originals, (parts["compile"], parts["wait"], total,
                                                  parts["start"]), strict=True):
        setattr(o, n, timed(f, into))
    try:
        yield parts
    finally:
        for (o, n), f in zip(saved, originals, strict=True):
            setattr(o, n, f)
        # the compile and the wait overlap: eval is what the call spent after the later one
        parts["eval"] = [t - max(c, w) for t, c, w in zip(total, parts["compile"],
                                                          parts["wait"], strict=False)]


def gepa_share(max_calls: int, delay: float = 1.0) -> tuple[float, float, int]:
    names = ["binary_search_first", "coprime_check", "count_in_range", "euclid_mod",
             "is_palindrome", "remove_at", "smallest_divisor"]
    tasks = [load_task(bundled_folder("verus") / n) for n in names]
    golds = {t.title: (bundled_folder("verus") / n / "specs" / "gold.rs").read_text()
             for t, n in zip(tasks, names, strict=True)}
    skel = {t.title: t.skeleton for t in tasks}
    key = "State every constraint of the statement, including which inputs are invalid."

    def task_respond(messages):
        system, user = str(messages[0].get("content", "")), str(messages[-1].get("content", ""))
        title = next(t for t in golds if f"// {t}\n" in user)
        return {"spec": "```rust\n" + (golds[title] if key in system else skel[title]) + "```"}

    def refl_respond(messages):
        prompt = prompt_text(messages).split("[[ ## current_instruction ## ]]")[-1]
        cur, _, rest = prompt.partition("[[ ## examples_with_feedback ## ]]")
        cur = cur.strip()
        new = f"{cur}\n{key}" if "_sound (" in rest and key not in cur else cur
        return json.dumps({"new_instruction": new})

    t_lm, r_lm = ScriptedLM(task_respond, delay), ScriptedLM(refl_respond, delay)
    with tempfile.TemporaryDirectory() as tmp:
        res = optimize(tasks, Path(tmp) / "run", t_lm, r_lm,
                       OptimizeOptions(family="zs", max_metric_calls=max_calls,
                                       proportions=(3, 1, 3), seed=1))
    return res.seconds, res.lm_seconds, t_lm.calls + r_lm.calls


_CHILD = """
import json, os, sys, time, statistics
from pathlib import Path
root = Path(sys.argv[1])
# the tree's source roots first, whatever the editable install points at
sys.path[:0] = [str(root / d) for d in (".", "backends", "mutators", "optimizers")]
import dspy
from adequacy_optimizers.metrics import SpecMetric
from adequacy.taskdirs.load import load_task
import adequacy_openjml.engines.rac.engine as eng
from adequacy.examples import bundled_folder
assert eng.__file__.startswith(str(root)), eng.__file__
calls, warm, pause = int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
task = load_task(bundled_folder("jml") / "array_max")
gold = (task.root / "specs" / "gold.java").read_text()
metric = SpecMetric([task])
ex = dspy.Example(task_id=task.id)

def variant(i):
    return gold.replace("    /*@ requires", f"    //@ requires {i} >= 0;\\n    /*@ requires", 1)

def call(text):
    t0 = time.perf_counter()
    r = metric(ex, dspy.Prediction(spec_text=text))
    assert r.score == 1.0, r.feedback
    return (time.perf_counter() - t0) * 1000

call(gold)
for i in range(warm):
    call(variant(10**6 + i))
fresh, same = [], []
for i in range(calls):
    time.sleep(pause)
    fresh.append(call(variant(i)))
    time.sleep(pause)
    same.append(call(gold))
print(json.dumps({"fresh": statistics.median(fresh), "same": statistics.median(same),
                  "load": os.getloadavg()[0]}))
"""


def _child(tree: Path, calls: int, warm: int, pause: float) -> dict[str, float]:
    """One measurement in a fresh process that imports ``tree``'s code."""
    p = subprocess.run([sys.executable, "-c", _CHILD, str(tree), str(calls), str(warm),
                        str(pause)], capture_output=True, text=True, timeout=1800,
                       env={**os.environ, "PYTHONPATH": str(tree)})
    if p.returncode != 0:
        raise SystemExit(f"measuring {tree} failed:\n{p.stderr[-3000:]}")
    out: dict[str, float] = json.loads(p.stdout.strip().splitlines()[-1])
    return out


def compare(baselines: list[Path], rounds: int, calls: int, warm: int) -> int:
    """rac fresh/same-spec medians of each baseline tree and this checkout, in turn (the
    order rotates every round, so no tree always runs first)."""
    trees = [(p.name, p) for p in baselines] + [("new", REPO)]
    print(f"rac, array_max, {calls} fresh + {calls} same-spec calls per child after {warm} "
          f"warm-up calls; {', '.join(f'{n} = {p}' for n, p in trees)}; {rounds} rounds, "
          "alternating")
    print("| round | pause | tree | load avg (1 min) | fresh median ms | same median ms "
          "| fresh / same |")
    print("|---|---|---|---|---|---|---|")
    got: dict[tuple[str, float], list[dict[str, float]]] = {}
    for r in range(rounds):
        for pause in (0.0, 0.3):
            for name, tree in trees[r % len(trees):] + trees[:r % len(trees)]:
                m = _child(tree, calls, warm, pause)
                got.setdefault((name, pause), []).append(m)
                print(f"| {r + 1} | {pause:g} s | {name} | {m['load']:.1f} | {m['fresh']:.1f} "
                      f"| {m['same']:.1f} | {m['fresh'] / m['same']:.2f} |", flush=True)
    print("\nmedians over the rounds (fresh ms, fresh / same; new / tree: ratio of fresh "
          "medians):")
    print("| pause | " + " | ".join(f"{n} fresh | {n} fresh/same" for n, _ in trees)
          + " | " + " | ".join(f"new / {n}" for n, _ in trees[:-1]) + " |")
    print("|---|" + "---|---|" * len(trees) + "---|" * (len(trees) - 1))
    for pause in (0.0, 0.3):
        fresh = {n: statistics.median(m["fresh"] for m in got[(n, pause)]) for n, _ in trees}
        ratio = {n: statistics.median(m["fresh"] / m["same"] for m in got[(n, pause)])
                 for n, _ in trees}
        cells = [f"{fresh[n]:.1f} | {ratio[n]:.2f}" for n, _ in trees]
        cells += [f"{fresh['new'] / fresh[n]:.2f}" for n, _ in trees[:-1]]
        print(f"| {pause:g} s | " + " | ".join(cells) + " |")
    return 0


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--calls", type=int, default=30, help="metric calls per measurement")
    ap.add_argument("--gepa-calls", type=int, default=24,
                    help="metric calls of the scripted GEPA run (0: the metric-call tables only)")
    ap.add_argument("--baseline", help="DIR[,DIR...]: checkouts of older commits to compare with")
    ap.add_argument("--rounds", type=int, default=3, help="with --baseline: alternating rounds")
    ap.add_argument("--warm", type=int, default=10,
                    help="with --baseline: fresh calls each child makes before measuring")
    args = ap.parse_args(argv)
    calls = args.calls
    if args.baseline:
        return compare([Path(d).resolve() for d in args.baseline.split(",")],
                       args.rounds, calls, args.warm)
    gepa_calls = args.gepa_calls
    v = load_task(bundled_folder("verus") / "binary_search_first")
    j = load_task(bundled_folder("jml") / "array_max")
    print(f"one metric call (adequacy, cache off, warm engines), {calls} calls each:")
    print("| task | engine | fresh spec median ms | fresh p95 ms | same spec median ms "
          "| same p95 ms | goal |")
    print("|---|---|---|---|---|---|---|")
    for task, engine, goal in ((v, "interp", 50), (j, "rac", 150)):
        gold = (task.root / "specs" / ("gold.rs" if task.language == "verus" else "gold.java")
                ).read_text()
        med, p95, smed, sp95 = latency(task, gold, calls)
        print(f"| {task.id} | {engine} | {med:.1f} | {p95:.1f} | {smed:.1f} | {sp95:.1f} "
              f"| < {goal} ms: {'met' if med < goal else 'MISSED'} |")
    print(f"\nrac, array_max: fresh / same-spec ratio and where a call's time goes, {calls} "
          "calls each (goal: ratio <= 1.5, fresh median < 100 ms):")
    print("| pause before each call | fresh median ms | same median ms | fresh / same "
          "| compile, fresh ms | wait for a JVM ms | load+eval ms | JVM start ms (background) |")
    print("|---|---|---|---|---|---|---|---|")
    gold = (j.root / "specs" / "gold.java").read_text()
    for n, pause in enumerate((0.0, 0.3)):
        with rac_breakdown() as parts:
            med, _p95, smed, _sp95 = latency(j, gold, calls, pause, start=1000 * (n + 1))
        parts["compile"] = parts["compile"][1::2]  # calls go gold, fresh, same, fresh, ...
        row = " | ".join(f"{statistics.median(parts[k]):.1f}" if parts[k] else "-"
                         for k in ("compile", "wait", "eval", "start"))
        print(f"| {pause:g} s | {med:.1f} | {smed:.1f} | {med / smed:.2f} | {row} |")
    if gepa_calls <= 0:  # --gepa-calls 0: the metric-call table only
        return 0
    total, in_lm, n = gepa_share(gepa_calls)
    outside = (total - in_lm) / total
    print(f"\nscripted GEPA run (LMs sleep 1 s per call): {n} LM calls, wall {total:.1f} s, "
          f"in the LMs {in_lm:.1f} s, outside {100 * outside:.1f}% "
          f"(goal < 5%: {'met' if outside < 0.05 else 'MISSED'})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
