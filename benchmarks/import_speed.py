"""How long `adequacy import specgenbench SRC DEST` takes with its generation and mutation.

Usage: python benchmarks/import_speed.py [--src sgb.jsonl] [--limit N] [--jobs N]
       [--against REV] [--keep DIR] [--top N]

Runs the import the way the CLI does (the importer, then ``fill_tasks``: generate then mutate
each task, ``--jobs`` at once) and prints, per stage, wall seconds and CPU seconds of this
process and every child (the sandboxed JVMs included: sampled from /proc, a lower bound,
``proc_cpu.py``), the machine's load meanwhile, the slowest tasks with their generate and
mutate seconds and reference timeouts, and the total against the 2-minute goal.

``--against REV`` also runs the same import with the code of git revision REV (its own
``adequacy import`` CLI, in a subprocess, from a temporary checkout), in the same run, and
prints both figures, their ratio and whether the task folders are identical
(``compare_tasks.py``, each difference listed). That old import took 588 s, then 866 s
(at load 7), on this 2-core machine before this change; expect it to take a while.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from compare_tasks import compare  # noqa: E402
from proc_cpu import TreeCpu  # noqa: E402

from adequacy.cli.data import default_jobs  # noqa: E402
from adequacy.extensions.importer import select_tasks  # noqa: E402
from adequacy.extensions.registry import registry
from adequacy_mutators import FillReport, fill_tasks  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
GOAL_SECONDS = 120.0

#: Runs an old checkout's CLI under this venv, its packages found where its layout keeps them:
#: top-level folders as source roots (``backends/adequacy_openjml``), or, before that layout,
#: four folders mapped under ``adequacy`` as its setup.py did (the dotted names are built, so
#: that a rewrite of module paths leaves them alone).
_SHIM = r"""
import importlib.util, os, sys
root, argv = sys.argv[1], sys.argv[2:]
OLD = {"adequacy": "adequacy"}
OLD.update({"adequacy" + "." + d: d for d in ("backends", "mutators", "optimizers")})
class Old:
    def find_spec(self, name, path=None, target=None):
        if name in OLD:
            d = f"{root}/{OLD[name]}"
            return importlib.util.spec_from_file_location(
                name, f"{d}/__init__.py", submodule_search_locations=[d])
        return None
sys.meta_path[:] = [f for f in sys.meta_path if "editable" not in repr(f).lower()]
if os.path.isdir(f"{root}/backends/adequacy_openjml"):
    sys.path[:0] = [root] + [f"{root}/{d}" for d in ("backends", "mutators", "optimizers")]
else:
    sys.meta_path.insert(0, Old())
# its plugins are the entry points its own pyproject.toml declares, not this installation's
import importlib.metadata as md, pathlib, tempfile, tomllib
with open(f"{root}/pyproject.toml", "rb") as f:
    groups = tomllib.load(f)["project"].get("entry-points", {})
info = pathlib.Path(tempfile.mkdtemp()) / "spec_adequacy_old-0.dist-info"
info.mkdir()
(info / "METADATA").write_text("Metadata-Version: 2.1\nName: spec-adequacy-old\nVersion: 0\n")
(info / "entry_points.txt").write_text("".join(
    f"[{g}]\n" + "".join(f"{k} = {v}\n" for k, v in eps.items()) for g, eps in groups.items()))
mine = md.distributions
def distributions(**kw):
    for d in mine(**kw):
        if (d.metadata["Name"] or "").lower().replace("_", "-") != "spec-adequacy":
            yield d
    yield md.PathDistribution(info)
md.distributions = distributions
for m in [m for m in sys.modules if m.split(".")[0].startswith("adequacy")]:
    del sys.modules[m]
sys.argv = ["adequacy", *argv]
from adequacy.cli import main
main()
"""


def _default_src() -> Path:
    env = os.environ.get("ADEQUACY_DATASETS")
    base = Path(env) if env else REPO.parent / "shared" / "datasets"
    return base / "specgenbench" / "sgb.jsonl"


def run_new(src: Path, dest: Path, limit: int | None, jobs: int
            ) -> tuple[dict[str, tuple[float, float, float]], list[FillReport | None],
                       list[float]]:
    """(stage -> (wall, cpu, cpu of this Python process), fill reports, load samples) of
    one import."""
    imp = registry().importers["specgenbench"]
    stages: dict[str, tuple[float, float, float]] = {}
    loads: list[float] = []
    with TreeCpu() as t:
        chosen = select_tasks(imp, src, None, limit)
        report = imp.run(src, dest, **({"only": chosen} if chosen is not None else {}))
    stages["convert"] = (t.wall, t.cpu, t.own)
    loads += t.load
    folders = [dest / o.task_id for o in report.converted]
    with TreeCpu() as t:
        reps = fill_tasks(folders, jobs=jobs, valid=50, per_case=3, seed=0)
    stages["generate + mutate"] = (t.wall, t.cpu, t.own)
    loads += t.load
    return stages, reps, loads


def run_old(rev: str, src: Path, dest: Path, limit: int | None, tmp: Path
            ) -> tuple[float, float, list[float]]:
    """(wall, cpu, load samples) of revision ``rev``'s own CLI on the same source."""
    checkout = tmp / f"rev-{rev}"
    subprocess.run(["git", "-C", str(REPO), "worktree", "add", "--detach", "-f",
                    str(checkout), rev], check=True, capture_output=True)
    try:
        if limit:
            cut = tmp / "old-src.jsonl"
            cut.write_text("\n".join(src.read_text(encoding="utf-8").splitlines()[:limit])
                           + "\n", encoding="utf-8")
            src = cut
        with TreeCpu() as t:
            r = subprocess.run([sys.executable, "-c", _SHIM, str(checkout), "import",
                                "specgenbench", str(src), str(dest)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if r.returncode != 0:
            raise SystemExit(f"revision {rev}'s import failed:\n{r.stderr[-2000:]}")
        return t.wall, t.cpu, t.load
    finally:
        subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force",
                        str(checkout)], capture_output=True)


def _load_text(loads: list[float]) -> str:
    if not loads:
        return "load n/a"
    return (f"load {min(loads):.1f}-{max(loads):.1f} (median {statistics.median(loads):.1f}) "
            f"on {os.cpu_count()} cores")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--src", type=Path, default=_default_src())
    ap.add_argument("--limit", type=int, default=None, help="first N tasks only")
    ap.add_argument("--jobs", type=int, default=default_jobs(),
                    help="as `adequacy import --jobs` (default: its default)")
    ap.add_argument("--against", metavar="REV", help="also time revision REV's import")
    ap.add_argument("--keep", type=Path, help="write the task folders here (kept)")
    ap.add_argument("--top", type=int, default=8, help="slowest tasks listed")
    args = ap.parse_args()
    if not args.src.is_file():
        print(f"no SpecGenBench at {args.src} (set ADEQUACY_DATASETS)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="import-speed-") as tmp_s:
        tmp = Path(tmp_s)
        dest = args.keep or tmp / "new"
        if dest.exists():
            shutil.rmtree(dest)
        t0 = time.monotonic()
        stages, reps, loads = run_new(args.src, dest, args.limit, args.jobs)
        total_wall = time.monotonic() - t0
        total_cpu = sum(c for _, c, _ in stages.values())
        total_own = sum(o for _, _, o in stages.values())
        print(f"adequacy import specgenbench {args.src} (--jobs {args.jobs}"
              f"{f', --limit {args.limit}' if args.limit else ''}); {_load_text(loads)}")
        print(f"{'stage':<20} {'wall s':>8} {'CPU s':>8} {'of it Python':>13}")
        for name, (w, c, o) in stages.items():
            print(f"{name:<20} {w:8.1f} {c:8.1f} {o:13.1f}")
        print(f"{'total':<20} {total_wall:8.1f} {total_cpu:8.1f} {total_own:13.1f}   goal "
              f"{GOAL_SECONDS:.0f} s wall: {'met' if total_wall <= GOAL_SECONDS else 'NOT met'}")
        done = [r for r in reps if r is not None]
        gen = sum(r.seconds.get("generate", 0.0) for r in done)
        mut = sum(r.seconds.get("mutate", 0.0) for r in done)
        runs = sum(r.reference_runs for r in done)
        timeouts = sum((r.generate.reference_kinds.get("timeout", 0) if r.generate else 0)
                       for r in done)
        print(f"per-task sums (threads overlap): generate {gen:.1f} s, mutate {mut:.1f} s; "
              f"reference runs {runs}, of which timed out in generation {timeouts} "
              f"(each waits the 5 s case limit)")
        slow = sorted(done, key=lambda r: -sum(r.seconds.values()))[:args.top]
        print("slowest tasks: " + "; ".join(
            f"{r.task} {r.seconds.get('generate', 0):.1f}+{r.seconds.get('mutate', 0):.1f} s"
            + (f" ({r.generate.reference_kinds.get('timeout', 0)} timeouts)"
               if r.generate and r.generate.reference_kinds.get("timeout") else "")
            for r in slow))
        if args.against:
            old_dest = tmp / "old"
            ow, oc, oloads = run_old(args.against, args.src, old_dest, args.limit, tmp)
            print(f"revision {args.against}: wall {ow:.1f} s, CPU {oc:.1f} s; "
                  f"{_load_text(oloads)}")
            print(f"ratio new/old: wall {total_wall / ow:.2f}, CPU "
                  f"{total_cpu / oc if oc else float('nan'):.2f}")
            diffs = compare(old_dest, dest)
            n = len([d for d in dest.iterdir() if d.is_dir()])
            print(f"task folders identical: {n - len(diffs)} of {n}")
            for task, lines in diffs.items():
                for line in lines:
                    print(f"  {task}: {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
