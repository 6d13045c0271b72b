"""Intervals, spec text and the leaderboard of a report, against hand-worked truth."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from adequacy.model.verdicts import Bucket, Truth, Verdict
from adequacy.records.html import build_study, read_records, render_html
from adequacy.records.html._intervals import bootstrap
from adequacy.records.html._render import leaderboard_rows, summary_rows
from adequacy.scoring.keys import spec_hash
from adequacy.scoring.spec_report import SpecReport

from .conftest import full, spec_report, write


def test_bootstrap_by_hand() -> None:
    # one task: nothing to resample, no interval (not a zero-width one)
    assert bootstrap({"t1": {"m": (1.0, 1.0)}}) == {"m": None}
    # every task the same value: every resample is that value
    same = bootstrap({f"t{i}": {"m": (0.5, 1.0)} for i in range(5)})["m"]
    assert same is not None and (same.low, same.high, same.tasks) == (0.5, 0.5, 5)
    # two tasks, 1 and 0: resampled means 0, 1/2, 1 with chances 1/4, 1/2, 1/4
    two = bootstrap({"a": {"m": (1.0, 1.0)}, "b": {"m": (0.0, 1.0)}})["m"]
    assert two is not None and (two.low, two.high) == (0.0, 1.0)
    # a ratio of sums: a task with no measured spec (den 0) does not count as a task
    r = bootstrap({"a": {"m": (3.0, 4.0)}, "b": {"m": (1.0, 4.0)}, "c": {"m": (0.0, 0.0)}})["m"]
    assert r is not None and r.tasks == 2 and 0.25 <= r.low <= 0.5 <= r.high <= 0.75
    # seeded: the same records give the same interval
    many = {f"t{i}": {"m": (float(i % 3 == 0), 1.0)} for i in range(30)}
    assert bootstrap(many, seed=1) == bootstrap(many, seed=1)


def test_every_headline_figure_has_an_interval_around_it(tmp_path: Path) -> None:
    reps = []
    for t in range(6):  # task t: 3 samples, t % 4 of them... at most 3 passing
        for s in range(3):
            reps.append(spec_report(f"t{t}", f"s{s}.rs", full(s < t % 4), key=f"{t}/{s}"))
    (a,) = build_study(read_records([write(tmp_path / "r.jsonl", reps, samples=True)]),
                       ["r"]).approaches
    # per task pass@1: 0, 1/3, 2/3, 1, 0, 1/3 -> mean 7/18
    assert a.summary.pass_at_1 == pytest.approx(7 / 18)
    figures = {"Pass@1": a.summary.pass_at_1, "pass@3": a.summary.pass_at_k[3],
               "pass^3": a.summary.pass_hat_k[3], "Harness@0.75": a.harness_at["0.75"],
               "PostHarness@0.75": a.post_harness_at["0.75"],
               **{b.value: a.summary.bucket_means[b.value] for b in Bucket}}
    for name, value in figures.items():
        iv = a.intervals[name]
        assert iv is not None, name
        assert iv.low <= value + 1e-9 and value - 1e-9 <= iv.high, (name, value, iv)
    assert a.intervals["VR"] is None  # not measured
    # pre_complete passes everywhere: its interval is the point
    pc = a.intervals["pre_complete"]
    assert pc is not None and (pc.low, pc.high) == (1.0, 1.0)
    row = summary_rows(build_study(read_records([tmp_path / "r.jsonl"]), ["r"]))[0]
    assert row["Pass@1"].startswith("38.9% ±") and row["PreCorr"] == "100.0% ±0.0"
    assert row["pass@k"].endswith("(k=3, 6 tasks x 3 samples)")


def _record(path: Path, rep: SpecReport, producer: dict[str, object],
            extra: dict[str, object] | None = None) -> None:
    obj = {"schema": 2, "created": None,
           "producer": {"adequacy": "0.1.0", "command": "run", **producer},
           "report": json.loads(rep.model_dump_json()), "extra": extra or {}}
    with path.open("a") as f:
        f.write(json.dumps(obj) + "\n")


def test_leaderboard_groups_by_recorded_provenance(tmp_path: Path) -> None:
    # one results file, two models of one writer (as `synthesize` then `run` records them)
    p = tmp_path / "run.jsonl"
    for t in ("t1", "t2"):
        _record(p, spec_report(t, "a.rs", full(True), key=f"{t}a"),
                {"writer": "dspy", "family": "zs", "model": "m-good"}, {"cost": 0.25})
        _record(p, spec_report(t, "b.rs", full(t == "t1"), key=f"{t}b"),
                {"writer": "dspy", "family": "zs", "model": "m-bad"})
    study = build_study(read_records([p]), [str(p)])
    rows = leaderboard_rows(study)
    assert [(r["#"], r["approach"], r["model"], r["writer"], r["family"]) for r in rows] == [
        ("1", "dspy-zs / m-good", "m-good", "dspy", "zs"),
        ("2", "dspy-zs / m-bad", "m-bad", "dspy", "zs")]
    assert rows[0]["Pass@1"] == "100.0% ±0.0" and rows[1]["Pass@1"] == "50.0% ±50.0"
    assert rows[0]["cost"] == "$0.5000" and rows[1]["cost"] == "n/a"
    assert "leaderboard-table" in render_html(study)


def _scored_file(tmp_path: Path, text: str, reason: str) -> tuple[Path, SpecReport]:
    spec = tmp_path / "task" / "specs" / "s.rs"
    spec.parent.mkdir(parents=True)
    spec.write_text(text)
    v = [Verdict(case_id="c1", bucket=Bucket.post_complete, value=Truth.false, engine="e",
                 reason=reason)]
    rep = SpecReport(key="k", task_id="t", task_path=str(tmp_path / "task"),
                     spec_path=str(spec), spec_sha=spec_hash(text), language="x",
                     status="scored", verdicts=v).finish()
    return spec, rep


def test_spec_page_shows_the_text_and_marks_the_named_line(tmp_path: Path) -> None:
    text = "fn f() {}\nensures <b>x</b>;\nfn g() {}\n"
    _, rep = _scored_file(tmp_path, text, "ensures (line 2) is false")
    html = render_html(build_study(read_records([write(tmp_path / "r.jsonl", [rep])]), ["r"]))
    page = html[html.index('id="spec-0"'):]
    page = page[:page.index("</section>")]
    assert '<span class="hll">' in page  # line 2 marked...
    marked = page[page.index('<span class="hll">'):]
    assert marked[:marked.index("</span>\n")].count("linenos") == 1
    assert ">2</span>" in marked[:200]  # ...and it is line 2
    assert "line 2: <span" in page and "ensures (line 2) is false" in page
    assert "<b>x</b>" not in page and "&lt;" in page  # the text is escaped


def test_a_record_cannot_embed_a_file_it_did_not_score(tmp_path: Path) -> None:
    spec, rep = _scored_file(tmp_path, "the scored text\n", "line 1")
    secret = tmp_path / "secret.txt"
    secret.write_text("SECRET-KEY-MATERIAL\n")
    crafted = rep.model_copy(update={"spec_path": str(secret)})  # sha of the scored text
    changed = rep.model_copy(update={"key": "k2"})
    spec.write_text("edited since\n")  # the file changed after scoring
    link = tmp_path / "link.rs"
    link.symlink_to(secret)
    via_link = rep.model_copy(update={"spec_path": str(link), "key": "k3",
                                      "spec_sha": "0" * 64})
    dev = rep.model_copy(update={"spec_path": "/dev/zero", "key": "k4"})
    recs = read_records([write(tmp_path / "r.jsonl", [crafted, changed, via_link, dev])])
    html = render_html(build_study(recs, ["r"]))
    assert "SECRET-KEY-MATERIAL" not in html and "edited since" not in html
    assert html.count("Spec text not shown") == 4


def test_pass_at_k_leaves_out_tasks_with_fewer_samples_and_says_so(tmp_path: Path) -> None:
    # t0..t2: 2 samples each (one passes); t3: 1 sample that passes. k=2 is reached by 3 of
    # 4 tasks, so pass@1 and pass@2 are both over t0..t2: pass@1 = 1/2, pass@2 = 1, pass^2 = 0
    reps = [spec_report(f"t{t}", f"s{s}.rs", full(s == 0), key=f"{t}/{s}")
            for t in range(3) for s in range(2)]
    reps.append(spec_report("t3", "s0.rs", full(True), key="t3/0"))
    study = build_study(read_records([write(tmp_path / "r.jsonl", reps, samples=True)]), ["r"])
    (a,) = study.approaches
    assert a.summary.pass_at_k == {1: pytest.approx(0.5), 2: pytest.approx(1.0)}
    assert a.summary.pass_hat_k[2] == pytest.approx(0.0)
    assert (a.summary.k_tasks, a.summary.k_excluded) == (3, 1)
    assert a.summary.pass_at_1 == pytest.approx((0.5 * 3 + 1) / 4)  # Pass@1: every task
    assert summary_rows(study)[0]["pass@k"] == ("100.0% ±0.0 (k=2, 3 tasks x 2 samples, "
                                                "1 task left out)")
