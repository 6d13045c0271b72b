"""One ``ScoreOptions``: taken by ``score_spec``, ``job_key`` and batch options, recorded in
every report, and the command-line options of ``score`` and ``run`` generated from it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
from pydantic import ValidationError
from typer.testing import CliRunner

from adequacy.batch.pool import BatchOptions
from adequacy.cli import app
from adequacy.cli.model_options import group_value, with_groups
from adequacy.cli.options import SCORE
from adequacy.extensions.backend import Limits
from adequacy.records.log import read_results
from adequacy.scoring.keys import job_key
from adequacy.scoring.options import ScoreOptions
from adequacy.scoring.runner import score_spec
from adequacy.taskdirs.load import load_task

GOLD = "pre: x >= 0\npost: result == x + 1\n"


def test_every_option_is_part_of_the_job_key(toy: None, toy_task: Path) -> None:
    """A resumed batch must recompute when any option changed: each field moves the key, and
    equal options give equal keys."""
    task = load_task(toy_task)
    base = ScoreOptions()
    k = job_key(task, GOLD, base)
    assert job_key(task, GOLD, ScoreOptions()) == k
    changed = [base.with_(engines=["exact"]), base.with_(cross_check=True),
               base.with_(strict=False), base.with_(backend="toy"),
               base.with_(limits=Limits(case_seconds=2.5)),
               base.with_(limits=Limits(memory_mb=512))]
    keys = {job_key(task, GOLD, o) for o in changed}
    assert len(keys) == len(changed) and k not in keys


def test_score_spec_keywords_are_validated_fields(toy: None, toy_task: Path) -> None:
    task = load_task(toy_task)
    with pytest.raises(ValidationError):
        score_spec(task, GOLD, engine=["exact"])  # a typo must not be ignored
    with pytest.raises(ValidationError):
        score_spec(task, GOLD, limits={"case_seconds": 1.0, "memroy_mb": 64})
    by_kw = score_spec(task, GOLD, strict=False, limits=Limits(case_seconds=1.5))
    by_opts = score_spec(task, GOLD, None, ScoreOptions(strict=False,
                                                        limits=Limits(case_seconds=1.5)))
    assert by_kw.key == by_opts.key
    assert by_kw.strict is False and by_kw.options is not None
    assert by_kw.options.limits.case_seconds == 1.5 and by_kw.options.cases == "all"


def test_batch_options_embed_score_options() -> None:
    nested = BatchOptions(score=ScoreOptions(engines=["exact"], strict=False))
    assert nested.score.engines == ["exact"] and nested.score.strict is False
    with pytest.raises(ValidationError):  # one spelling: the options are the score field
        BatchOptions(engines=["exact"])
    with pytest.raises(ValidationError):
        BatchOptions(score={"strict": "sometimes"})


def test_option_group_builds_score_options() -> None:
    seen: list[ScoreOptions] = []
    probe = typer.Typer()

    @probe.command(cls=with_groups(SCORE))
    def cmd(ctx: typer.Context) -> None:
        seen.append(group_value(ctx, SCORE))

    r = CliRunner().invoke(probe, ["--lenient", "-e", "a", "-e", "b", "--cross-check",
                                   "--case-timeout", "2.5", "--memory-mb", "64",
                                   "--timeout-streak", "0", "--backend", "toy"])
    assert r.exit_code == 0, r.output
    assert seen == [ScoreOptions(backend="toy", engines=["a", "b"], cross_check=True,
                                 strict=False, limits=Limits(case_seconds=2.5, memory_mb=64,
                                                             timeout_streak=0))]
    r = CliRunner().invoke(probe, ["--memory-mb", "8"])
    assert r.exit_code == 2 and "--memory-mb must be >= 16" in r.output
    # every option also reads its environment variable; the flag wins
    r = CliRunner().invoke(probe, ["--steps", "7"], env={"ADEQUACY_STEPS": "5",
                                                        "ADEQUACY_STRICT": "false"})
    assert r.exit_code == 0, r.output
    assert seen[-1].limits.steps == 7 and seen[-1].strict is False


def test_every_field_of_the_model_is_an_option() -> None:
    """A field added to ``ScoreOptions`` or ``Limits`` reaches the command line by itself,
    with the model's default and its docstring as help."""
    r = CliRunner().invoke(app, ["score", "--help"], env={"COLUMNS": "200"})
    fields = [f for f in ScoreOptions.model_fields if f != "limits"] + list(Limits.model_fields)
    assert len(fields) >= 9
    for f in fields:
        env = "ADEQUACY_" + f.upper()
        assert env in r.stdout, f
    assert "--steps" in r.stdout and "2000000" in r.stdout
    # the help is each field's docstring (read from the source only when help is printed)
    text = " ".join(r.stdout.split())
    assert "Engines asked for by name, chained in order" in text
    assert "Wall-clock limit for one case; exceeding it makes that case unknown." in text
    assert "Do not read or write the verdict cache." in text


def test_field_docs_read_each_field_and_its_bases() -> None:
    from pydantic import BaseModel

    from adequacy.cli.model_options import field_docs

    class Base(BaseModel):
        a: int = 1
        """First paragraph of a.

        The rest, for readers of the code."""
        b: int = 2

    class Child(Base):
        b: int = 3
        """b, as the child says it."""
        c: str = "x"
        "c's one line"

    docs = field_docs(Child)
    assert docs == {"a": "First paragraph of a.\n\nThe rest, for readers of the code.",
                    "b": "b, as the child says it.", "c": "c's one line"}
    assert docs == {**field_docs(Base), **docs} and "b" not in field_docs(Base)


def test_score_and_run_share_the_group(toy: None, toy_task: Path, tmp_path: Path) -> None:
    """The same flags give ``score`` and ``run`` the same options: the same job key and the
    same recorded options."""
    flags = ["--lenient", "--case-timeout", "2.5", "--timeout-streak", "1", "--no-cache"]
    spec = toy_task / "specs" / "gold.toy"
    spec.parent.mkdir(exist_ok=True)
    spec.write_text(GOLD)
    runner = CliRunner()
    r = runner.invoke(app, ["score", str(toy_task), str(spec), "--json", *flags])
    assert r.exit_code == 0, r.output
    scored = json.loads(r.stdout)
    results = tmp_path / "r.jsonl"
    r = runner.invoke(app, ["run", "--tasks", str(toy_task), "--spec-glob", "specs/*.toy",
                            "-o", str(results), "--no-progress", "--workers", "1", *flags])
    assert r.exit_code == 0, r.output
    [rec] = read_results(results)
    assert rec.record.report.key == scored["key"]
    assert rec.record.report.options.model_dump(mode="json") == scored["options"]
    assert scored["strict"] is False and scored["options"]["limits"]["case_seconds"] == 2.5
    for command in ("score", "run"):
        help_text = runner.invoke(app, [command, "--help"], env={"COLUMNS": "200"}).stdout
        for flag in ("--backend", "--engine", "--cross-check", "--strict", "--lenient",
                     "--case-timeout", "--spec-timeout", "--memory-mb", "--steps",
                     "--timeout-streak", "--no-cache", "--cache"):
            assert flag in help_text, (command, flag)
