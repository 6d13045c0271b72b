"""Every command that prints a table reads whole with ``--format plain`` in a pipe (COLUMNS=80
as a CI runner sets it): one line per row, never sliced, no cell cut or wrapped."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from rich.table import Table

from adequacy.console.tables import key_columns, plain_table
from adequacy.examples import bundled_folder

REPO = Path(__file__).resolve().parents[2]
VERUS = bundled_folder("verus")


def adequacy(*args: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "80", "TERM": "dumb"}
    return subprocess.run([sys.executable, "-m", "adequacy", *map(str, args)],
                          capture_output=True, text=True, cwd=cwd, timeout=600, env=env)


def _uncut(text: str) -> None:
    """No cell cut by the layout (rich's cut ends in "…"; a case's input preview may end in
    "...", as ``--json`` has the whole case)."""
    assert "…" not in text, text


def _table_lines_fit(text: str, keys: int = 2) -> None:
    """In a pipe every plain table is whole and unsliced: one header per table, however wide
    (slices would repeat the header's key columns); callers check that each row is one line."""
    lines = text.splitlines()
    at = [i for i, ln in enumerate(lines) if re.fullmatch(r"-+( +-+)*", ln)]
    assert at, text
    heads = [lines[i - 1] for i in at]
    keyed = [" ".join(h.split()[:keys]) for h in heads]
    assert len(set(keyed)) == len(keyed), f"a table was sliced: {heads}"
    # a row wrapped onto a second line would start with blanks under a key column
    for i in at:
        below = lines[i + 1] if i + 1 < len(lines) else ""
        assert not below.startswith(" " * (len(lines[i].split()[0]) + 2)), below


def test_a_wide_table_is_sliced_not_cut() -> None:
    t = Table(title="wide")
    for name in ("task", "spec", "a", "b", "c", "d"):
        t.add_column(name, justify="left" if name in ("task", "spec") else "right")
    t.add_row("binary_search_first", "flawed_pre_too_strong.rs", "-0.123456789",
              "[+0.0123456, +0.9876543]", "12345678901234567890", "0.5")
    t.add_row("t2", "gold.rs", "1", "2", "3", "4")
    text = plain_table(key_columns(t, 2), 80)
    for cell in ("binary_search_first", "flawed_pre_too_strong.rs", "-0.123456789",
                 "[+0.0123456, +0.9876543]", "12345678901234567890"):
        assert cell in text
    assert all(len(line) <= 80 for line in text.splitlines())
    # several slices, each naming every row by both key columns
    slices = len(re.findall(r"^task +spec", text, re.M))
    assert slices >= 2
    assert text.count("binary_search_first  flawed_pre_too_strong.rs") == slices
    assert text.count("t2                   gold.rs") == slices
    # a cell wider than the screen is printed whole
    w = Table()
    w.add_column("k")
    w.add_column("v")
    w.add_row("x", "9" * 120)
    assert "9" * 120 in plain_table(w, 80)
    # markup in a string cell is styling; text that is not valid markup stays as it is
    m = Table()
    m.add_column("k")
    m.add_row("[green]yes[/]")
    m.add_row("closed [/x] without opening")
    assert plain_table(m).splitlines()[2:] == ["yes", "closed [/x] without opening"]


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    d = tmp_path_factory.mktemp("plain")
    a = d / "a.jsonl"
    proc = adequacy("run", "--tasks", VERUS, "--engine", "interp", "-o", a, "--no-progress",
                    "--no-cache", "--format", "plain")
    assert proc.returncode == 0, proc.stderr
    b = d / "b.jsonl"
    b.write_text("\n".join(ln for ln in a.read_text().splitlines() if '"passed_all":true' in ln)
                 + "\n")
    return a, b


def test_run_table_is_whole(results: tuple[Path, Path], tmp_path: Path) -> None:
    a, _ = results
    proc = adequacy("run", "--tasks", VERUS, "--engine", "interp", "-o", a, "--no-progress",
                    "--no-cache", "--format", "plain")  # every pair done: the table again
    assert proc.returncode == 0, proc.stderr
    _uncut(proc.stdout)
    _table_lines_fit(proc.stdout)
    for spec in VERUS.glob("*/specs/*.rs"):
        pair = re.compile(rf"\b{spec.parent.parent.name}\s+{re.escape(spec.name)}\b")
        assert len(pair.findall(proc.stdout)) == 1, spec  # one row per pair
    assert "cells: passed/total cases of the bucket; (n?): n of them undecided" in proc.stdout
    # --format csv: the same rows, one per pair, for a spreadsheet
    import csv
    import io

    csvp = adequacy("run", "--tasks", VERUS, "--engine", "interp", "-o", a, "--no-progress",
                    "--no-cache", "--format", "csv")
    assert csvp.returncode == 0, csvp.stderr
    rows = list(csv.reader(io.StringIO(csvp.stdout)))
    assert rows[0][:3] == ["task", "spec", "status"]
    assert len(rows) - 1 == len(list(VERUS.glob("*/specs/*.rs")))
    assert "pairs:" in csvp.stderr and "pairs:" not in csvp.stdout


def test_compare_prints_every_interval_whole(results: tuple[Path, Path]) -> None:
    a, b = results
    js = json.loads(adequacy("compare", a, b, "--format", "json", "--resamples", "300").stdout)
    proc = adequacy("compare", a, b, "--format", "plain", "--resamples", "300")
    assert proc.returncode == 0, proc.stderr
    _uncut(proc.stdout)
    _table_lines_fit(proc.stdout)
    for d in js["deltas"]:
        assert d["measure"] in proc.stdout
        if d["ci_low"] is not None:
            assert f"[{d['ci_low']:+.3f}, {d['ci_high']:+.3f}]" in proc.stdout


def test_report_tables_are_whole(results: tuple[Path, Path]) -> None:
    a, b = results
    js = json.loads(adequacy("report", a, b, "--format", "json").stdout)
    proc = adequacy("report", a, b, "--format", "plain")
    assert proc.returncode == 0, proc.stderr
    _uncut(proc.stdout)
    _table_lines_fit(proc.stdout)
    for ap in js["approaches"]:
        assert f"{ap['summary']['pass_at_1'] * 100:.1f}%" in proc.stdout
        iv = ap["intervals"]["post_sound"]
        assert f"±{(iv['high'] - iv['low']) / 2 * 100:.1f}" in proc.stdout


def test_score_header_and_cases_are_whole() -> None:
    spec = VERUS / "binary_search_first" / "specs" / "flawed_post_too_weak.rs"
    js = json.loads(adequacy("score", spec.parent.parent, spec, "--engine", "interp",
                             "--no-cache", "--format", "json").stdout)
    proc = adequacy("score", spec.parent.parent, spec, "--engine", "interp", "--no-cache",
                    "--format", "plain")
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout.splitlines()[0] == f"binary_search_first  <-  {spec}"  # one line
    _uncut(proc.stdout)
    _table_lines_fit(proc.stdout)
    failed = [v["case_id"] for v in js["verdicts"] if v["value"] != "false"
              and v["bucket"] == "post_sound"]
    assert failed and all(re.search(rf"\b{re.escape(c)}\b", proc.stdout) for c in failed)


@pytest.mark.parametrize(("args", "keys"), [
    (["backends"], 4),  # backend, language, engine, kind
    (["mutate", VERUS / "is_palindrome", "--dry-run"], 1)])
def test_other_tables_are_whole(args: list[str | Path], keys: int) -> None:
    proc = adequacy(*args, "--format", "plain")
    assert proc.returncode == 0, proc.stderr
    _uncut(proc.stdout)
    _table_lines_fit(proc.stdout, keys)
    js = adequacy(*args, "--format", "json")
    assert js.returncode == 0 and json.loads(js.stdout)


def test_run_ends_with_a_summary_of_what_did_not_score(tmp_path: Path) -> None:
    task = tmp_path / "tasks" / "is_palindrome"
    shutil.copytree(VERUS / "is_palindrome", task)
    (task / "specs" / "broken.rs").write_text("garbage {{{ not rust")
    jobs = tmp_path / "jobs.jsonl"
    jobs.write_text(json.dumps({"task": str(tmp_path / "gone"),
                                "spec": str(task / "specs" / "gold.rs")}) + "\n"
                    + json.dumps({"task": str(task), "spec": str(task / "specs" / "broken.rs")})
                    + "\n" + json.dumps({"task": str(task),
                                         "spec": str(task / "specs" / "gold.rs")}) + "\n")
    proc = adequacy("run", jobs, "-o", tmp_path / "r.jsonl", "--no-progress", "--no-cache",
                    "--quiet")
    assert proc.returncode == 2
    err = proc.stderr.splitlines()
    assert "short summary" in err[0]
    assert err[1].startswith(f"ERROR   {tmp_path / 'gone'} {task / 'specs' / 'gold.rs'} - ")
    assert "not a task folder" in err[1]
    assert err[2].startswith(f"INVALID is_palindrome {task / 'specs' / 'broken.rs'} - ")
    assert "broken.rs:1:" in err[2]
    assert err[3].startswith("error: 1 of 3 pairs ended as errors")
    assert len(err) == 4  # the scored gold spec is not listed
    assert "INVALID" not in proc.stdout and "ERROR" not in proc.stdout
