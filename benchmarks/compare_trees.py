"""Two checkouts side by side, in one run: start-up, score time and the type walkers' speed.

Usage: python benchmarks/compare_trees.py BEFORE AFTER [--repeat 7]

BEFORE and AFTER are source trees (a ``git archive`` of a commit, a worktree). Each figure is
measured in child processes of this interpreter whose ``PYTHONPATH`` holds the tree's source
roots and a distribution record made from the tree's own ``pyproject.toml`` entry points (so
each tree loads exactly its own plugins, whatever is installed), the two trees alternating run
by run; the median of ``--repeat`` runs is printed with the ratio AFTER / BEFORE:

1. ``adequacy --version`` (start-up);
2. ``adequacy score`` of a bundled Verus task's gold spec with a warm verdict cache (a fresh
   process: registry, task, front end, cache lookups);
3. the same spec scored 20 times in one process without the cache (interp; per-score time);
4. the walkers on large values: ``validate``, ``canonical`` and ``value_key`` of a 200,000
   integer sequence, of 50,000 (int, string) tuples and of a 20,000-entry map; Verus tokens and
   interpreter values of the tuples; 200 mutants of a 1,000-element sequence.

Timings on a shared machine are noisy: the load average is printed, and the ratios of one run
are the figures to quote.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

ROOTS = ("", "backends", "mutators", "optimizers")

WALKERS = r"""
import json, random, sys, time
from adequacy.model import identity, values
from adequacy.model.types import parse_type
def best(f, n=3):
    out = []
    for _ in range(n):
        t = time.perf_counter(); f(); out.append(time.perf_counter() - t)
    return min(out)
rng = random.Random(0)
t1 = parse_type("seq<i64>"); v1 = [rng.randint(-1000, 1000) for _ in range(200000)]
t2 = parse_type("seq<tuple<i32, string>>"); v2 = [[rng.randint(0, 9), "ab"] for _ in range(50000)]
t3 = parse_type("map<string, seq<i32>>"); v3 = [[str(i), [1, 2, 3]] for i in range(20000)]
r = {}
for name, (t, v) in {"ints": (t1, v1), "tuples": (t2, v2), "map": (t3, v3)}.items():
    r[f"validate {name}"] = best(lambda: values.validate(v, t))
    r[f"canonical {name}"] = best(lambda: values.canonical(v, t))
    r[f"value_key {name}"] = best(lambda: identity.value_key(v, t))
from adequacy_verus import render
from adequacy_verus.interp import values as iv
r["verus tokens tuples"] = best(lambda: render.encode_tokens(v2, t2))
r["interp values tuples"] = best(lambda: iv.from_json(v2, t2))
from adequacy_mutators import mutants
t4 = parse_type("seq<i32>"); v4 = [rng.randint(-50, 50) for _ in range(1000)]
r["200 mutants seq 1000"] = best(lambda: mutants(v4, t4, 200, seed=1))
print(json.dumps(r))
"""

SCORES = r"""
import json, sys, time
from adequacy.scoring.runner import score_spec
from adequacy.taskdirs.load import load_task
task = load_task(sys.argv[1]); text = open(sys.argv[2]).read()
score_spec(task, text, None, engines=["interp"], cache=None)
t = time.perf_counter()
for _ in range(20):
    score_spec(task, text, None, engines=["interp"], cache=None)
print(json.dumps({"score (in process, mean of 20)": (time.perf_counter() - t) / 20}))
"""


def _dist(tree: Path, into: Path) -> Path:
    """A distribution record of ``spec-adequacy`` with the tree's entry points: found before the
    installed one, so the tree's plugins are the ones loaded."""
    meta = tomllib.loads((tree / "pyproject.toml").read_text())["project"]
    d = into / "spec_adequacy-0.1.0.dist-info"
    d.mkdir(parents=True)
    (d / "METADATA").write_text(f"Metadata-Version: 2.1\nName: spec-adequacy\n"
                                f"Version: {meta['version']}\n")
    lines = []
    for group, eps in meta.get("entry-points", {}).items():
        lines.append(f"[{group}]")
        lines += [f"{k} = {v}" for k, v in eps.items()]
    lines.append("[console_scripts]")
    lines += [f"{k} = {v}" for k, v in meta.get("scripts", {}).items()]
    (d / "entry_points.txt").write_text("\n".join(lines) + "\n")
    return into


def tree_env(tree: Path, scratch: Path, cache: Path | None = None) -> dict[str, str]:
    """The environment of a child that runs ``tree``: its source roots and its own entry
    points first on ``PYTHONPATH`` (a distribution record written under ``scratch``), fixed
    hash seeds, and ``cache`` as its cache folder when given."""
    path = [str(_dist(tree, scratch)), *(str(tree / r) for r in ROOTS)]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(path), "PYTHONHASHSEED": "0"}
    if cache is not None:
        env["ADEQUACY_CACHE"] = str(cache)
    return env


def _run(cmd: list[str], env: dict[str, str], cwd: Path) -> tuple[float, str]:
    import time
    t = time.perf_counter()
    p = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True, timeout=900)
    if p.returncode not in (0, 1):
        raise SystemExit(f"{cmd[:4]} failed ({p.returncode}): {p.stderr[-2000:]}")
    return time.perf_counter() - t, p.stdout


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("before", type=Path)
    ap.add_argument("after", type=Path)
    ap.add_argument("--repeat", type=int, default=7)
    a = ap.parse_args()
    trees = {"before": a.before.resolve(), "after": a.after.resolve()}
    py = sys.executable
    with tempfile.TemporaryDirectory(prefix="compare-trees-") as tmp:
        base = Path(tmp)
        envs = {k: tree_env(t, base / f"dist-{k}", base / f"cache-{k}")
                for k, t in trees.items()}
        task = {k: next(t.glob("backends/adequacy_verus/examples/verus/binary_search_first"))
                for k, t in trees.items()}
        figures: dict[str, dict[str, list[float]]] = {k: {} for k in trees}

        def add(k: str, name: str, v: float) -> None:
            figures[k].setdefault(name, []).append(v)

        for k in trees:  # fill each tree's verdict cache
            _run([py, "-m", "adequacy", "score", str(task[k]),
                  str(task[k] / "specs" / "gold.rs")], envs[k], base)
        for _ in range(a.repeat):
            for k in trees:
                add(k, "adequacy --version", _run([py, "-m", "adequacy", "--version"],
                                                  envs[k], base)[0])
                add(k, "adequacy score (warm cache)",
                    _run([py, "-m", "adequacy", "score", str(task[k]),
                          str(task[k] / "specs" / "gold.rs")], envs[k], base)[0])
        for _ in range(max(1, a.repeat // 3)):
            for k in trees:
                for script, args in ((SCORES, [str(task[k]), str(task[k] / "specs" / "gold.rs")]),
                                     (WALKERS, [])):
                    out = _run([py, "-c", script, *args], envs[k], base)[1]
                    for name, v in json.loads(out.strip().splitlines()[-1]).items():
                        add(k, name, v)
    load = os.getloadavg()[0]
    print(f"load average {load:.1f}; medians of {a.repeat} (start-up, score) or "
          f"{max(1, a.repeat // 3)} (in-process) runs")
    print(f"{'figure':34} {'before':>10} {'after':>10} {'after/before':>13}")
    for name in figures["before"]:
        b = statistics.median(figures["before"][name])
        f = statistics.median(figures["after"][name])
        print(f"{name:34} {b * 1000:8.1f}ms {f * 1000:8.1f}ms {f / b:12.2f}x")


if __name__ == "__main__":
    main()
