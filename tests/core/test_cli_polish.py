"""Small CLI behaviours, each through the real CLI (real engines, real datasets where the
item is about them): every test failed before its fix."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from adequacy.cli import app
from adequacy.examples import bundled_folder
from adequacy.records.log import read_results

ROOT = Path(__file__).resolve().parents[2]
EUCLID = bundled_folder("verus") / "euclid_mod"
ABS = bundled_folder("jml") / "abs_value"
runner = CliRunner()


def cli(*args: str | Path) -> tuple[int, str, str]:
    r = runner.invoke(app, [str(a) for a in args])
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    return r.exit_code, r.stdout, r.stderr


def one_error_line(code: int, out: str, err: str) -> str:
    assert code == 2, (code, out, err)
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:"), err
    return lines[0]


# 1. task new writes a JML task's Solution.java through the backend


@pytest.mark.slow
def test_task_new_writes_jml_solution_that_scores(tmp_path: Path) -> None:
    task = tmp_path / "abs_value"
    shutil.copytree(ABS, task)
    (task / "Solution.java").unlink()
    code, out, err = cli("task", "new", task)
    assert code == 0, err
    text = (task / "Solution.java").read_text()
    assert "public static int solve(int x)" in text
    # the gold spec's annotations on the new declaration pass every case, as on the original
    jml = [ln for ln in (ABS / "specs" / "gold.java").read_text().splitlines()
           if ln.strip().startswith("//@")]
    lines = text.splitlines()
    at = next(i for i, ln in enumerate(lines) if "solve(" in ln)
    spec = tmp_path / "gold.java"
    spec.write_text("\n".join(lines[:at] + jml + lines[at:]) + "\n")
    code, out, err = cli("score", task, spec, "--no-cache")
    assert code == 0 and "PASSED ALL" in out, out + err


def test_task_new_jml_refuses_a_type_java_cannot_hold(tmp_path: Path) -> None:
    task = tmp_path / "abs_value"
    shutil.copytree(ABS, task)
    (task / "Solution.java").unlink()
    toml = task / "task.toml"
    toml.write_text(toml.read_text().replace('x = "i32"', 'x = "nat"'))
    line = one_error_line(*cli("task", "new", task))
    assert "task.toml" in line and "signature.input.x" in line and "java_params" in line
    assert not (task / "Solution.java").exists()


# 2. nonsensical numbers refused with one line naming the option


@pytest.mark.parametrize("args", [
    ("score", "T", "S", "--case-timeout", "-1"),
    ("score", "T", "S", "--spec-timeout", "0"),
    ("score", "T", "S", "--timeout-streak", "-1"),
    ("score", "T", "S", "--harness-t", "2"),
    ("score", "T", "S", "--case-timeout", "nan"),
    ("run", "--tasks", "T", "--workers", "0"),
    ("run", "--tasks", "T", "--case-timeout", "-1"),
    ("run", "--tasks", "T", "--timeout-streak", "-2"),
    ("verify", "T", "S", "--spec-timeout", "-5"),
    ("mutate", "T", "--per-case", "0"),
    ("check", "T", "--case-timeout", "0"),
    ("agent", "T", "--lm", "x", "--steps", "0"),
    ("agent", "T", "--lm", "x", "--rollouts", "0"),
    ("compare", "R", "--resamples", "0"),
])
def test_nonsensical_numbers_refused(args: tuple[str, ...], tmp_path: Path) -> None:
    line = one_error_line(*cli(*args))
    assert f"{args[-2]} must be" in line and args[-1] in line


# 3. a dataset file is imported only under its own name


@pytest.mark.parametrize(("asked", "file", "right"), [
    ("specgenbench", "formalbench/fb.jsonl", "formalbench"),
    ("formalbench", "specgenbench/sgb.jsonl", "specgenbench"),
])
def test_import_names_the_right_importer(asked: str, file: str, right: str,
                                         tmp_path: Path, datasets_dir: Path) -> None:
    src = datasets_dir / file
    if not src.is_file():
        pytest.skip(f"{src} not present")
    line = one_error_line(*cli("import", asked, src, tmp_path / "out", "--no-mutate"))
    assert str(src) in line and f"adequacy import {right}" in line
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


# 4. a task with no cases is not "ok"


def test_validate_refuses_a_task_without_cases(tmp_path: Path) -> None:
    task = tmp_path / "euclid_mod"
    shutil.copytree(EUCLID, task)
    for f in (task / "tests").glob("*.jsonl"):
        f.write_text("")
    code, out, err = cli("task", "validate", task)
    assert code == 2 and "ok " not in out
    assert f"{task}: no cases" in err and "0 of 1 tasks valid" in out


def test_validate_warns_about_an_empty_bucket(tmp_path: Path) -> None:
    task = tmp_path / "euclid_mod"
    shutil.copytree(EUCLID, task)
    (task / "tests" / "post_sound.jsonl").write_text("")
    code, out, err = cli("task", "validate", task)
    assert code == 0 and "1 of 1 tasks valid" in out
    assert "warning:" in err and "no post_sound cases" in err


def test_validate_refuses_a_task_no_backend_serves(tmp_path: Path) -> None:
    """The loader accepts a task of any language name (its files are then None), but nothing
    could score it: validate must not say ok where every score would fail."""
    task = tmp_path / "euclid_mod"
    shutil.copytree(EUCLID, task)
    toml = task / "task.toml"
    lines = toml.read_text().splitlines()
    at = next(i for i, s in enumerate(lines) if s.startswith("language"))
    lines[at] = 'language = "cobol"'
    toml.write_text("\n".join(lines) + "\n")
    code, out, err = cli("task", "validate", task)
    assert code == 2 and "ok " not in out and "0 of 1 tasks valid" in out
    assert f"{toml}:{at + 1}: language: no installed backend scores 'cobol'" in err


# 5. check says it cannot show a soundness failure


def test_check_says_visible_cases_are_completeness_only(tmp_path: Path) -> None:
    code, out, err = cli("gym", "make", EUCLID, tmp_path / "gym")
    assert code == 0, err
    folder = next(d for d in (tmp_path / "gym").iterdir() if d.is_dir())
    code, out, err = cli("check", folder, "--spec", EUCLID / "specs" / "gold.rs")
    assert code == 0, out + err
    assert "completeness cases only" in out and "never shows a soundness failure" in out


# 6. VERINA statements speak of Verus, not Lean


def test_verina_statement_rewritten_for_verus(tmp_path: Path, datasets_dir: Path) -> None:
    src = datasets_dir / "verina"
    if not src.is_dir():
        pytest.skip(f"{src} not present")
    lean = sorted(d.name for d in src.iterdir()
                  if (d / "description.txt").is_file()
                  and "Lean 4" in (d / "description.txt").read_text())[:4]
    assert lean
    sub = tmp_path / "verina"
    sub.mkdir()
    for name in lean:
        shutil.copytree(src / name, sub / name)
    code, out, err = cli("import", "verina", sub, tmp_path / "out", "--no-mutate")
    assert code == 0, out + err
    statements = list((tmp_path / "out").glob("*/statement.md"))
    assert statements
    for s in statements:
        text = s.read_text()
        assert "Lean" not in text and "Verus function" in text, text


# 7. an unpriced model's rollouts cost 0, not null


def test_agent_rollout_cost_is_zero_for_unpriced_model(tmp_path: Path) -> None:
    pytest.importorskip("dspy")
    from dspy.utils.dummies import DummyLM

    from adequacy_optimizers.agent import AgentOptions, run_agent

    gold = (ABS / "specs" / "gold.java").read_text()
    lm = DummyLM([
        {"next_thought": "submit", "next_tool_name": "submit", "next_tool_args": {"spec": gold}},
        {"next_thought": "done", "next_tool_name": "finish", "next_tool_args": {}},
        {"reasoning": "submitted", "spec": gold},
    ])
    out = tmp_path / "rollouts.jsonl"
    run_agent([ABS], out, AgentOptions(lm="scripted", steps=4), workdir=tmp_path / "w", lm=lm)
    [logged, *_] = read_results(out)
    extra = logged.record.extra
    assert extra["cost"] == 0.0 and logged.record.report.passed_all
    assert extra["trajectory"] and all(s["cost"] == 0.0 for s in extra["trajectory"])


# 9. one expansion of "task folder or folder of tasks" everywhere


@pytest.mark.parametrize("args", [
    ("task", "validate", "{p}"),
    ("run", "--tasks", "{p}"),
    ("gym", "make", "{p}", "{o}"),
    ("synthesize", "{p}", "-o", "{o}"),
])
def test_every_command_refuses_a_folder_without_tasks(args: tuple[str, ...],
                                                      tmp_path: Path) -> None:
    empty = tmp_path / "no_tasks"
    (empty / "sub").mkdir(parents=True)
    line = one_error_line(*cli(*(a.format(p=empty, o=tmp_path / "o") for a in args)))
    assert f"{empty}: not a task folder or a folder of tasks: no task.toml" in line


@pytest.mark.parametrize("args", [
    ("task", "validate", "{p}"),
    ("run", "--tasks", "{p}"),
    ("gym", "make", "{p}", "{o}"),
    ("synthesize", "{p}", "-o", "{o}"),
])
def test_every_command_refuses_a_missing_path(args: tuple[str, ...], tmp_path: Path) -> None:
    gone = tmp_path / "gone"
    line = one_error_line(*cli(*(a.format(p=gone, o=tmp_path / "o") for a in args)))
    assert f"{gone}: not a task folder or a folder of tasks: it does not exist" in line


def test_discover_tasks_expands_one_level_and_drops_repeats(tmp_path: Path) -> None:
    from adequacy.taskdirs.discovery import discover_tasks
    for name in ("b", "a"):
        shutil.copytree(EUCLID, tmp_path / "set" / name)
    (tmp_path / "set" / "notes").mkdir()
    got = discover_tasks([tmp_path / "set", tmp_path / "set" / "a"])
    assert got == [tmp_path / "set" / "a", tmp_path / "set" / "b"]


# 10. run --tasks without --spec-glob scores spec files only


def test_run_default_glob_skips_expected_toml(tmp_path: Path) -> None:
    task = tmp_path / "tasks" / "euclid_mod"
    shutil.copytree(EUCLID, task)
    assert (task / "specs" / "expected.toml").is_file()
    for s in (task / "specs").glob("*.rs"):
        if s.name != "gold.rs":
            s.unlink()
    results = tmp_path / "r.jsonl"
    code, out, err = cli("run", "--tasks", tmp_path / "tasks", "-o", results, "--workers", "1",
                         "--no-cache", "--no-progress")
    assert code == 0, out + err
    specs = [Path(r.record.report.spec_path).name for r in read_results(results)]
    assert specs == ["gold.rs"]


@pytest.mark.parametrize(("edit", "needle"), [
    (('x = "i32"', 'class = "i32"'), "signature.input.class"),
    (('method = "solve"', 'method = "solve"\njava_return = "int solve(){return 0;} int"'),
     "jml.java_return"),
    (('method = "solve"', 'method = "solve"\njava_params = ["long"]'), "jml.java_params"),
])
def test_task_new_jml_writes_only_what_the_schema_says(edit: tuple[str, str], needle: str,
                                                       tmp_path: Path) -> None:
    task = tmp_path / "abs_value"
    shutil.copytree(ABS, task)
    (task / "Solution.java").unlink()
    toml = task / "task.toml"
    toml.write_text(toml.read_text().replace(*edit))
    line = one_error_line(*cli("task", "new", task))
    assert needle in line and not (task / "Solution.java").exists()
