"""`adequacy import harbor-job` on a job folder written by Harbor's own result models, whose
trials carry real grades (tests/test.sh run in the sandbox), Verus-SpecGym's per-bucket files,
an agent that timed out and a report that disagrees with the rewards Harbor recorded."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

from adequacy.ecosystem import specgym_results
from adequacy.ecosystem.harbor_jobs import import_job
from adequacy.errors import InputError
from adequacy.model.verdicts import Bucket
from adequacy.records.log import read_results

from .conftest import EXAMPLES, harbor_call
from .sandbox import bwrap, run_test_sh

VERUS = EXAMPLES[0]
DETAIL = "verifier/compressed_verdicts/run_on_all_samples/unzipped_results/" \
         "SubmissionResultMoreDetail.json"


def _graded(exported: Path, task: str, spec: Path, where: Path) -> Path:
    ws = where / "ws"
    (ws / task).mkdir(parents=True)
    shutil.copyfile(spec, ws / task / "spec.rs")
    r = run_test_sh(exported / task, ws, where / "verifier")
    assert r.returncode == 0, r.stderr
    return where / "verifier"


def _feedback(failing_post_sound: int) -> dict[str, Any]:
    """EvaluationFeedback.json in the shape Verus-SpecGym's results script reads."""
    def cases(n: int, bad: int) -> dict[str, Any]:
        return {f"t{i}": {"does_testcase_have_expected_verdict": i >= bad} for i in range(n)}
    return {"syntax_check_feedback": {"has_passed_syntax_checks": True},
            "execution_feedback": {"pre_sound": cases(2, 0), "pre_complete": cases(3, 0),
                                   "post_complete": cases(4, 0),
                                   "post_sound": cases(5, failing_post_sound)}}


@pytest.fixture(scope="module")
def job(exported: Path, harbor: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    if bwrap() is None:
        pytest.skip("needs bubblewrap (bwrap) to grade the trials with test.sh")
    base = tmp_path_factory.mktemp("job-inputs")
    bsf = VERUS / "binary_search_first" / "specs"
    gold = _graded(exported, "binary_search_first", bsf / "gold.rs", base / "g")
    weak = _graded(exported, "binary_search_first", bsf / "flawed_post_too_weak.rs", base / "w")
    euclid = _graded(exported, "euclid_mod", VERUS / "euclid_mod" / "specs" / "gold.rs",
                     base / "e")
    tampered = base / "t" / "verifier"
    shutil.copytree(gold, tampered)
    shutil.copyfile(weak / "reward.json", tampered / "reward.json")
    zipped = base / "z" / "verifier"
    (zipped / "compressed_verdicts" / "run_on_all_samples").mkdir(parents=True)
    with zipfile.ZipFile(zipped / "compressed_verdicts" / "run_on_all_samples" / "results.zip",
                         "w") as z:
        z.writestr("EvaluationFeedback.json", json.dumps(_feedback(1)))
    (zipped / "reward.txt").write_text("0")
    detail = base / "d" / "verifier"
    detail.mkdir(parents=True)
    (detail / "reward.txt").write_text("1")
    gold_text = (bsf / "gold.rs").read_text()
    art = {"artifacts/app/binary_search_first/spec.rs": gold_text}

    def trial(name: str, task: str, agent: str, model: str, **kw: Any) -> dict[str, Any]:
        return {"trial_name": name, "task_name": task, "task_path": f"/tasks/{task}",
                "agent": agent, "model": model, "tokens": [1000, 200], "cost": 0.25, **kw}

    job = tmp_path_factory.mktemp("jobs") / "2026-12-01__09-00-00"
    harbor_call(harbor, "write_job", {"job": str(job), "source": "bundled", "trials": [
        trial("binary_search_first__a1", "binary_search_first", "claude-code",
              "anthropic/claude-sonnet", verifier=str(gold), files=art, minute=0),
        trial("binary_search_first__a2", "binary_search_first", "claude-code",
              "anthropic/claude-sonnet", verifier=str(weak), minute=5),
        trial("euclid_mod__b1", "euclid_mod", "codex", "openai/gpt-5", verifier=str(euclid)),
        trial("euclid_mod__b2", "euclid_mod", "codex", "openai/gpt-5",
              exception=["AgentTimeoutError", "Agent execution timed out after 1800 s"]),
        trial("binary_search_first__t", "binary_search_first", "codex", "openai/gpt-5",
              verifier=str(tampered)),
        trial("verus-gym-1234-a__s1", "verus-spec-gym/verus-gym-1234-a", "swe-agent",
              "openrouter/x", verifier=str(detail), files={DETAIL: json.dumps({
                  "num_passed_pre_sound": 2, "num_total_pre_sound": 2,
                  "num_passed_pre_complete": 3, "num_total_pre_complete": 3,
                  "num_passed_post_complete": 4, "num_total_post_complete": 4,
                  "num_passed_post_sound": 5, "num_total_post_sound": 5,
                  "did_solve_problem": True})}),
        trial("verus-gym-1234-b__s2", "verus-spec-gym/verus-gym-1234-b", "swe-agent",
              "openrouter/x", verifier=str(zipped)),
    ]})
    return job


@pytest.mark.slow
def test_every_trial_becomes_a_checked_record_with_provenance(job: Path, tmp_path: Path
                                                               ) -> None:
    out = tmp_path / "results.jsonl"
    done = import_job(job, out, language="verus")
    assert done.written == 7 and not done.unreadable
    logged = read_results(out)
    # graded in containers, not by this installation's grader: written unsealed, not verified
    assert not any(r.sealed for r in logged)
    recs = {r.record.extra["harbor"]["trial"]: r.record for r in logged}
    a1, a2 = recs["binary_search_first__a1"], recs["binary_search_first__a2"]
    assert a1.report.passed_all and a1.report.status == "scored"
    assert not a2.report.passed_all
    assert [b for b, s in a2.report.buckets.items() if s.failed] == [Bucket.post_sound]
    assert (a1.producer.writer, a1.producer.model, a1.producer.command) == \
        ("claude-code", "anthropic/claude-sonnet", "harbor")
    h = a1.extra["harbor"]
    assert (h["attempt"], recs["binary_search_first__a2"].extra["harbor"]["attempt"]) == (1, 2)
    assert (a1.producer.sample, a2.producer.sample) == (0, 1)  # pass@k's samples
    assert h["n_input_tokens"] == 1000 and h["n_output_tokens"] == 200 and a1.extra["cost"] == 0.25
    assert h["trajectory_steps"] == 2 and h["rewards"]["reward"] == 1.0
    assert h["grade_source"] == "adequacy" and a1.extra["adequacy_key"] != a1.report.key
    # the agent's spec as Harbor collected it, shown by report pages (its hash is the graded one)
    assert a1.report.spec_path is not None and Path(a1.report.spec_path).is_file()
    assert recs["euclid_mod__b1"].report.passed_all
    timed_out = recs["euclid_mod__b2"].report
    assert timed_out.status == "error" and "AgentTimeoutError" in (timed_out.error or "")
    tampered = recs["binary_search_first__t"].report
    assert tampered.status == "error" and "disagree" in (tampered.error or "")
    s1, s2 = recs["verus-gym-1234-a__s1"], recs["verus-gym-1234-b__s2"]
    assert s1.report.task_id == "verus-gym-1234-a" and s1.report.passed_all
    assert s1.extra["specgym_did_solve"] is True and s1.report.language == "verus"
    assert s2.report.buckets[Bucket.post_sound].failed == 1 and not s2.report.passed_all
    assert s2.extra["harbor"]["grade_source"].endswith("results.zip/EvaluationFeedback.json")
    assert len({r.report.key for r in recs.values()}) == 7
    # importing the same job again adds nothing
    again = import_job(job, out)
    assert again.written == 0 and len(read_results(out)) == 7


@pytest.mark.slow
def test_report_compare_and_csv_read_a_harbor_run(job: Path, tmp_path: Path) -> None:
    out = tmp_path / "results.jsonl"
    r = subprocess.run([sys.executable, "-m", "adequacy", "import", "harbor-job", str(job),
                        "-o", str(out), "--language", "verus"], capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr
    assert "7 trials" in r.stdout and "AgentTimeoutError" in r.stderr
    r = subprocess.run([sys.executable, "-m", "adequacy", "report", str(out), "--format",
                        "json"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    study = json.loads(r.stdout)
    by = {a["name"]: a for a in study["approaches"]}
    assert set(by) == {"claude-code / anthropic/claude-sonnet", "codex / openai/gpt-5",
                       "swe-agent / openrouter/x"}
    claude = by["claude-code / anthropic/claude-sonnet"]["summary"]
    # two attempts of one task, one passed: pass@1 0.5 and pass@2 1.0 over that task
    assert claude["pass_at_1"] == 0.5 and claude["pass_at_k"]["2"] == 1.0
    assert by["claude-code / anthropic/claude-sonnet"]["cost"] == 0.5
    jobs = tmp_path / "jobs.jsonl"
    jobs.write_text("".join(json.dumps({"task": str(VERUS / t), "spec": str(
        VERUS / t / "specs" / "gold.rs")}) + "\n" for t in ("binary_search_first", "euclid_mod")))
    base = tmp_path / "gold.jsonl"
    r = subprocess.run([sys.executable, "-m", "adequacy", "run", str(jobs), "-o", str(base),
                        "--engine", "interp", "--workers", "1", "--quiet", "--no-cache"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    r = subprocess.run([sys.executable, "-m", "adequacy", "compare", str(base), str(out),
                        "--json", "--resamples", "200"], capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr
    cmp = json.loads(r.stdout)
    assert cmp["deltas"][0]["tasks"] == 2 and cmp["only_b"] == 2  # paired by task
    r = subprocess.run([sys.executable, "-m", "adequacy", "report", str(out), "--format",
                        "csv"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    header, *rows = r.stdout.splitlines()
    assert len(rows) == 7 and "extra.harbor.attempt" in header.split(",")


def test_specgym_files_read_as_their_script_reads_them(tmp_path: Path) -> None:
    trial = tmp_path / "t"
    (trial / DETAIL).parent.mkdir(parents=True)
    (trial / DETAIL).write_text(json.dumps({
        "num_passed_pre_sound": 1, "num_total_pre_sound": 2, "num_passed_pre_complete": 3,
        "num_total_pre_complete": 3, "num_passed_post_complete": 0,
        "num_total_post_complete": 0, "num_passed_post_sound": 4, "num_total_post_sound": 4,
        "did_solve_problem": False}))
    s = specgym_results.read_trial(trial)
    assert s is not None and s.buckets[Bucket.pre_sound].failed == 1
    assert s.buckets[Bucket.post_complete].total == 0
    fb = tmp_path / "f"
    path = fb / specgym_results.FEEDBACK
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"syntax_check_feedback": {"has_passed_syntax_checks": False}}))
    s = specgym_results.read_trial(fb)
    assert s is not None and not s.syntax_ok and not s.did_solve
    path.write_text(json.dumps(_feedback(2)))
    s = specgym_results.read_trial(fb)
    assert s is not None and s.buckets[Bucket.post_sound].passed == 3 and not s.did_solve
    assert specgym_results.read_trial(tmp_path / "nothing") is None


@pytest.mark.parametrize("bad", [
    {"num_passed_pre_sound": -1},
    {"num_passed_pre_sound": 5},
    {"num_total_pre_sound": "2"},
    {"did_solve_problem": "yes"},
])
def test_specgym_files_with_impossible_counts_are_refused(tmp_path: Path,
                                                          bad: dict[str, Any]) -> None:
    detail = {f"num_{k}_{b.value}": 2 for b in Bucket for k in ("passed", "total")}
    detail["did_solve_problem"] = True
    detail.update(bad)
    path = tmp_path / DETAIL
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(detail))
    with pytest.raises(InputError, match="SubmissionResultMoreDetail.json"):
        specgym_results.read_trial(tmp_path)


def test_a_folder_without_trials_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no trial folder"):
        import_job(tmp_path, tmp_path / "r.jsonl")


def test_an_unreadable_trial_is_listed_and_the_rest_imported(tmp_path: Path) -> None:
    job = tmp_path / "job"
    for name, result in (("bad", "{not json"), ("odd", json.dumps({"trial_name": "odd"}))):
        (job / name).mkdir(parents=True)
        (job / name / "config.json").write_text("{}")
        (job / name / "result.json").write_text(result)
    done = import_job(job, tmp_path / "r.jsonl")
    assert [t.status for t in done.trials] == ["unreadable", "unreadable"]
    assert "result.json" in done.trials[0].reason and "task_name" in done.trials[1].reason
