"""Verdict cache keyed by content (DESIGN section 7).

The key hashes the engine name and version, the spec's normalised text, the predicate and the
case's canonical input and output, so a renamed file or reordered set hits, and a new engine
version misses. Only decided verdicts are stored: an ``unknown`` may be due to a time limit that
a later run raises, and must be recomputed then.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from pathlib import Path

from adequacy.tasks import Case, Task
from adequacy.values import content_hash, encode
from adequacy.verdicts import Truth

SCHEMA = """
CREATE TABLE IF NOT EXISTS verdicts (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    reason TEXT NOT NULL,
    engine TEXT NOT NULL,
    created REAL DEFAULT (julianday('now'))
)
"""


def default_cache_dir() -> Path:
    root = os.environ.get("ADEQUACY_CACHE")
    if root:
        return Path(root)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "spec-adequacy"


def case_key(task: Task, case: Case) -> str:
    """The canonical text of what a predicate sees of a case (input, and output for post)."""
    parts = [encode(case.input.get(p.name), p.type) for p in task.inputs]
    if case.bucket.predicate == "post" and case.output is not None:
        parts += [encode(case.output.get(p.name), p.type) for p in task.outputs]
    return "\x1f".join(parts)


def task_context(task: Task) -> str:
    """What of a task, besides the case, can change a predicate's value: the signature and the
    backend settings (a JML task's ``[jml] method`` or ``post_state`` names what a spec means)."""
    sig = ";".join(f"{p.name}:{p.type}" for p in task.inputs + task.outputs)
    return sig + "\x1f" + json.dumps(task.settings, sort_keys=True, default=str)


def task_fingerprint(task: Task) -> str:
    """The task's identity and every case's full content (a relabelled case changes it)."""
    cases = "\n".join(f"{c.bucket.value}/{c.id}\x1f{case_key(task, c)}"
                      for c in task.all_cases())
    return content_hash(task.id, str(task.root), task_context(task), cases)


def verdict_key(engine: str, engine_version: str, normalized_spec: str, task: Task,
                case: Case) -> str:
    return content_hash(engine, engine_version, normalized_spec, task_context(task),
                        case.bucket.predicate, case_key(task, case))


class VerdictCache:
    """A SQLite file shared by processes (WAL mode); one connection per process and thread."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._local = threading.local()
        self.hits = 0
        self.misses = 0
        with self._conn() as c:
            c.execute(SCHEMA)

    def _conn(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        pid = getattr(self._local, "pid", None)
        if conn is None or pid != os.getpid():
            conn = sqlite3.connect(self.path, timeout=30)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            self._local.conn = conn
            self._local.pid = os.getpid()
        return conn

    def get_many(self, keys: list[str]) -> dict[str, tuple[Truth, str, str]]:
        out: dict[str, tuple[Truth, str, str]] = {}
        conn = self._conn()
        for i in range(0, len(keys), 500):
            chunk = keys[i:i + 500]
            q = "SELECT key, value, reason, engine FROM verdicts WHERE key IN ({})".format(",".join(
                "?" * len(chunk)))
            for k, v, r, e in conn.execute(q, chunk):
                out[k] = (Truth(v), r, e)
        self.hits += len(out)
        self.misses += len(keys) - len(out)
        return out

    def put_many(self, rows: list[tuple[str, Truth, str, str]]) -> None:
        rows = [r for r in rows if r[1] != Truth.unknown]
        if not rows:
            return
        conn = self._conn()
        with conn:
            conn.executemany(
                "INSERT OR REPLACE INTO verdicts (key, value, reason, engine) VALUES (?,?,?,?)",
                [(k, v.value, r, e) for k, v, r, e in rows])

    def clear(self) -> None:
        conn = self._conn()
        with conn:
            conn.execute("DELETE FROM verdicts")
