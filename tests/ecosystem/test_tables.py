"""Results as a table: `adequacy report --format csv` and `adequacy.results_frame` give one row
per spec with every bucket's counts, the metrics, the outcome, the producer and the extras."""

from __future__ import annotations

import csv
import io
import subprocess
import sys
from pathlib import Path

import pytest

import adequacy
from adequacy.ecosystem.tables import COLUMNS, spec_rows, to_csv
from adequacy.records.log import append_record, producer
from adequacy.scoring.spec_report import Provenance

from .conftest import EXAMPLES

BSF = EXAMPLES[0] / "binary_search_first"


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> Path:
    log = tmp_path_factory.mktemp("tables") / "results.jsonl"
    task = adequacy.load_task(BSF)
    for spec, prov, extra in (
            ("gold.rs", Provenance(writer="claude-code", model="anthropic/x"),
             {"cost": 0.5, "harbor": {"attempt": 1, "trial": "t1", "rewards": {"reward": 1.0}},
              "trajectory": [{"step": 1}]}),
            ("flawed_post_too_weak.rs", Provenance(writer="claude-code", model="anthropic/x"),
             {"cost": 0.25, "harbor": {"attempt": 2, "trial": "t2"}}),
            ("flawed_pre_too_strong.rs", None, {})):
        rep = adequacy.score(task, BSF / "specs" / spec, engines=["interp"], cache=None)
        append_record(log, rep, producer("harbor" if prov else "run", prov), extra)
    bad = adequacy.score(task, text="spec fn pre_spec(", engines=["interp"], cache=None)
    append_record(log, bad, producer("run"))
    return log


def test_one_row_per_spec_with_counts_metrics_and_provenance(results: Path) -> None:
    rows = spec_rows([results])
    assert len(rows) == 4
    gold, weak, strong, bad = rows
    assert gold["outcome"] == "passed" and gold["passed_all"] is True
    assert weak["outcome"] == "failed on soundness"
    assert (weak["post_sound_failed"], weak["post_sound_total"]) == (2, 20)
    assert weak["post_sound_fraction"] == pytest.approx(0.9) == weak["post_comp"]
    assert strong["outcome"] == "failed on completeness" and strong["pre_complete_failed"] > 0
    assert bad["status"] == "invalid" and bad["invalid"] and bad["post_corr"] is None
    assert (gold["writer"], gold["model"], gold["command"]) == ("claude-code", "anthropic/x",
                                                                "harbor")
    assert gold["approach"] == "claude-code / anthropic/x" and bad["approach"] == "results"
    assert gold["extra.harbor.attempt"] == 1 and gold["extra.harbor.rewards.reward"] == 1.0
    assert gold["extra.cost"] == 0.5 and "extra.trajectory" not in gold
    assert gold["created"] and gold["adequacy_version"] == adequacy.__version__
    from adequacy.records.log import read_results

    assert [r["sealed"] for r in rows] == [lr.sealed for lr in read_results(results)]


def test_csv_and_frame_agree(results: Path, tmp_path: Path) -> None:
    r = subprocess.run([sys.executable, "-m", "adequacy", "report", str(results), "--format",
                        "csv", "-o", str(tmp_path / "r.csv")], capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr
    text = (tmp_path / "r.csv").read_bytes().decode("utf-8")
    assert text == to_csv(spec_rows([results]))
    parsed = list(csv.DictReader(io.StringIO(text)))
    header = next(csv.reader(io.StringIO(text)))
    assert header[:len(COLUMNS)] == list(COLUMNS)
    assert len(parsed) == 4 and parsed[1]["post_sound_failed"] == "2"
    assert parsed[3]["post_corr"] == ""  # an invalid spec has no metric: an empty cell
    pd = pytest.importorskip("pandas")
    frame = adequacy.results_frame(results)
    assert isinstance(frame, pd.DataFrame) and list(frame.columns) == header
    assert frame["post_sound_failed"].tolist()[:3] == [0, 2, 0]
