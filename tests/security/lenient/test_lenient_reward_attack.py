"""Lenient scoring as a reward: every door an optimizer or an agent could use.

The undecided spec (euclid_mod's gold with ``|| a / (b - b) == 7`` on both predicates: unknown
exactly on the invalid inputs and wrong outputs it would otherwise fail) scores 0.5 strict and
1.0 lenient under the GEPA mean. Doors: the metric object (default and ``strict=False``), a
report scored leniently elsewhere and fed to the metric, ``optimize`` and ``experiment run``
options, the gym's grader, and the figures a person reads (summary, leaderboard, spec table,
markdown, compare) for a file that mixes strict and lenient records.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from gym_support import EUCLID, GOLD, make_gym
from typer.testing import CliRunner

from adequacy.cli import app
from adequacy.records.html import (
    build_study,
    leaderboard_rows,
    read_records,
    render_markdown,
    summary_rows,
)
from adequacy.records.log import append_record, producer
from adequacy.scoring.runner import score_spec
from adequacy.taskdirs.load import load_task

UNDECIDED = (GOLD.replace("    input.b != 0\n",
                          "    input.b != 0 || input.a / (input.b - input.b) == 7\n")
             .replace("    output.result == input.a % input.b\n",
                      "    output.result == input.a % input.b || "
                      "input.a / (input.b - input.b) == 7\n"))
runner = CliRunner()


def test_no_metric_door_takes_a_lenient_score() -> None:
    pytest.importorskip("dspy", reason="needs the optimize extra")
    from adequacy.errors import LenientReward
    from adequacy_optimizers.metrics import SpecMetric
    from adequacy_optimizers.objectives import adequacy_score

    task = load_task(EUCLID)
    lenient = score_spec(task, UNDECIDED, strict=False)
    strict = score_spec(task, UNDECIDED)
    assert lenient.metrics is not None and strict.metrics is not None
    assert adequacy_score(strict) == pytest.approx(0.5)
    for opt in ("mean", "all4", "post"):
        with pytest.raises(LenientReward):
            adequacy_score(lenient, opt)  # type: ignore[arg-type]
    for kind in ("adequacy", "verified_adequacy", "vr"):
        with pytest.raises(LenientReward):
            SpecMetric([task], kind=kind, strict=False)  # type: ignore[arg-type]
    assert adequacy_score(lenient, allow_lenient=True) == 1.0


def test_no_command_takes_lenient_scoring_as_a_target(tmp_path: Path) -> None:
    r = runner.invoke(app, ["optimize", str(EUCLID), "-o", str(tmp_path / "o"), "--lm", "x/y",
                            "--lenient"])
    assert r.exit_code == 2 and not (tmp_path / "o").exists()
    for extra in ("", "allow_lenient = false\n"):
        study = tmp_path / "s.toml"
        study.write_text(extra + f'name = "s"\ntasks = ["{EUCLID}"]\n[[specs]]\nname = "g"\n'
                         'glob = "specs/gold.*"\n[scoring]\nstrict = false\n')
        r = runner.invoke(app, ["experiment", "run", str(study), "--no-progress"])
        assert r.exit_code == 2 and "allow_lenient" in " ".join(r.stderr.split())


def test_the_gym_grades_strictly(tmp_path: Path) -> None:
    from adequacy.gym import submit

    gym, _ = make_gym(tmp_path)  # this installation's cache: exec_spec's harness is built once
    rec = submit(gym / "euclid_mod", UNDECIDED)
    assert rec.strict and not rec.passed_all
    assert rec.metrics is not None and rec.metrics.pre_comp == 0.0


def test_every_figure_labels_lenient_records(tmp_path: Path) -> None:
    task = tmp_path / "euclid_mod"
    shutil.copytree(EUCLID, task)
    mixed = tmp_path / "mixed.jsonl"
    t = load_task(task)
    for strict in (True, False):
        rep = score_spec(t, UNDECIDED, "specs/undecided.rs", strict=strict)
        append_record(mixed, rep, producer("run"))
    study = build_study(read_records([mixed]), [str(mixed)])
    assert summary_rows(study)[0]["records"] == "2 of 2 (verified; 1 of 2 LENIENT)"
    assert leaderboard_rows(study)[0]["records"] == "2 of 2 (verified; 1 of 2 LENIENT)"
    assert sorted(r.strict for r in study.rows) == [False, True]
    md = render_markdown(study)
    assert "LENIENT:" in md and "| LENIENT |" in md
    strict_only = tmp_path / "strict.jsonl"
    append_record(strict_only, score_spec(t, UNDECIDED, "specs/undecided.rs"), producer("run"))
    r = runner.invoke(app, ["compare", str(strict_only), str(mixed), "--json"])
    data = json.loads(r.stdout)
    assert data["lenient_a"] == 0 and data["lenient_b"] == 1
    assert "LENIENT: 1 of 2 specs of mixed" in r.stderr
