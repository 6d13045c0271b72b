"""Speed of the interp engine, and its ratio to exec_spec, on the bundled binary_search_first task.

Usage: python benchmarks/verus_interp.py [--n 200000] [--repeat 5] [--no-exec-spec]

Prints (1) interp's time for the gold spec (a linear ``forall`` pre_spec and a
first-occurrence post_spec) on one case with an N-element Seq, side by side with a
hand-written Python function doing the same check on the same JSON data, and their ratio
(goal: <= 3x), best of ``--repeat`` runs each, interleaved in one run; interp's
figure is the per-case seconds the engine reports (JSON conversion and evaluation), so the
baseline gets the JSON list too; (2) exec_spec's evaluation time for the same cases (compile excluded: the per-case seconds the
engine reports) and the ratio; (3) end-to-end per-spec time of both engines on the task's own
cases, compile included. Ratios are measured in one run, on one machine (the project rule for performance claims).
"""

from __future__ import annotations

import argparse
import shutil
import sys
import time
from pathlib import Path

from adequacy.examples import bundled_folder
from adequacy.extensions.backend import Limits, engine_named
from adequacy.model.task import Case
from adequacy.model.verdicts import Bucket
from adequacy.taskdirs.load import load_task
from adequacy_verus.interp.values import from_json
from adequacy_verus.plugin import VerusBackend

REPO = Path(__file__).resolve().parents[1]
TASK = bundled_folder("verus") / "binary_search_first"


def big_cases(n: int) -> list[Case]:
    arr = list(range(n))
    return [
        Case(id="big_pre", bucket=Bucket.pre_complete, input={"arr": arr, "target": n - 1}),
        Case(id="big_post", bucket=Bucket.post_complete, input={"arr": arr, "target": n - 1},
             output={"result": {"some": n - 1}}),
    ]


def hand_pre(arr: list[int]) -> bool:
    """pre_spec written by hand: sorted (each element at least its predecessor)."""
    for i in range(1, len(arr)):  # noqa: SIM110 - a loop: all(genexpr) is slower
        if not arr[i - 1] <= arr[i]:
            return False
    return True


def hand_post(arr: list[int], target: int, result: dict | None) -> bool:
    """post_spec written by hand: ``Some(k)`` is the first occurrence; ``None``: absent."""
    if result is None:
        for j in range(len(arr)):  # noqa: SIM110 - as above
            if arr[j] == target:
                return False
        return True
    k = result["some"]
    if not (0 <= k < len(arr) and arr[k] == target):
        return False
    for j in range(k):  # noqa: SIM110 - as above
        if arr[j] == target:
            return False
    return True


def hand_check(cases: list[Case]) -> list[bool]:
    out = []
    for c in cases:
        arr, target = c.input["arr"], c.input["target"]
        if c.output is None:
            out.append(hand_pre(arr))
        else:
            out.append(hand_post(arr, target, c.output["result"]))
    return out


def side_by_side(backend: VerusBackend, spec, task, cases: list[Case], repeat: int) -> float:
    """Best of ``repeat`` for each, interleaved so both see the same machine load."""
    engine = engine_named(backend, "interp")
    best_i = best_h = float("inf")
    verdicts: list[str] = []
    hand: list[bool] = []
    for _ in range(repeat):
        vs = engine.check(spec, task, cases, Limits(case_seconds=60.0))
        best_i = min(best_i, sum(v.seconds for v in vs))
        verdicts = [v.value.value for v in vs]
        t0 = time.perf_counter()
        hand = hand_check(cases)
        best_h = min(best_h, time.perf_counter() - t0)
    print(f"interp, {len(cases[0].input['arr'])}-element case (pre + post): {best_i:.4f}s "
          f"(JSON conversion + evaluation, best of {repeat}); verdicts {verdicts}")
    print(f"hand-written Python, same cases:  {best_h:.4f}s; results {hand}")
    conv = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        for c in cases:
            for p in task.inputs:
                from_json(c.input.get(p.name), p.type)
        conv = min(conv, time.perf_counter() - t0)
    print(f"  of which JSON conversion of the inputs: about {conv:.4f}s")
    ratio = best_i / best_h
    print(f"  ratio interp / hand-written: {ratio:.2f}x (goal <= 3x: "
          f"{'met' if ratio <= 3 else 'NOT met'})")
    return best_i


def timed(backend: VerusBackend, spec, task, cases, engine: str):
    """Load and check; for exec_spec a fresh comment defeats the harness binary cache, so the
    time really includes compiling (warm vstd), as an end-to-end per-spec figure should."""
    text = spec.text
    if engine == "exec_spec":
        text += f"\n// benchmark nonce {time.time_ns()}\n"
    t0 = time.perf_counter()
    fresh = backend.load_spec(task, text, spec.path)
    vs = engine_named(backend, engine).check(fresh, task, cases, Limits(case_seconds=60.0))
    return time.perf_counter() - t0, vs


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=200_000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--no-exec-spec", action="store_true")
    ns = ap.parse_args(argv)
    task = load_task(TASK)
    backend = VerusBackend()
    gold = TASK / "specs" / "gold.rs"
    spec = backend.load_spec(task, gold.read_text(encoding="utf-8"), str(gold))
    cases = big_cases(ns.n)

    ev = side_by_side(backend, spec, task, cases, max(1, ns.repeat))
    wall, _ = timed(backend, spec, task, cases, "interp")
    print(f"  interp wall, load + check, one run: {wall:.3f}s; target < 1 s: "
          f"{'met' if ev < 1.0 else 'NOT met'}")

    have_exec = not ns.no_exec_spec and shutil.which("cargo") is not None
    if have_exec:
        try:
            ewall, evs = timed(backend, spec, task, cases, "exec_spec")
            eev = sum(v.seconds for v in evs)
            print(f"exec_spec, same cases: evaluation {eev:.4f}s (wall incl. compile "
                  f"{ewall:.2f}s); verdicts {[v.value.value for v in evs]}")
            if eev > 0:
                print(f"  ratio interp/exec_spec (evaluation only): {ev / eev:.1f}x")
        except Exception as e:  # noqa: BLE001 - report and continue
            print(f"exec_spec unavailable: {e}")
            have_exec = False
    else:
        print("exec_spec: skipped (no cargo or --no-exec-spec)")

    own = task.all_cases()
    t_interp, _ = timed(backend, spec, task, own, "interp")
    print(f"end-to-end, {len(own)} bundled cases: interp {t_interp:.3f}s per spec", end="")
    if have_exec:
        t_exec, _ = timed(backend, spec, task, own, "exec_spec")
        print(f", exec_spec {t_exec:.2f}s per spec (compile included)")
    else:
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
