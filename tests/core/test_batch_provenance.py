"""Jobs files carry who wrote each spec into the results log, and resume reads older logs.

Truths by hand on the toy task (pre_complete x in 0..2, pre_sound x in {-1, -4}, post_complete
result = x + 1, post_sound results 0 for 0 and 5 for 3): ``pre: x >= 0`` with
``post: result == x + 1`` passes every case; with ``post: result >= 0`` instead it accepts
both wrong outputs, so post_sound is 0/2.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from adequacy.batch.pool import BatchOptions, jobs_from_file, run_batch
from adequacy.errors import ResultsError, TaskError
from adequacy.examples import bundled_folder
from adequacy.model.verdicts import Bucket
from adequacy.records.html import read_records
from adequacy.scoring.options import ScoreOptions

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
REPO = FIXTURES.parents[1]
GOLD = "pre: x >= 0\npost: result == x + 1\n"
WEAK = "pre: x >= 0\npost: result >= 0\n"


def _task(tmp_path: Path, specs: dict[str, str]) -> Path:
    task = tmp_path / "toy_succ"
    shutil.copytree(FIXTURES / "toy_task", task)
    (task / "specs").mkdir()
    for name, text in specs.items():
        (task / "specs" / name).write_text(text)
    return task


def _jobs(tmp_path: Path, lines: list[dict[str, object]]) -> Path:
    jf = tmp_path / "jobs.jsonl"
    jf.write_text("".join(json.dumps(j) + "\n" for j in lines))
    return jf


def test_report_by_model_separates_two_models_after_run(tmp_path: Path, toy: None) -> None:
    # model-b wrote the very text model-a wrote, and a weak one: three records, two models
    _task(tmp_path, {"a-0.toy": GOLD, "b-0.toy": GOLD, "b-1.toy": WEAK})
    prov = {"writer": "dspy", "family": "zs", "program": None}
    jf = _jobs(tmp_path, [
        {"task": "toy_succ", "spec": "toy_succ/specs/a-0.toy",
         "provenance": {**prov, "model": "model-a"}},
        {"task": "toy_succ", "spec": "toy_succ/specs/b-0.toy",
         "provenance": {**prov, "model": "model-b"}},
        {"task": "toy_succ", "spec": "toy_succ/specs/b-1.toy",
         "provenance": {**prov, "model": "model-b"}}])
    results = tmp_path / "r.jsonl"
    s = run_batch(jobs_from_file(jf), results, BatchOptions(), workers=1, progress=False)
    assert (s.computed, s.passed_all, s.failed) == (3, 2, 1)
    recs = read_records([results], group_by="model")
    by: dict[str, list[bool]] = {}
    for r in recs:
        by.setdefault(r.approach, []).append(r.report.passed_all)
        assert r.producer.command == "run" and r.producer.writer == "dspy"
    assert {k: sorted(v) for k, v in by.items()} == {"model-a": [True], "model-b": [False, True]}
    weak = next(r for r in recs if r.report.spec_path and r.report.spec_path.endswith("b-1.toy"))
    assert weak.report.buckets[Bucket.post_sound].passed == 0
    assert [r.approach for r in read_records([results], group_by="family")] == ["zs"] * 3
    # a rerun finds all three done: provenance is part of the key, not a new job each time
    again = run_batch(jobs_from_file(jf), results, BatchOptions(), workers=1, progress=False)
    assert (again.skipped_done, again.computed) == (3, 0)


def test_spec_text_of_a_jobs_file_is_scored(tmp_path: Path, toy: None) -> None:
    _task(tmp_path, {})
    jf = _jobs(tmp_path, [{"task": "toy_succ", "spec": "toy_succ/specs/nowhere.toy",
                           "spec_text": GOLD}])
    s = run_batch(jobs_from_file(jf), tmp_path / "r.jsonl", BatchOptions(), workers=1,
                  progress=False)
    assert (s.scored, s.passed_all, s.errors) == (1, 1, 0)


def test_oversized_spec_text_is_refused_with_the_line(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ADEQUACY_MAX_SPEC_BYTES", "10")
    jf = _jobs(tmp_path, [{"task": "t", "spec": "s"},
                          {"task": "t", "spec": "s", "spec_text": GOLD}])
    with pytest.raises(TaskError, match=r"jobs.jsonl:2: spec_text is larger than 10 bytes"):
        jobs_from_file(jf)


def _as_schema_1(line: str) -> str:
    """The record as the release before 7bfd061 wrote it: a bare report, options.strict."""
    obj = json.loads(line)
    rep = obj.get("report", obj)
    rep["options"]["strict"] = rep["strict"]
    return json.dumps(rep) + "\n"


def test_resume_reads_a_log_of_the_release_before(tmp_path: Path, toy: None) -> None:
    """Read without complaint; but a record of an older release carries no seal, so nothing
    tells it from a typed one: its pair is scored again (once) rather than taken for done."""
    _task(tmp_path, {"s.toy": GOLD})
    jf = _jobs(tmp_path, [{"task": "toy_succ", "spec": "toy_succ/specs/s.toy"}])
    results = tmp_path / "r.jsonl"
    run_batch(jobs_from_file(jf), results, BatchOptions(), workers=1, progress=False)
    results.write_text(_as_schema_1(results.read_text().splitlines()[0]))
    s = run_batch(jobs_from_file(jf), results, BatchOptions(), workers=1, progress=False)
    assert (s.skipped_done, s.computed, s.passed_all) == (0, 1, 1)
    s = run_batch(jobs_from_file(jf), results, BatchOptions(), workers=1, progress=False)
    assert (s.skipped_done, s.computed, s.passed_all) == (1, 0, 1)


def test_run_refuses_to_append_to_a_log_of_a_newer_schema(tmp_path: Path, toy: None) -> None:
    _task(tmp_path, {"s.toy": GOLD})
    jf = _jobs(tmp_path, [{"task": "toy_succ", "spec": "toy_succ/specs/s.toy"}])
    results = tmp_path / "r.jsonl"
    results.write_text(json.dumps({"schema": 99}) + "\n")
    with pytest.raises(ResultsError, match=r"r.jsonl:1: written with results schema 99"):
        run_batch(jobs_from_file(jf), results, BatchOptions(), workers=1, progress=False)
    assert results.read_text().count("\n") == 1


def test_synthesize_then_run_reports_by_writer(tmp_path: Path) -> None:
    from adequacy_optimizers.synthesize import synthesize
    from adequacy_optimizers.templates import TemplateWriter

    out = tmp_path / "syn"
    synthesize([bundled_folder("verus") / "binary_search_first"], out, TemplateWriter())
    results = tmp_path / "results.jsonl"
    run_batch(jobs_from_file(out / "jobs.jsonl"), results, BatchOptions(score=ScoreOptions(engines=["interp"])),
              workers=1, progress=False)
    (rec,) = read_records([results], group_by="writer")
    assert rec.approach == "templates" and rec.producer.writer == "templates"


def test_a_report_failing_its_own_checks_is_an_error_record_not_a_crash(
        tmp_path: Path, toy: None, monkeypatch: pytest.MonkeyPatch) -> None:
    # a bug of ours stood in for: the scorer claims a pass its counts do not give
    import adequacy.batch.pool as batch

    real = batch.score_spec

    def lying(*args: object, **kwargs: object) -> object:
        return real(*args, **kwargs).model_copy(update={"passed_all": True})  # type: ignore[arg-type]

    monkeypatch.setattr(batch, "score_spec", lying)
    monkeypatch.setenv("ADEQUACY_POOL_START", "fork")  # the stand-in bug lives in this process
    _task(tmp_path, {"s.toy": WEAK})
    jf = _jobs(tmp_path, [{"task": "toy_succ", "spec": "toy_succ/specs/s.toy"}])
    s = run_batch(jobs_from_file(jf), tmp_path / "r.jsonl", BatchOptions(), workers=1,
                  progress=False)
    assert (s.errors, s.passed_all) == (1, 0)
    (rec,) = read_records([tmp_path / "r.jsonl"])
    assert rec.report.error and "passed_all is true" in rec.report.error


def test_run_on_an_unreadable_log_says_the_line_and_not_resume(tmp_path: Path) -> None:
    import subprocess
    import sys

    task = _task(tmp_path, {"s.toy": GOLD})
    results = tmp_path / "r.jsonl"
    results.write_text("not json\n" + json.dumps({"schema": 99}) + "\n")
    proc = subprocess.run([sys.executable, "-m", "adequacy", "run", "--tasks", str(task),
                           "-o", str(results), "--no-progress"], capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert f"{results}:1: not a result record" in proc.stderr
    assert "rerun to resume" not in proc.stderr
