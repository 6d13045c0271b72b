"""``adequacy task new NAME --lang jml --input a=i64 --output result=i64`` writes a task its
user fills in: cases into the bucket files, annotations onto the declared method; the faithful
spec then passes every case under rac (truth by hand: tests/task_new_support.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from adequacy.cli import app
from task_new_support import fill_cases


def cli(*args: str | Path) -> tuple[int, str]:
    r = CliRunner().invoke(app, [str(a) for a in args])
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    return r.exit_code, r.stdout + r.stderr


def test_task_new_jml_declares_the_method(tmp_path: Path) -> None:
    task = tmp_path / "succ"
    code, out = cli("task", "new", task, "--lang", "jml", "--input", "a=i64", "--output",
                    "result=i64")
    assert code == 0, out
    assert "public static long solve(long a)" in (task / "Solution.java").read_text()
    fill_cases(task)
    code, out = cli("task", "validate", task)
    assert code == 0, out


@pytest.mark.slow
@pytest.mark.requires("javac")
def test_task_new_jml_task_scores_a_filled_in_spec(tmp_path: Path) -> None:
    task = tmp_path / "succ"
    code, out = cli("task", "new", task, "--lang", "jml", "--input", "a=i64", "--output",
                    "result=i64")
    assert code == 0, out
    fill_cases(task)
    text = (task / "Solution.java").read_text()
    gold = text.replace("    public static long solve(long a) {",
                        "    //@ requires a >= 0;\n    //@ ensures \\result == a + 1;\n"
                        "    public static long solve(long a) {")
    assert gold != text
    spec = tmp_path / "gold.java"
    spec.write_text(gold)
    code, out = cli("score", task, spec, "--no-cache", "--engine", "rac")
    assert code == 0 and "PASSED ALL" in out, out
