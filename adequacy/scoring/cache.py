"""Verdict cache keyed by content (docs/design.md, "Cache").

The key hashes the engine name and version, the spec's normalised text, the predicate and the
case's canonical input and output, so a renamed file or reordered set hits, and a new engine
version misses. Only decided verdicts are stored: an ``unknown`` may be due to a time limit that
a later run raises, and must be recomputed then. The key itself is ``adequacy.scoring.keys.verdict_key``.

The file is input like any other: anyone who can write it (another user's or installation's
cache, an optimizer, an agent's shell) could put rows under the real keys. So every row carries
an HMAC of its key, value, reason and engine under this installation's grader key
(``adequacy.scoring.trust``), and a row whose tag does not check is not a verdict: it is ignored, with
one warning per file, and recomputed (the fresh row replaces it).
"""

from __future__ import annotations

import hmac
import os
import sqlite3
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from adequacy.errors import TrustError
from adequacy.model.verdicts import Truth
from adequacy.sandbox.toolchain import cache_dir
from adequacy.scoring import trust

# the keys live in adequacy.scoring.keys; re-exported for callers that know them from here
from adequacy.scoring.keys import case_key, task_context, task_fingerprint, verdict_key

#: How long a writer waits for another process's transaction before giving up.
BUSY_SECONDS = 30.0

TABLE = "sealed_verdicts"
"""Rows with their tag. Files of older versions keep an untagged ``verdicts`` table, which is
never read."""
SCHEMA = f"""
CREATE TABLE IF NOT EXISTS {TABLE} (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    reason TEXT NOT NULL,
    engine TEXT NOT NULL,
    tag TEXT NOT NULL,
    created REAL DEFAULT (julianday('now'))
)
"""
DOMAIN = "verdict-cache"


def _payload(key: str, value: str, reason: str, engine: str) -> bytes:
    """What a row's tag covers: all of it, so a row moved to another key or edited fails."""
    return "\x1f".join((key, value, reason, engine)).encode("utf-8", "surrogatepass")


def default_cache_dir() -> Path:
    """Where the verdict cache lives: the one cache folder of ``adequacy.sandbox.toolchain``."""
    return cache_dir()


_warned: set[str] = set()


def _warn_once(path: Path, why: object) -> None:
    """A cache fault must not stop scoring; say so once per file and process."""
    key = str(path)
    if key in _warned:
        return
    _warned.add(key)
    print(f"warning: verdict cache {path} is unusable ({why}); scoring without it "
          "(`adequacy cache clear` recreates it)", file=sys.stderr, flush=True)


def _warn_forged(path: Path, n: int) -> None:
    key = f"forged:{path}"
    if key in _warned:
        return
    _warned.add(key)
    print(f"warning: verdict cache {path} holds {n} row(s) this installation's grader did not "
          "write (a cache copied from elsewhere, or rows planted by whoever can write the "
          "file); they are ignored and recomputed", file=sys.stderr, flush=True)


class CacheChoice(BaseModel):
    """Which verdict cache a command reads and writes (its command-line options)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    no_cache: bool = False
    """Do not read or write the verdict cache."""
    cache: Path | None = Field(default=None, json_schema_extra={"env": "ADEQUACY_VERDICT_CACHE"})
    """Verdict cache file (default: verdicts.sqlite in the cache folder, $ADEQUACY_CACHE)."""

    def path(self) -> str | None:
        """The cache file to open, or None for no cache."""
        if self.no_cache:
            return None
        return str(self.cache or default_cache_dir() / "verdicts.sqlite")


class VerdictCache:
    """A SQLite file shared by processes (WAL mode, busy timeout); one connection per process
    and thread.

    A cache is an optimisation: any fault (a truncated or garbage file, a read-only folder, a
    full disk) warns once, naming the file, and turns the cache off for this process; scoring
    goes on without it. ``broken`` holds the reason.
    """

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self._local = threading.local()
        self.hits = 0
        self.misses = 0
        self.forged = 0
        """Rows read whose tag did not check (ignored)."""
        self.broken: str | None = None
        try:
            self._key, self._digest = trust.tagger(DOMAIN)
        except TrustError as e:
            self._disable(e)
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            c = self._conn()

            def create() -> None:
                with c:
                    c.execute(SCHEMA)

            _while_locked(create)
            c.execute(f"SELECT key FROM {TABLE} LIMIT 1").fetchall()
        except (sqlite3.Error, OSError) as e:
            self._disable(e)

    def close(self) -> None:
        """Close this thread's connection now: SQLite then removes its ``-wal`` and ``-shm``
        files at a known moment (left to the garbage collector, they vanish whenever the
        cache object happens to be collected)."""
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            self._local.conn = None
            conn.close()

    def _disable(self, e: BaseException) -> None:
        self.broken = str(e) or type(e).__name__
        _warn_once(self.path, self.broken)

    def _conn(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        pid = getattr(self._local, "pid", None)
        if conn is None or pid != os.getpid():
            conn = sqlite3.connect(self.path, timeout=BUSY_SECONDS)
            conn.execute(f"PRAGMA busy_timeout={int(BUSY_SECONDS * 1000)}")
            _while_locked(lambda: conn.execute("PRAGMA journal_mode=WAL"))
            conn.execute("PRAGMA synchronous=NORMAL")
            self._local.conn = conn
            self._local.pid = os.getpid()
        return conn

    def _tag(self, key: str, value: str, reason: str, engine: str) -> str:
        return hmac.digest(self._key, _payload(key, value, reason, engine), self._digest).hex()

    def get_many(self, keys: list[str]) -> dict[str, tuple[Truth, str, str]]:
        """The cached verdicts of ``keys`` that this installation's grader wrote; a row whose
        tag does not check is left out (a miss) and counted in ``forged``."""
        out: dict[str, tuple[Truth, str, str]] = {}
        forged = 0
        if self.broken is None:
            try:
                conn = self._conn()
                for i in range(0, len(keys), 500):
                    chunk = keys[i:i + 500]
                    q = (f"SELECT key, value, reason, engine, tag FROM {TABLE} "
                         "WHERE key IN ({})".format(",".join("?" * len(chunk))))
                    for k, v, r, e, t in conn.execute(q, chunk):
                        ok = (isinstance(v, str) and isinstance(r, str) and isinstance(e, str)
                              and isinstance(t, str)
                              and hmac.compare_digest(self._tag(k, v, r, e), t))
                        if not ok or v == Truth.unknown.value:
                            forged += 1
                            continue
                        out[k] = (Truth(v), r, e)
            except (sqlite3.Error, OSError, ValueError) as e:
                self._disable(e)
                out = {}
        if forged:
            self.forged += forged
            _warn_forged(self.path, forged)
        self.hits += len(out)
        self.misses += len(keys) - len(out)
        return out

    def put_many(self, rows: list[tuple[str, Truth, str, str]]) -> None:
        rows = [r for r in rows if r[1] != Truth.unknown]
        if not rows or self.broken is not None:
            return
        try:
            conn = self._conn()
            with conn:
                conn.executemany(
                    f"INSERT OR REPLACE INTO {TABLE} (key, value, reason, engine, tag) "
                    "VALUES (?,?,?,?,?)",
                    [(k, v.value, r, e, self._tag(k, v.value, r, e)) for k, v, r, e in rows])
        except (sqlite3.Error, OSError) as e:
            self._disable(e)

    def clear(self) -> None:
        """Remove the file and create it anew (see ``clear_cache``)."""
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = None
        clear_cache(self.path)
        self.broken = None


def _while_locked(step: Callable[[], object]) -> None:
    """Run ``step``, again while SQLite says the file is locked, up to ``BUSY_SECONDS``.

    Two processes opening a new file at once both switch it to WAL and create the table; SQLite
    answers one of them "database is locked" at once, without its busy handler (a journal-mode
    change needs the file to itself). Under load that turned a whole batch's cache off."""
    deadline = time.monotonic() + BUSY_SECONDS
    pause = 0.005
    while True:
        try:
            step()
            return
        except sqlite3.OperationalError as e:
            if "locked" not in str(e) and "busy" not in str(e):
                raise
            if time.monotonic() >= deadline:
                raise
            time.sleep(pause)
            pause = min(pause * 2, 0.2)


def clear_cache(path: Path | str) -> None:
    """Remove the cache file (and its WAL files) and create an empty one: works on a truncated
    or garbage file, which no SQL statement could clear. Raises ``OSError`` when the folder does
    not let us."""
    path = Path(path)
    for suffix in ("", "-wal", "-shm", "-journal"):
        Path(str(path) + suffix).unlink(missing_ok=True)
    path.parent.mkdir(parents=True, exist_ok=True)
    _warned.discard(str(path))
    try:
        conn = sqlite3.connect(path, timeout=BUSY_SECONDS)
        try:
            with conn:
                conn.execute("PRAGMA journal_mode=WAL")
                conn.execute(SCHEMA)
        finally:
            conn.close()
    except sqlite3.Error as e:
        raise OSError(f"cannot create {path}: {e}") from None


__all__ = ["VerdictCache", "case_key", "clear_cache", "default_cache_dir", "task_context",
           "task_fingerprint", "verdict_key"]
