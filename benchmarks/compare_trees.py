"""Two checkouts side by side, in one run: start-up, score time and the type walkers' speed.

Usage: python benchmarks/compare_trees.py BEFORE AFTER [--repeat 7]
       [--before-python VENV/bin/python] [--after-python VENV/bin/python]

BEFORE and AFTER are source trees (a ``git archive`` of a commit, a worktree). Each figure is
measured in child processes of this interpreter whose ``PYTHONPATH`` holds the tree's source
roots and a distribution record made from the tree's own ``pyproject.toml`` entry points (so
each tree loads exactly its own plugins, whatever is installed), the two trees alternating run
by run; the median of ``--repeat`` runs is printed with the ratio AFTER / BEFORE. A tree whose
packages are not its folders (the layout before built-ins became plugins under their own
folders) cannot be put on ``PYTHONPATH``: give the interpreter of a venv it is installed in
(``--before-python``), which then runs it as installed. Give both trees venvs with the same
distributions when comparing start-up: entry points are looked up across all of them. Both
trees' bytecode is compiled first: with ``PYTHONDONTWRITEBYTECODE`` set, a tree whose ``.pyc``
files are stale would recompile its changed modules on every run and look slower than it is.

1. ``adequacy --version`` (start-up);
2. ``adequacy score`` of a bundled Verus task's gold spec with a warm verdict cache (a fresh
   process: registry, task, front end, cache lookups);
3. the same without the verdict cache (``--no-cache``: start-up and interp deciding 38 cases);
4. the same spec scored 20 times in one process without the cache, five times over, the best
   mean kept (interp; per-score time);
5. the walkers on large values: ``validate``, ``canonical`` and ``value_key`` of a 200,000
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
try:
    from adequacy.model import identity, values
    from adequacy.model.types import parse_type
    from adequacy_verus import render
    from adequacy_verus.interp import values as iv
    from adequacy_mutators import mutants
except ImportError:  # the layout before the core's rooms
    from adequacy import values
    from adequacy.mutators import _identity as identity, mutants
    from adequacy.types import parse_type
    from adequacy.backends.verus import render
    from adequacy.backends.verus.interp import values as iv
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
r["verus tokens tuples"] = best(lambda: render.encode_tokens(v2, t2))
r["interp values tuples"] = best(lambda: iv.from_json(v2, t2))
t4 = parse_type("seq<i32>"); v4 = [rng.randint(-50, 50) for _ in range(1000)]
r["200 mutants seq 1000"] = best(lambda: mutants(v4, t4, 200, seed=1))
print(json.dumps(r))
"""

SCORES = r"""
import json, sys, time
try:
    from adequacy.scoring.runner import score_spec
    from adequacy.taskdirs.load import load_task
except ImportError:  # the layout before the core's rooms
    from adequacy.runner import score_spec
    from adequacy.tasks import load_task
task = load_task(sys.argv[1]); text = open(sys.argv[2]).read()
score_spec(task, text, None, engines=["interp"], cache=None)
means = []
for _ in range(5):
    t = time.perf_counter()
    for _ in range(20):
        score_spec(task, text, None, engines=["interp"], cache=None)
    means.append((time.perf_counter() - t) / 20)
print(json.dumps({"score (in process, best mean of 20)": min(means)}))
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


TASKS = ("backends/adequacy_verus/examples/verus/binary_search_first",
         "examples/verus/binary_search_first")


def _task(tree: Path) -> Path:
    for t in TASKS:
        if (tree / t).is_dir():
            return tree / t
    raise SystemExit(f"{tree}: none of {', '.join(TASKS)}")


def _installed_env(tree: Path, py: str, cache: Path) -> dict[str, str]:
    """The environment of a child that runs ``tree`` as installed in ``py``'s venv; refused
    when that venv's ``adequacy`` is some other tree."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.update(PYTHONHASHSEED="0", ADEQUACY_CACHE=str(cache))
    where = subprocess.run([py, "-c", "import adequacy; print(adequacy.__file__)"], env=env,
                           cwd=cache.parent, capture_output=True, text=True, timeout=120)
    if where.returncode != 0 or not Path(where.stdout.strip()).resolve().is_relative_to(tree):
        raise SystemExit(f"{py} does not run {tree}: {where.stdout.strip() or where.stderr}")
    return env


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("before", type=Path)
    ap.add_argument("after", type=Path)
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--before-python", help="Run BEFORE as installed in this interpreter.")
    ap.add_argument("--after-python", help="Run AFTER as installed in this interpreter.")
    a = ap.parse_args()
    trees = {"before": a.before.resolve(), "after": a.after.resolve()}
    pys = {"before": a.before_python or sys.executable, "after": a.after_python or sys.executable}
    with tempfile.TemporaryDirectory(prefix="compare-trees-") as tmp:
        base = Path(tmp)
        envs = {}
        for k, t in trees.items():
            given = a.before_python if k == "before" else a.after_python
            envs[k] = (_installed_env(t, given, base / f"cache-{k}") if given else
                       tree_env(t, base / f"dist-{k}", base / f"cache-{k}"))
        task = {k: _task(t) for k, t in trees.items()}
        for k, t in trees.items():  # bytecode current in both: a stale .pyc is recompiled on
            # every run when the environment forbids writing it (PYTHONDONTWRITEBYTECODE)
            dirs = [str(t / d) for d in ("adequacy", "backends", "mutators", "optimizers")
                    if (t / d).is_dir()]
            env = {n: v for n, v in envs[k].items() if n != "PYTHONDONTWRITEBYTECODE"}
            subprocess.run([pys[k], "-m", "compileall", "-q", *dirs], env=env, cwd=base,
                           capture_output=True, timeout=900, check=True)
        figures: dict[str, dict[str, list[float]]] = {k: {} for k in trees}

        def add(k: str, name: str, v: float) -> None:
            figures[k].setdefault(name, []).append(v)

        def score(k: str, *more: str) -> list[str]:
            return [pys[k], "-m", "adequacy", "score", str(task[k]),
                    str(task[k] / "specs" / "gold.rs"), *more]

        for k in trees:  # fill each tree's verdict cache
            _run(score(k), envs[k], base)
        for _ in range(a.repeat):
            for k in trees:
                add(k, "adequacy --version", _run([pys[k], "-m", "adequacy", "--version"],
                                                  envs[k], base)[0])
                add(k, "adequacy score (warm cache)", _run(score(k), envs[k], base)[0])
                add(k, "adequacy score --no-cache", _run(score(k, "--no-cache"), envs[k],
                                                         base)[0])
        for _ in range(max(1, a.repeat // 3)):
            for k in trees:
                for script, args in ((SCORES, [str(task[k]), str(task[k] / "specs" / "gold.rs")]),
                                     (WALKERS, [])):
                    out = _run([pys[k], "-c", script, *args], envs[k], base)[1]
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
