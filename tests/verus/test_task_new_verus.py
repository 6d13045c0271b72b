"""``adequacy task new NAME --lang verus --input a=i64 --output result=i64`` writes a task its
user fills in: cases into the bucket files, the two holes of the skeleton into a spec; the
faithful spec then passes every case (truth by hand: tests/task_new_support.py)."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from adequacy.cli import app
from task_new_support import fill_cases


def cli(*args: str | Path) -> tuple[int, str]:
    r = CliRunner().invoke(app, [str(a) for a in args])
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    return r.exit_code, r.stdout + r.stderr


def test_task_new_verus_makes_a_task_to_fill_in(tmp_path: Path) -> None:
    task = tmp_path / "succ"
    code, out = cli("task", "new", task, "--lang", "verus", "--input", "a=i64", "--output",
                    "result=i64")
    assert code == 0, out
    skeleton = (task / "skeleton.rs").read_text()
    assert "pub a: i64," in skeleton and "pub result: i64," in skeleton
    fill_cases(task)
    code, out = cli("task", "validate", task)
    assert code == 0, out
    gold = (skeleton.replace("spec fn pre_spec(input: Input) -> bool {\n    true",
                             "spec fn pre_spec(input: Input) -> bool {\n    input.a >= 0")
            .replace("spec fn post_spec(input: Input, output: Output) -> bool {\n    true",
                     "spec fn post_spec(input: Input, output: Output) -> bool {\n"
                     "    output.result == input.a + 1"))
    assert gold.count("input.a") == 2
    spec = tmp_path / "gold.rs"
    spec.write_text(gold)
    code, out = cli("score", task, spec, "--no-cache", "--engine", "interp")
    assert code == 0 and "PASSED ALL" in out, out
    spec.write_text(skeleton)  # the holes left as written: accepts everything
    code, out = cli("score", task, spec, "--no-cache", "--engine", "interp")
    assert code == 1 and "FAILED" in out, out
