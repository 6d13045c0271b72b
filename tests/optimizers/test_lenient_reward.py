"""Lenient scoring is never an optimization target unless asked for in so many words.

Hand-worked truth (euclid_mod, ``a / (b - b)`` is undefined, so interp says unknown): the spec
below is the gold spec with ``|| input.a / (input.b - input.b) == 7`` appended to both
predicates. Valid inputs and right outputs short-circuit to true (pre_complete 3/3,
post_complete 5/5); invalid inputs (b == 0) and wrong outputs reach the division: unknown.
Strict: the two sound buckets score 0, mean 0.5. Lenient: they have no decided case and drop
out, mean 1.0: the spec bought its score by being undecided exactly where it would fail.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from adequacy.cli import app
from adequacy.records.html import build_study, read_records, render_html, summary_rows
from adequacy.scoring.runner import score_spec

from .conftest import EXAMPLES, example, gold

UNDECIDED = (gold("verus", "euclid_mod")
             .replace("    input.b != 0\n",
                      "    input.b != 0 || input.a / (input.b - input.b) == 7\n")
             .replace("    output.result == input.a % input.b\n",
                      "    output.result == input.a % input.b || "
                      "input.a / (input.b - input.b) == 7\n"))
runner = CliRunner()


def test_the_gepa_metric_refuses_lenient_scoring() -> None:
    pytest.importorskip("dspy", reason="needs the optimize extra")
    import dspy

    from adequacy.errors import LenientReward
    from adequacy_optimizers.metrics import SpecMetric
    from adequacy_optimizers.objectives import adequacy_score

    assert gold("verus", "euclid_mod") != UNDECIDED
    task = example("verus", "euclid_mod")
    with pytest.raises(LenientReward, match="undecidable"):
        SpecMetric([task], strict=False)
    pred = dspy.Prediction(spec_text=UNDECIDED)
    ex = dspy.Example(task_id=task.id)
    assert SpecMetric([task])(ex, pred).score == pytest.approx(0.5)
    # asked for in so many words, it runs, and shows why it is refused by default
    assert SpecMetric([task], strict=False, allow_lenient=True)(ex, pred).score == 1.0
    lenient = score_spec(task, UNDECIDED, strict=False)
    with pytest.raises(LenientReward):
        adequacy_score(lenient)


def test_a_study_refuses_lenient_scoring_unless_allowed(tmp_path: Path) -> None:
    body = (f'name = "s"\ntasks = ["{EXAMPLES / "verus" / "euclid_mod"}"]\n\n'
            '[[specs]]\nname = "gold"\nglob = "specs/gold.*"\n\n[scoring]\nstrict = false\n')
    study = tmp_path / "study.toml"
    study.write_text(body)
    r = runner.invoke(app, ["experiment", "run", str(study), "--no-progress"])
    assert r.exit_code == 2
    assert "study.toml:9" in r.stderr and "allow_lenient" in " ".join(r.stderr.split())
    assert not (tmp_path / "results.jsonl").exists()
    study.write_text("allow_lenient = true\n" + body)
    r = runner.invoke(app, ["experiment", "run", str(study), "--no-progress", "--no-cache"])
    assert r.exit_code == 0, r.output
    # the records say so wherever they are shown
    recs = read_records([tmp_path / "results.jsonl"])
    assert recs and not recs[0].report.strict
    study_ = build_study(recs, ["results.jsonl"])
    assert summary_rows(study_)[0]["records"].endswith("LENIENT)")
    assert "LENIENT:" in render_html(study_)
    r = runner.invoke(app, ["report", str(tmp_path / "results.jsonl"), "--format", "plain"])
    assert r.exit_code == 0 and "LENIENT" in r.stdout and "LENIENT" in r.stderr
