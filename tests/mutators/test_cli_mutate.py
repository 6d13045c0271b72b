"""`adequacy mutate` prints the report and writes the buckets (thin wrapper over mutate_task)."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from adequacy.cli import app

from .test_mutate_task import REFERENCE, lines, make_task


def test_mutate_command(tmp_path: Path) -> None:
    d = make_task(tmp_path, files={"reference.py": REFERENCE})
    runner = CliRunner()
    dry = runner.invoke(app, ["mutate", str(d), "--per-case", "2", "--seed", "5", "--dry-run"])
    assert dry.exit_code == 0, dry.output
    assert "nothing written" in dry.output and not lines(d, "post_sound")
    res = runner.invoke(app, ["mutate", str(d), "--per-case", "2", "--seed", "5"])
    assert res.exit_code == 0, res.output
    assert "post_sound +6" in res.output and "operator" in res.output
    assert len(lines(d, "post_sound")) == 6 and lines(d, "pre_sound")


def test_mutate_command_reports_task_errors(tmp_path: Path) -> None:
    res = CliRunner().invoke(app, ["mutate", str(tmp_path / "missing")])
    assert res.exit_code == 2
