"""Commands that used to leave a user at a dead end say what would help instead.

Truths by hand on the toy task (tests/core/test_batch_provenance.py has its cases): the gold
spec passes every case it has; with ``pre_sound`` emptied nothing can pass (the bucket is
untested), and what fills it depends on what the task has: no reference, validator or
constraints (``cases generate`` can do nothing there), or a validator (``mutate`` labels
invalid inputs with it)."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from adequacy.cli import app

GOLD = "pre: x >= 0\npost: result == x + 1\n"
runner = CliRunner()


def cli(*args: str | Path) -> tuple[int, str, str]:
    r = runner.invoke(app, [str(a) for a in args])
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    return r.exit_code, " ".join(r.stdout.split()), " ".join(r.stderr.split())


def test_score_advice_names_what_the_task_lacks(tmp_path: Path, toy: None,
                                               toy_task: Path) -> None:
    (toy_task / "tests" / "pre_sound.jsonl").write_text("")
    spec = tmp_path / "gold.toy"
    spec.write_text(GOLD)
    code, out, _ = cli("score", toy_task, spec, "--no-cache", "--format", "plain")
    assert code == 1 and "NOT PASSED untested: pre_sound (no cases)" in out
    assert "cases generate" not in out  # it needs a reference this task does not have
    assert f"write some into {toy_task}/tests/pre_sound.jsonl" in out
    assert "every_input_valid = true" in out
    (toy_task / "reference").mkdir()
    (toy_task / "reference" / "validator.py").write_text(
        "def valid(inp):\n    return inp['x'] >= 0\n")
    code, out, _ = cli("score", toy_task, spec, "--no-cache", "--format", "plain")
    assert code == 1 and f"`adequacy mutate {toy_task}` adds invalid inputs" in out
    code, out, _ = cli("mutate", toy_task, "--per-case", "1", "--seed", "0")  # and it does
    assert code == 0 and "pre_sound +" in out and "pre_sound +0" not in out, out
    code, out, _ = cli("score", toy_task, spec, "--no-cache", "--format", "plain")
    assert code == 0 and "PASSED ALL" in out


def test_task_audit_says_how_many_tasks_had_gold_specs(tmp_path: Path, toy: None,
                                                      toy_task: Path) -> None:
    golds = tmp_path / "golds"
    golds.mkdir()
    code, out, err = cli("task", "audit", toy_task, "--gold", golds)
    assert code == 0
    assert f"gold specs found for 0 of 1 task(s); 0 from {golds}" in out
    assert f"warning: --gold {golds}: no file named <task id>.<ext>" in err
    assert "(e.g. toy_succ.toy)" in err
    (golds / "toy_succ.toy").write_text(GOLD)
    code, out, err = cli("task", "audit", toy_task, "--gold", golds)
    assert code == 0 and f"gold specs found for 1 of 1 task(s); 1 from {golds}" in out
    assert "warning" not in err


def test_run_takes_several_task_folders(tmp_path: Path, toy: None, toy_task: Path) -> None:
    import shutil

    other = tmp_path / "other" / "toy_two"
    shutil.copytree(toy_task, other)
    toml = other / "task.toml"
    toml.write_text(toml.read_text().replace('id = "toy_succ"', 'id = "toy_two"'))
    for t in (toy_task, other):
        (t / "specs").mkdir()
        (t / "specs" / "gold.toy").write_text(GOLD)
    results = tmp_path / "r.jsonl"
    code, out, err = cli("run", "--tasks", toy_task, other, "-o", results, "--no-progress",
                         "--workers", "1")
    assert code == 0, err  # before: `other` was read as a jobs file ("is a folder")
    assert "2 pairs: 2 scored now" in out and "passed 2" in out
    code, out, err = cli("run", toy_task, other, "-o", results, "--no-progress")
    assert code == 0 and "2 pairs: 0 scored now, 2 already in" in out, err
    jobs = tmp_path / "jobs.jsonl"
    jobs.write_text("")
    code, out, err = cli("run", "--tasks", toy_task, jobs, "-o", results)
    assert code == 2 and "either one jobs file or task folders" in err
