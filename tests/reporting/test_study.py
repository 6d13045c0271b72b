"""Report figures against arithmetic done by hand on hand-built records."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from adequacy.model.verdicts import Bucket
from adequacy.records.html import (
    ResultsError,
    SpecOutcome,
    build_study,
    outcome,
    read_records,
    render_markdown,
)

from .conftest import ALL, full, spec_report, write


def test_latest_record_of_a_job_wins(tmp_path: Path) -> None:
    stale = spec_report("t1", "a.rs", full(False), key="k1")
    fresh = spec_report("t1", "a.rs", full(True), key="k1")
    other = spec_report("t2", "b.rs", full(False), key="k2")
    path = write(tmp_path / "r.jsonl", [stale, other, fresh])
    with path.open("a") as f:
        f.write('{"torn": ')  # a killed writer's last line (no newline) is skipped
    recs = read_records([path])
    assert [(r.report.key, r.report.passed_all) for r in recs] == [("k2", False), ("k1", True)]


def test_pass_at_k_and_bucket_means_by_hand(tmp_path: Path) -> None:
    # t1: 2 specs, 1 passes -> pass@1 = 1/2, pass@2 = 1, pass^2 = 0
    # t2: 1 spec, fails     -> pass@1 = 0 (not eligible for k=2)
    reps = [spec_report("t1", "a.rs", full(True)), spec_report("t1", "b.rs", full(False)),
            spec_report("t2", "c.rs", full(False))]
    study = build_study(read_records([write(tmp_path / "r.jsonl", reps, samples=True)]),
                        ["r.jsonl"])
    (a,) = study.approaches
    assert a.summary.pass_at_1 == pytest.approx(0.25)
    assert a.summary.pass_at_k[2] == pytest.approx(1.0)
    assert a.summary.pass_hat_k[2] == pytest.approx(0.0)
    # post_sound: passing spec 2/2, failing ones 2/3 each -> (1 + 2/3 + 2/3) / 3
    assert a.summary.bucket_means["post_sound"] == pytest.approx((1 + 4 / 3) / 3)
    assert a.summary.bucket_means["pre_complete"] == pytest.approx(1.0)
    # Harness@0.75: every metric of every spec is >= 2/3; only the passing one reaches 1
    assert a.harness_at["0.5"] == pytest.approx(1.0)
    assert a.harness_at["1"] == pytest.approx(1 / 3)
    assert a.outcomes == {"passed": 1, "failed on completeness": 0, "failed on soundness": 2,
                          "invalid": 0, "writer failed": 0, "unknown-dominated": 0,
                          "error": 0}


def test_writer_failed_counts_as_not_passed_and_not_invalid(tmp_path: Path) -> None:
    # t1: one spec passes, the writer failed to write the other -> pass@1 = 1/2; invalid 0
    reps = [spec_report("t1", "a.rs", full(True), key="a"),
            spec_report("t1", "b.txt", {}, status="writer failed", key="b")]
    (a,) = build_study(read_records([write(tmp_path / "r.jsonl", reps)]), ["r.jsonl"]).approaches
    assert a.summary.pass_at_1 == pytest.approx(0.5)
    assert a.summary.invalid == 0
    assert a.outcomes["writer failed"] == 1 and a.outcomes["invalid"] == 0


def test_outcome_categories() -> None:
    assert outcome(spec_report("t", "s", full(True))) is SpecOutcome.passed
    too_strong = {b: (2, 1 if b is Bucket.pre_complete else 0, 0) for b in ALL}
    assert outcome(spec_report("t", "s", too_strong)) is SpecOutcome.failed_completeness
    both = {b: (2, 1, 0) for b in ALL}  # rejects valid cases and accepts wrong ones
    assert outcome(spec_report("t", "s", both)) is SpecOutcome.failed_completeness
    only_unknown = {b: (2, 0, 1 if b is Bucket.post_sound else 0) for b in ALL}
    assert outcome(spec_report("t", "s", only_unknown)) is SpecOutcome.unknown_dominated
    assert outcome(spec_report("t", "s", {}, status="invalid")) is SpecOutcome.invalid
    assert outcome(spec_report("t", "s", {}, status="error")) is SpecOutcome.error
    assert outcome(spec_report("t", "s", {}, status="writer failed")) is SpecOutcome.writer_failed


def test_approaches_from_writer_and_model_fields(tmp_path: Path) -> None:
    a = write(tmp_path / "a.jsonl", [spec_report("t1", "x", full(True), key="a")],
              {"writer": "templates"})
    b = write(tmp_path / "b.jsonl", [spec_report("t1", "y", full(False), key="b")],
              {"writer": "dspy", "family": "zs", "model": "openai/m", "verified": True})
    recs = read_records([a, b])
    assert [r.approach for r in recs] == ["templates", "dspy-zs / openai/m"]
    assert [r.approach for r in read_records([a, b], "file")] == ["a", "b"]
    study = build_study(recs, ["a", "b"])
    vr = {ap.name: (ap.vr, ap.vr_measured) for ap in study.approaches}
    assert vr == {"templates": (None, 0), "dspy-zs / openai/m": (1.0, 1)}
    from adequacy.records.html import leaderboard_rows
    assert [r["VR"] for r in leaderboard_rows(study)] == ["n/a", "100.0% of 1"]


def test_markdown_carries_the_figures(tmp_path: Path) -> None:
    reps = [spec_report("t1", "a.rs", full(True)), spec_report("t2", "b.rs", full(False))]
    md = render_markdown(build_study(read_records([write(tmp_path / "run.jsonl", reps)]),
                                     ["run.jsonl"]))
    # two tasks passing 1 and 0: a resample of both draws a mean of 0, 1/2 or 1 (1/4, 1/2,
    # 1/4), so the 2.5th and 97.5th percentiles are 0 and 1: ±50 points
    assert "| run | 2 (2) | 50.0% ±50.0 |" in md
    assert "| t2 | run | b.rs | failed on soundness | 2/2 | 2/2 | 2/2 | 2/3 |" in md


def test_a_file_without_records_is_an_error(tmp_path: Path) -> None:
    p = tmp_path / "notes.jsonl"
    p.write_text("\n\n")
    with pytest.raises(ResultsError, match="no result records"):
        read_records([p])
    # a line that is not a record is named, not skipped (it used to vanish from the report)
    p.write_text("hello\n" + json.dumps({"a": 1}) + "\n")
    with pytest.raises(ResultsError, match=r"notes.jsonl:1: not a result record"):
        read_records([p])
    p.write_text(json.dumps({"a": 1}) + "\n")
    with pytest.raises(ResultsError, match=r"notes.jsonl:1: not a result record \(no report"):
        read_records([p])
    with pytest.raises(ResultsError, match="cannot read"):
        read_records([tmp_path / "missing.jsonl"])
