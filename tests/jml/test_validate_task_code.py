"""``task validate`` runs the checks ``score`` runs on the task's own code: before,
a Solution.java whose JML does not read made ``score`` exit 2 while ``validate`` said ok."""

from __future__ import annotations

import shutil
from pathlib import Path

from typer.testing import CliRunner

from adequacy.cli import app
from adequacy.examples import bundled_folder

ABS = bundled_folder("jml") / "abs_value"


def _cli(*args: str | Path) -> tuple[int, str, str]:
    r = CliRunner().invoke(app, [str(a) for a in args])
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    return r.exit_code, r.stdout, r.stderr


def _task(tmp_path: Path, code: str | None = None, method: str | None = None) -> Path:
    task = tmp_path / "abs_value"
    shutil.copytree(ABS, task)
    sol = task / "Solution.java"
    if code is not None:
        sol.write_text(code)
    if method is not None:
        toml = task / "task.toml"
        toml.write_text(toml.read_text().replace('method = "solve"', f'method = "{method}"'))
    return task


def _gold(task: Path) -> Path:
    return sorted((task / "specs").glob("*.java"))[0]


def test_validate_and_score_agree_on_jml_the_task_code_cannot_read(tmp_path: Path) -> None:
    code = (ABS / "Solution.java").read_text().replace(
        "    public static int solve", "    /*@ requires x > 0; {| ensures \\result > 0;\n"
        "      @*/\n    public static int solve")
    task = _task(tmp_path, code)
    vcode, out, err = _cli("task", "validate", task)
    assert vcode == 2 and "ok " not in out and "0 of 1 tasks valid" in out
    assert "Solution.java:3" in err and "not closed" in err
    scode, _o, serr = _cli("score", task, _gold(task), "--no-cache")
    assert scode == 2 and "not closed" in serr


def test_validate_refuses_a_method_the_code_lacks(tmp_path: Path) -> None:
    task = _task(tmp_path, method="solve(long)")
    code, out, err = _cli("task", "validate", task)
    assert code == 2 and "no method solve(long)" in err and "(it has solve(int))" in err


def test_validate_accepts_the_signature_of_the_method(tmp_path: Path) -> None:
    task = _task(tmp_path, method="solve(int)")
    code, out, err = _cli("task", "validate", task)
    assert code == 0 and "1 of 1 tasks valid" in out, err
