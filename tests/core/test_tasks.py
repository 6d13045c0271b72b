"""Loading tasks: every malformed file gives an error naming file, line and field."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from adequacy.cli import app
from adequacy.errors import TaskError
from adequacy.model.verdicts import Bucket
from adequacy.taskdirs.load import check_task, load_task

TOY = Path(__file__).resolve().parents[1] / "fixtures" / "toy_task"


@pytest.fixture
def task(tmp_path: Path) -> Path:
    d = tmp_path / "toy_succ"
    shutil.copytree(TOY, d)
    return d


def errors_of(d: Path) -> list[str]:
    t, errs = check_task(d)
    assert t is None
    return [str(e) for e in errs]


def test_loads_good_task(task: Path) -> None:
    t = load_task(task)
    assert t.id == "toy_succ"
    assert [p.name for p in t.inputs] == ["x"]
    assert len(t.cases[Bucket.pre_complete]) == 4
    assert t.cases[Bucket.post_sound][1].output == {"result": 5}
    assert t.cases[Bucket.pre_sound][0].output is None


def test_bad_value_names_file_line_and_path(task: Path) -> None:
    with (task / "tests" / "post_sound.jsonl").open("a") as f:
        f.write('{"id": "bad", "input": {"x": 1}, "output": {"result": "x"}}\n')
    errs = errors_of(task)
    assert errs == ['toy_succ/tests/post_sound.jsonl:3: output.result: expected i64, got "x"']


def test_duplicate_ids(task: Path) -> None:
    with (task / "tests" / "pre_complete.jsonl").open("a") as f:
        f.write('{"id": "p1", "input": {"x": 5}}\n')
    [e] = errors_of(task)
    assert "pre_complete.jsonl:5: id: duplicate case id 'p1' (first on line 2)" in e


def test_output_in_pre_bucket_and_missing_in_post(task: Path) -> None:
    (task / "tests" / "pre_sound.jsonl").write_text(
        '{"id": "a", "input": {"x": -1}, "output": {"result": 0}}\n')
    (task / "tests" / "post_complete.jsonl").write_text('{"id": "b", "input": {"x": 1}}\n')
    errs = errors_of(task)
    assert any("pre_sound.jsonl:1: output: a pre_sound case must not have an output" in e
               for e in errs)
    assert any("post_complete.jsonl:1: output: a post_complete case needs an output" in e
               for e in errs)


def test_bad_json_and_unknown_argument(task: Path) -> None:
    (task / "tests" / "pre_complete.jsonl").write_text(
        '{"id": "a", "input": {"x": 1}\n{"id": "b", "input": {"y": 1}}\n')
    errs = errors_of(task)
    assert "pre_complete.jsonl:1: not valid JSON" in errs[0]
    assert "pre_complete.jsonl:2: input.y: unknown argument 'y'" in errs[1]


def test_i8_out_of_range(task: Path) -> None:
    text = (task / "task.toml").read_text().replace('x = "i64"', 'x = "i8"')
    (task / "task.toml").write_text(text)
    (task / "tests" / "pre_complete.jsonl").write_text('{"id": "a", "input": {"x": 300}}\n')
    [e] = errors_of(task)
    assert e.endswith("pre_complete.jsonl:1: input.x: i8 value 300 out of range [-128, 127]")


def test_bad_toml_and_bad_type(task: Path) -> None:
    (task / "task.toml").write_text('id = "t"\nlanguage = "toy"\n[signature.input]\nx = "seq<"\n'
                                    '[signature.output]\nresult = "i64"\n')
    errs = errors_of(task)
    assert errs[0] == "toy_succ/task.toml:4: signature.input.x: type 'seq<' ends too early"
    (task / "task.toml").write_text('id = "t"\nlanguage = \n')
    errs = errors_of(task)
    assert errs[0].startswith("toy_succ/task.toml:2: TOML syntax error")


def test_missing_skeleton_for_known_language(task: Path) -> None:
    text = (task / "task.toml").read_text().replace('"toy"', '"verus"')
    (task / "task.toml").write_text(text)
    assert any("missing skeleton.rs" in e for e in errors_of(task))


def test_load_task_raises_first_error(task: Path) -> None:
    (task / "task.toml").unlink()
    with pytest.raises(TaskError, match="missing task.toml"):
        load_task(task)


def test_cli_validate_exit_codes(task: Path, tmp_path: Path, toy: None) -> None:
    runner = CliRunner()
    ok = runner.invoke(app, ["task", "validate", str(task)])
    assert ok.exit_code == 0, ok.output
    assert "1 of 1 tasks valid" in ok.output
    bad = tmp_path / "bad"
    shutil.copytree(task, bad)
    (bad / "tests" / "pre_sound.jsonl").write_text('{"input": {"x": 1}}\n')
    res = runner.invoke(app, ["task", "validate", str(task), str(bad)])
    assert res.exit_code == 2
    assert "1 of 2 tasks valid" in res.output
    assert "pre_sound.jsonl:1: id: missing or non-string id" in res.output
