"""The verdict cache is input: rows this installation's grader did not write are not verdicts.

The attack: whoever can write the cache file puts rows under the real verdict keys (computed
with the public key functions, or copied from a cache they filled with a spec of their own),
each saying what the case's bucket expects. A flawed spec then "passes" every case, all cached.
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from adequacy.examples import bundled_folder
from adequacy.model.verdicts import Truth
from adequacy.scoring import cache as cache_mod
from adequacy.scoring.cache import VerdictCache
from adequacy.scoring.runner import score_spec
from adequacy.taskdirs.load import load_task

ROOT = Path(__file__).resolve().parents[2]
EUCLID = bundled_folder("verus") / "euclid_mod"
FLAWED = (EUCLID / "skeleton.rs").read_text()
"""``true`` / ``true``: fails every pre_sound and post_sound case."""


class Spy(VerdictCache):
    """A cache that remembers the keys it was asked for (the attacker's key finder)."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.asked: list[str] = []

    def get_many(self, keys: list[str]) -> dict[str, tuple[Truth, str, str]]:
        self.asked += keys
        return super().get_many(keys)


def favourable_rows(tmp: Path) -> list[tuple[str, Truth, str, str]]:
    """(key, value, reason, engine) for every case of the flawed spec, each value what its
    bucket expects: the rows a forger plants."""
    spy = Spy(tmp / "spy.sqlite")
    rep = score_spec(load_task(EUCLID), FLAWED, cache=spy)
    assert not rep.passed_all and len(spy.asked) == len(rep.verdicts)
    return [(k, Truth.true if v.bucket.expects else Truth.false, "planted", v.engine)
            for k, v in zip(spy.asked, rep.verdicts, strict=True)]


@pytest.fixture(autouse=True)
def grader(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    cache_mod._warned.clear()
    home = tmp_path / "grader-home"
    monkeypatch.setenv("ADEQUACY_GRADER_HOME", str(home))
    return home


def test_a_cache_another_installation_wrote_is_ignored_with_a_warning(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str],
) -> None:
    rows = favourable_rows(tmp_path)
    theirs = tmp_path / "theirs.sqlite"
    monkeypatch.setenv("ADEQUACY_GRADER_HOME", str(tmp_path / "other-installation"))
    other = VerdictCache(theirs)
    other.put_many(rows)  # a real cache, under another installation's key
    other.close()  # its rows checkpointed into the file that is copied
    monkeypatch.setenv("ADEQUACY_GRADER_HOME", str(tmp_path / "grader-home"))
    mine = tmp_path / "copied.sqlite"
    shutil.copyfile(theirs, mine)
    capfd.readouterr()
    vc = VerdictCache(mine)
    rep = score_spec(load_task(EUCLID), FLAWED, cache=vc)
    assert not rep.passed_all
    assert all(e.cached == 0 for e in rep.engines)
    assert vc.forged == len(rows)
    err = capfd.readouterr().err
    assert err.count("warning:") == 1 and "did not write" in err and str(mine) in err


def test_rows_planted_under_the_real_keys_are_not_verdicts(tmp_path: Path) -> None:
    rows = favourable_rows(tmp_path)
    c = tmp_path / "planted.sqlite"
    VerdictCache(c)  # the file as the grader makes it
    with sqlite3.connect(c) as conn:
        # every table a version of the cache ever read, with any tag column it has
        conn.execute("CREATE TABLE IF NOT EXISTS verdicts (key TEXT PRIMARY KEY, value TEXT "
                     "NOT NULL, reason TEXT NOT NULL, engine TEXT NOT NULL, created REAL)")
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE "
                                             "type = 'table'")]
        for t in tables:
            cols = [r[1] for r in conn.execute(f"PRAGMA table_info({t})")]
            names = ["key", "value", "reason", "engine", *(["tag"] if "tag" in cols else [])]
            conn.executemany(f"INSERT OR REPLACE INTO {t} ({', '.join(names)}) VALUES "
                             f"({', '.join('?' * len(names))})",
                             [(k, v.value, r, e, "0" * 64)[:len(names)] for k, v, r, e in rows])
    vc = VerdictCache(c)
    rep = score_spec(load_task(EUCLID), FLAWED, cache=vc)
    assert not rep.passed_all and all(e.cached == 0 for e in rep.engines)
    # the fresh verdicts replaced the planted rows: the next run hits, with the true verdicts
    again = score_spec(load_task(EUCLID), FLAWED, cache=VerdictCache(c))
    assert not again.passed_all and sum(e.cached for e in again.engines) == len(rows)
