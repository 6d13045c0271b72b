"""A verdict cache is input, not evidence: every way to put rows in front of the grader.

Each attack writes rows under the real verdict keys of a flawed spec (``true``/``true`` on
euclid_mod, which fails every sound case), each saying what its case's bucket expects; were
they believed, the flawed spec would pass everything with every case "cached".
"""

from __future__ import annotations

import multiprocessing
import os
import shutil
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from gym_support import (
    EUCLID,
    FLAWED,
    GOLD,
    favourable_rows,
    installation,
    leaks,
    make_gym,
)
from typer.testing import CliRunner

from adequacy.cli import app
from adequacy.errors import TrustError
from adequacy.gym.manifest import read_manifest
from adequacy.model.verdicts import Truth
from adequacy.scoring import cache as cache_mod
from adequacy.scoring import trust
from adequacy.scoring.cache import VerdictCache, default_cache_dir
from adequacy.scoring.runner import score_spec
from adequacy.taskdirs.load import load_task

runner = CliRunner()


def _plant_raw(path: Path, rows: list[tuple[str, Truth, str, str]], tag: str = "0" * 64) -> None:
    with sqlite3.connect(path) as conn:
        conn.executemany(f"INSERT OR REPLACE INTO {cache_mod.TABLE} (key, value, reason, engine,"
                         " tag) VALUES (?,?,?,?,?)", [(k, v.value, r, e, tag)
                                                      for k, v, r, e in rows])


def _score_cli(cache: Path) -> tuple[int, str, str]:
    r = runner.invoke(app, ["score", str(EUCLID), str(cache.parent / "flawed.rs"), "--cache",
                            str(cache)])
    return r.exit_code, r.stdout, r.stderr


def test_check_and_submit_never_believe_planted_rows(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The agent writes the default cache that check and submit read, under the real keys of
    every case of the source task (hidden ones included: it computed them elsewhere)."""
    from adequacy.gym import check, submit

    installation(tmp_path, monkeypatch)
    gym, src = make_gym(tmp_path)
    rows = favourable_rows(src / "euclid_mod", FLAWED, tmp_path)
    default = default_cache_dir() / "verdicts.sqlite"
    VerdictCache(default).close()
    _plant_raw(default, rows)
    folder = gym / "euclid_mod"
    res = check(folder, FLAWED)
    assert all(not v.cached for v in res.report.verdicts)
    rec = submit(folder, FLAWED)
    assert not rec.passed_all and rec.status == "scored"
    # what it found cached is what check just computed itself: the visible cases
    assert sum(e.cached for e in rec.engines) <= len(read_manifest(folder).visible)


def test_genuine_rows_moved_edited_or_copied_from_another_installation(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    installation(tmp_path, monkeypatch)
    task = load_task(EUCLID)
    rows = favourable_rows(task, FLAWED, tmp_path)
    c = tmp_path / "c.sqlite"
    vc = VerdictCache(c)
    # genuine rows of the gold spec: real tags, by this installation, on other keys
    gold_rows = favourable_rows(task, GOLD, tmp_path / "g")
    vc.put_many(gold_rows)
    vc.close()
    with sqlite3.connect(c) as conn:
        tags = {k: t for k, t in conn.execute(f"SELECT key, tag FROM {cache_mod.TABLE}")}
        conn.executemany(f"INSERT OR REPLACE INTO {cache_mod.TABLE} (key, value, reason, "
                         "engine, tag) VALUES (?,?,?,?,?)",
                         [(k, v.value, r, e, tags[g[0]])  # a real tag moved to another key
                          for (k, v, r, e), g in zip(rows, gold_rows, strict=True)])
    rep = score_spec(task, FLAWED, cache=VerdictCache(c))
    assert not rep.passed_all and all(e.cached == 0 for e in rep.engines)
    # now every row is genuine (the grader just wrote them); edit values and reasons in place
    with sqlite3.connect(c) as conn:
        conn.execute(f"UPDATE {cache_mod.TABLE} SET value = CASE value WHEN 'true' THEN 'false'"
                     " ELSE 'true' END")
    rep = score_spec(task, FLAWED, cache=VerdictCache(c))
    assert not rep.passed_all and all(e.cached == 0 for e in rep.engines)
    with sqlite3.connect(c) as conn:
        conn.execute(f"UPDATE {cache_mod.TABLE} SET reason = reason || ' (edited)'")
    again = VerdictCache(c)
    assert again.get_many([k for k, *_ in rows]) == {} and again.forged == len(rows)
    # a whole cache another installation filled, copied over ours
    other = installation(tmp_path, monkeypatch, "elsewhere")
    theirs = VerdictCache(other / "theirs.sqlite")
    theirs.put_many(rows)
    theirs.close()
    installation(tmp_path, monkeypatch)
    shutil.copyfile(other / "theirs.sqlite", c)
    for suffix in ("-wal", "-shm"):
        Path(f"{c}{suffix}").unlink(missing_ok=True)
    rep = score_spec(task, FLAWED, cache=VerdictCache(c))
    assert not rep.passed_all and all(e.cached == 0 for e in rep.engines)


def test_the_cli_warns_once_and_scores_for_real(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                                ) -> None:
    installation(tmp_path, monkeypatch)
    rows = favourable_rows(EUCLID, FLAWED, tmp_path)
    (tmp_path / "flawed.rs").write_text(FLAWED)
    c = tmp_path / "verdicts.sqlite"
    VerdictCache(c).close()
    _plant_raw(c, rows)
    code, out, err = _score_cli(c)
    assert code == 1 and "PASSED ALL" not in out
    assert err.count("did not write") == 1 and "Traceback" not in err


def test_the_key_is_private_and_refused_when_it_is_not(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    home = installation(tmp_path, monkeypatch) / "grader-home"
    key = trust.grader_key()
    kf = home / trust.KEY_FILE
    assert stat.S_IMODE(kf.stat().st_mode) == 0o600
    assert stat.S_IMODE(home.stat().st_mode) == 0o700
    # a key others can read is a key others can sign with: refused, never used
    for bad in (lambda: os.chmod(kf, 0o644), lambda: os.chmod(home, 0o755)):
        trust._keys.clear()
        bad()
        with pytest.raises(TrustError):
            trust.grader_key()
        os.chmod(kf, 0o600)
        os.chmod(home, 0o700)
    # a symlink in place of the key (to a key someone else controls) is refused
    trust._keys.clear()
    planted = tmp_path / "their.key"
    planted.write_bytes(b"k" * trust.KEY_BYTES)
    os.chmod(planted, 0o600)
    kf.unlink()
    kf.symlink_to(planted)
    with pytest.raises(TrustError, match="symlink"):
        trust.grader_key()
    # with no usable key the cache is off (a warning) and a grade still comes out right
    cache_mod._warned.clear()
    vc = VerdictCache(tmp_path / "c.sqlite")
    assert vc.broken is not None
    assert not score_spec(load_task(EUCLID), FLAWED, cache=vc).passed_all
    kf.unlink()
    trust._keys.clear()
    assert trust.grader_key() != key  # a new key: what the old one sealed no longer checks


def _key_in_child(q: multiprocessing.Queue[bytes]) -> None:
    q.put(trust.grader_key())


def test_processes_making_the_key_at_once_agree(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    installation(tmp_path, monkeypatch)
    ctx = multiprocessing.get_context("fork")
    q: multiprocessing.Queue[bytes] = ctx.Queue()
    procs = [ctx.Process(target=_key_in_child, args=(q,)) for _ in range(6)]
    for p in procs:
        p.start()
    keys = {q.get(timeout=30) for _ in procs}
    for p in procs:
        p.join(timeout=30)
    assert len(keys) == 1 and keys == {trust.grader_key()}


def test_an_open_cache_folder_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Built artefacts (harnesses, JVM workers) live beside the verdict file and are run: a
    cache folder others may write into is refused, not used."""
    installation(tmp_path, monkeypatch)
    open_ = tmp_path / "open-cache"
    open_.mkdir()
    os.chmod(open_, 0o777)
    monkeypatch.setenv("ADEQUACY_CACHE", str(open_))
    (tmp_path / "gold.rs").write_text(GOLD)
    r = subprocess.run([sys.executable, "-m", "adequacy", "score", str(EUCLID),
                        str(tmp_path / "gold.rs")], capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and "writable by other users" in " ".join(r.stderr.split())
    assert "Traceback" not in r.stderr


def test_the_shell_reads_neither_the_key_nor_the_cache(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    from adequacy.errors import ShellError
    from adequacy.gym.shell import run_shell

    home = installation(tmp_path, monkeypatch)
    gym, _ = make_gym(tmp_path)
    folder = gym / "euclid_mod"
    trust.grader_key()
    VerdictCache(default_cache_dir() / "verdicts.sqlite").close()
    r = run_shell(folder, ["bash", "-c", f"cat {home}/grader-home/grader.key | wc -c; "
                                         f"ls {home}/cache; env"])
    assert "No such file" in r.stderr and r.stdout.split()[0] == "0"
    assert "ADEQUACY_GRADER_HOME" not in r.stdout and "ADEQUACY_CACHE" not in r.stdout
    for ro in (home, home / "grader-home", home / "cache", tmp_path):
        with pytest.raises(ShellError, match="grader|cache|gym folder|source task"):
            run_shell(folder, ["true"], extra_ro=[ro])
    assert leaks().hidden_cases(gym)  # the fixture holds hidden cases to look for
