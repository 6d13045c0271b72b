"""What the CLI makes of every bundled example task, as one JSON file to diff two trees by.

Usage: python benchmarks/cases_snapshot.py TREE OUT.json [--engine E ...]

Copies each bundled task folder (every backend's examples) into a
temporary folder and runs, with the source roots and the entry points of TREE on
``PYTHONPATH`` (so two checkouts can be compared with one interpreter, each with its own
plugins; ``compare_trees.tree_env``): ``cases generate --seed 1 --valid 10``, then ``mutate
--seed 1 --per-case 4``, then ``run`` over every spec of every task (``--no-cache``, one worker,
the default engines or those given). It records the reports, every case file line, and every
results record without what differs from run to run (times, dates, seals, temporary paths).
A refactoring that keeps behaviour gives two equal files.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from compare_trees import tree_env  # noqa: E402 - a sibling script

_TIMED = re.compile(r"\d(\.\d+)? ?(s|ms|/s)\b")
VOLATILE = {"seconds", "created", "seal", "task_path", "spec_path", "elapsed", "duration",
            "wall_seconds", "cpu_seconds", "key"}
"""Fields that differ between runs, or between trees whose code differs (a job's key hashes
the engines' source versions)."""
_SOURCE_HASH = re.compile(r"\+(src\.)?[0-9a-f]{16}")


def tasks_of(tree: Path) -> list[Path]:
    return sorted(p.parent for p in (tree / "backends").glob("*/examples/*/*/task.toml"))


def _scrub(x: Any, tmp: str) -> Any:
    if isinstance(x, dict):
        return {k: _scrub(v, tmp) for k, v in x.items() if k not in VOLATILE}
    if isinstance(x, list):
        return [_scrub(v, tmp) for v in x]
    if isinstance(x, str):  # an engine's version names a hash of its source: edited, it differs
        return _SOURCE_HASH.sub("+SRC", x.replace(tmp, "$TMP"))
    return x


def _clean(text: str, tmp: str) -> str:
    """Output without the temporary folder's name and without progress lines (timed)."""
    lines = text.replace(tmp, "$TMP").splitlines()
    return "\n".join(ln for ln in lines if not _TIMED.search(ln))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("tree", type=Path)
    ap.add_argument("out", type=Path)
    ap.add_argument("--engine", action="append", default=[])
    a = ap.parse_args()
    tree = a.tree.resolve()
    snap: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="cases-snapshot-") as tmp:
        env = tree_env(tree, Path(tmp) / "dist")
        work = Path(tmp) / "tasks"
        work.mkdir()
        for src in tasks_of(tree):
            rel = src.relative_to(tree)
            name = "__".join(rel.parts[1:])
            shutil.copytree(src, work / name)

        def cli(*args: str) -> subprocess.CompletedProcess[str]:
            return subprocess.run([sys.executable, "-m", "adequacy", *args], cwd=tmp, env=env,
                                  capture_output=True, text=True, timeout=3600)

        for d in sorted(work.iterdir()):
            rec: dict[str, Any] = {}
            g = cli("cases", "generate", str(d), "--seed", "1", "--valid", "10", "--json")
            rec["generate"] = [g.returncode, _clean(g.stdout, tmp), _clean(g.stderr, tmp)]
            m = cli("mutate", str(d), "--seed", "1", "--per-case", "4", "--format", "json")
            rec["mutate"] = [m.returncode, _clean(m.stdout, tmp), _clean(m.stderr, tmp)]
            rec["cases"] = {p.name: p.read_text() for p in sorted((d / "tests").glob("*"))}
            snap[d.name] = rec
            print(f"{d.name}: generate {g.returncode}, mutate {m.returncode}", file=sys.stderr)
        res = Path(tmp) / "results.jsonl"
        eng = [x for e in a.engine for x in ("-e", e)]
        r = cli("run", "--tasks", str(work), "--no-cache", "--workers", "1", "-o", str(res),
                "-q", "--no-progress", *eng)
        snap["run"] = [r.returncode, r.stdout.replace(tmp, "$TMP")]
        records = [_scrub(json.loads(line), tmp) for line in res.read_text().splitlines()]
        records.sort(key=lambda x: (x.get("report", {}).get("task_id", ""),
                                    x.get("report", {}).get("spec_sha", "")))
        snap["records"] = records
    a.out.write_text(json.dumps(snap, indent=1, sort_keys=True, ensure_ascii=False))
    print(f"{len(snap) - 2} tasks, {len(snap['records'])} records written to {a.out}")


if __name__ == "__main__":
    main()
