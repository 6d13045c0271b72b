"""``adequacy task new`` makes the folder it names: a commented template task.toml when no
signature is given, or the whole task (task.toml, statement, bucket files, skeleton) from
``--input``/``--output``; a failure leaves nothing behind. On the toy language, the only one
installed here; tests/verus and tests/jml run the same on theirs."""

from __future__ import annotations

import tomllib
from pathlib import Path

from typer.testing import CliRunner

from adequacy.cli import app
from adequacy.taskdirs.load import load_task
from task_new_support import fill_cases

runner = CliRunner()
GOLD = "pre: a >= 0\npost: result == a + 1\n"


def cli(*args: str | Path) -> tuple[int, str]:
    r = runner.invoke(app, [str(a) for a in args])
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    return r.exit_code, r.stdout + r.stderr


def test_task_new_on_a_missing_folder_writes_a_template(tmp_path: Path, toy: None) -> None:
    task = tmp_path / "my_task"
    code, out = cli("task", "new", task)
    assert code == 0, out
    assert "fill in [signature.input]" in out
    head = tomllib.loads((task / "task.toml").read_text())
    assert head["id"] == "my_task" and head["language"] == "toy"
    assert head["signature"] == {"input": {}, "output": {}}  # the examples are comments
    assert "# a = \"seq<i64>\"" in (task / "task.toml").read_text()
    assert sorted(p.name for p in (task / "tests").iterdir()) == [
        "post_complete.jsonl", "post_sound.jsonl", "pre_complete.jsonl", "pre_sound.jsonl"]
    assert (task / "statement.md").read_text().startswith("# my task")
    # again, before the signature is filled in: says what to do, changes nothing
    code, out = cli("task", "new", task)
    assert code == 2 and "fill them in first" in out


def test_task_new_with_a_signature_writes_a_task_that_scores(tmp_path: Path, toy: None) -> None:
    task = tmp_path / "succ"
    code, out = cli("task", "new", task, "--input", "a=i64", "--output", "result=i64",
                    "--title", "successor")
    assert code == 0, out
    assert '{"id": "c1", "input": {"a": 0}, "output": {"result": 0}}' in out
    # the toy backend (a third-party plugin) writes no skeleton: the note says which file
    assert f"write {task / 'skeleton.toy'} by hand" in out
    (task / "skeleton.toy").write_text("pre: a >= 0\npost: result >= 0\n")
    t = load_task(task)
    assert [(p.name, str(p.type)) for p in t.inputs] == [("a", "i64")]
    assert [(p.name, str(p.type)) for p in t.outputs] == [("result", "i64")]
    assert t.title == "successor"
    code, out = cli("task", "validate", task)
    assert code == 2 and "no cases" in out  # what it still lacks, said
    fill_cases(task)
    code, out = cli("task", "validate", task)
    assert code == 0, out
    spec = tmp_path / "gold.toy"
    spec.write_text(GOLD)
    code, out = cli("score", task, spec, "--no-cache")
    assert code == 0 and "PASSED ALL" in out, out
    # a second `task new` with a signature does not overwrite the task
    code, out = cli("task", "new", task, "--input", "b=i64", "--output", "result=i64")
    assert code == 2 and "exists" in out and load_task(task).inputs[0].name == "a"


def test_task_new_refusals_leave_nothing_behind(tmp_path: Path, toy: None) -> None:
    for args, needle in ((["--input", "a=seq<"], "--input 'a=seq<'"),
                         (["--input", "a"], "expected NAME=TYPE"),
                         (["--input", "a=i64"], "--output"),
                         (["--input", "a=i64", "--input", "a=i64", "--output", "result=i64"],
                          "given twice"),
                         (["--lang", "cobol", "--input", "a=i64", "--output", "r=i64"],
                          "no installed backend")):
        task = tmp_path / "t"
        code, out = cli("task", "new", task, *args)
        assert code == 2 and needle in out, (args, out)
        assert len(out.strip().splitlines()) == 1 and "Traceback" not in out
        assert not task.exists(), args
