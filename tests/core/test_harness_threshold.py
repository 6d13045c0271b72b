"""One Harness@t threshold: ``score`` and ``report`` print the same t for the same records by
default, each says which t it used, and ``--harness-t`` moves both.

Truth by hand on the toy task: ``HALF`` (``post: result >= x + 1``) rejects the wrong output 0
for x = 0 and accepts 5 for x = 3, so PostComp = 1/2 and its other three metrics are 1:
Harness@0.75 and Harness@0.5 differ (False, True)."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from adequacy.cli import app

T = "0.75"  # the default docs/report.md names
HALF = "pre: x >= 0\npost: result >= x + 1\n"
runner = CliRunner()


def _invoke(*args: str | Path) -> str:
    r = runner.invoke(app, [str(a) for a in args])
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    return r.stdout


def test_score_and_report_share_one_threshold(tmp_path: Path, toy: None,
                                              toy_task: Path) -> None:
    (toy_task / "specs").mkdir()
    spec = toy_task / "specs" / "half.toy"
    spec.write_text(HALF)
    cache = ("--cache", str(tmp_path / "v.sqlite"))

    scored = _invoke("score", toy_task, spec, "--format", "plain", *cache)
    assert "PostComp 0.500" in scored
    ts = re.findall(r"\bHarness@([0-9.]+) (\w+)", scored)
    assert ts == [(T, "False")]

    results = tmp_path / "r.jsonl"
    _invoke("run", "--tasks", toy_task, "-o", results, "--no-progress", "--workers", "1",
            *cache)
    table = _invoke("report", results, "--format", "plain")
    assert set(re.findall(r"Harness@([0-9.]+)", table)) == {T}
    md = _invoke("report", results, "--format", "md")
    row = next(ln for ln in md.splitlines() if ln.startswith("| ") and "Harness@" in ln)
    cols = [c.strip() for c in row.strip("|").split("|")]
    value = next(ln for ln in md.splitlines()[md.splitlines().index(row) + 2:]
                 if ln.startswith("| "))
    cells = dict(zip(cols, (c.strip() for c in value.strip("|").split("|")), strict=True))
    assert cells[f"Harness@{T}"].startswith("0.0%")  # as score said: False

    # --harness-t moves both, and both say so
    scored = _invoke("score", toy_task, spec, "--format", "plain", "--harness-t", "0.5",
                     *cache)
    assert re.findall(r"\bHarness@([0-9.]+) (\w+)", scored) == [("0.5", "True")]
    md = _invoke("report", results, "--format", "md", "--harness-t", "0.5")
    assert "| Harness@0.5 |" in md and f"Harness@{T}" not in md
