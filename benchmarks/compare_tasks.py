"""Compare two folders of task folders file by file: did a change to an importer leave its output
as it was?

Usage: python benchmarks/compare_tasks.py OLD NEW [--show N]

For every task folder in either: its task.toml and other files byte for byte, and each
``tests/*.jsonl`` case by case (by case id: only in OLD, only in NEW, same id with other
content, same cases in another order). Prints one line per task that differs and a total;
exit 0 when everything is identical, 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any


def _cases(path: Path) -> list[tuple[str, str]]:
    """(id, canonical JSON) per line of a cases file."""
    out: list[tuple[str, str]] = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        obj: Any = json.loads(line)
        cid = str(obj.get("id", f"line {n}")) if isinstance(obj, dict) else f"line {n}"
        out.append((cid, json.dumps(obj, sort_keys=True)))
    return out


def compare_task(old: Path, new: Path, show: int = 3) -> list[str]:
    """What differs between two task folders (empty: identical)."""
    diffs: list[str] = []
    names = {p.relative_to(old).as_posix() for p in old.rglob("*") if p.is_file()} | {
        p.relative_to(new).as_posix() for p in new.rglob("*") if p.is_file()}
    for name in sorted(names):
        a, b = old / name, new / name
        if not a.is_file() or not b.is_file():
            diffs.append(f"{name}: only in {'new' if b.is_file() else 'old'}")
            continue
        if a.read_bytes() == b.read_bytes():
            continue
        if not name.endswith(".jsonl"):
            diffs.append(f"{name}: differs")
            continue
        ca, cb = _cases(a), _cases(b)
        da, db = dict(ca), dict(cb)
        only_a = [i for i, _ in ca if i not in db]
        only_b = [i for i, _ in cb if i not in da]
        changed = [i for i, t in ca if i in db and db[i] != t]
        parts = []
        if only_a:
            parts.append(f"{len(only_a)} only in old ({', '.join(only_a[:show])}"
                         f"{', ...' if len(only_a) > show else ''})")
        if only_b:
            parts.append(f"{len(only_b)} only in new ({', '.join(only_b[:show])}"
                         f"{', ...' if len(only_b) > show else ''})")
        if changed:
            parts.append(f"{len(changed)} changed ({', '.join(changed[:show])})")
        if not parts:
            parts.append("same cases, other order or formatting")
        diffs.append(f"{name}: " + "; ".join(parts))
    return diffs


def compare(old: Path, new: Path, show: int = 3) -> dict[str, list[str]]:
    """Task folder name -> its differences, for every task that differs."""
    tasks = {d.name for d in old.iterdir() if d.is_dir()} | {
        d.name for d in new.iterdir() if d.is_dir()}
    out: dict[str, list[str]] = {}
    for t in sorted(tasks):
        a, b = old / t, new / t
        if not a.is_dir() or not b.is_dir():
            out[t] = [f"task only in {'new' if b.is_dir() else 'old'}"]
            continue
        d = compare_task(a, b, show)
        if d:
            out[t] = d
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("old", type=Path)
    ap.add_argument("new", type=Path)
    ap.add_argument("--show", type=int, default=3, help="case ids shown per difference")
    args = ap.parse_args()
    diffs = compare(args.old, args.new, args.show)
    total = len({d.name for d in args.old.iterdir() if d.is_dir()} | {
        d.name for d in args.new.iterdir() if d.is_dir()})
    for task, lines in diffs.items():
        for line in lines:
            print(f"{task}: {line}")
    print(f"{total - len(diffs)} of {total} task folders identical")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
