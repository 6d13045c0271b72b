"""Gym folders, check and submit on the bundled examples (both languages).

Expected verdicts are worked out by hand from the specs and the cases (Verus Option semantics:
a post_spec that is ``output.result.is_none()`` is false on ``Some(2)``)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from adequacy.errors import GymError
from adequacy.gym import GymTools, check, make_gym, read_manifest, submit
from adequacy.gym.manifest import PRIVATE
from adequacy.model.verdicts import Bucket
from adequacy.taskdirs.load import load_task

from .conftest import JML, VERUS
from .leaks import hidden_cases, scan_tree

GOLD_BSF = (VERUS / "binary_search_first" / "specs" / "gold.rs").read_text()
NONE_ONLY = GOLD_BSF.replace(
    GOLD_BSF[GOLD_BSF.index("spec fn post_spec"):GOLD_BSF.index("} // exec_spec_unverified!")],
    "spec fn post_spec(input: Input, output: Output) -> bool {\n    output.result.is_none()\n}\n\n")


def test_folder_holds_what_an_agent_needs(gym: Path, sources: Path) -> None:
    d = gym / "binary_search_first"
    for name in ("INSTRUCTIONS.md", "LANGUAGE_NOTES.md", "statement.md", "spec.rs",
                 "visible_cases.jsonl", "gym.json", "example/statement.md", "example/spec.rs",
                 "example/visible_cases.jsonl"):
        assert (d / name).is_file(), name
    m = read_manifest(d)
    # the worked example ships with the package: never a task of the batch
    assert m.example_task == "gym_example_clamp" and m.task_id == "binary_search_first"
    src = load_task(sources / "binary_search_first")
    assert (d / "spec.rs").read_text() == src.skeleton
    lines = [json.loads(x) for x in (d / "visible_cases.jsonl").read_text().splitlines()]
    assert len(lines) == 3
    marked = {c.key for c in src.all_cases() if c.visible}
    for c in lines:
        assert c["bucket"] in ("pre_complete", "post_complete")
        assert f"{c['bucket']}/{c['id']}" in marked
    # JML keeps the class file name; instructions are the JML ones
    j = gym / "jml_abs_value"
    assert (j / "Solution.java").is_file()
    assert "requires" in (j / "INSTRUCTIONS.md").read_text()
    assert "Verus" not in (j / "INSTRUCTIONS.md").read_text()


def test_no_hidden_case_anywhere_under_out(gym: Path) -> None:
    hidden = hidden_cases(gym)
    assert len(hidden) > 30
    # the detector finds hidden cases where they are (the source tasks' own files)
    src = Path(read_manifest(gym / "binary_search_first").source)
    assert scan_tree(src / "tests", hidden)
    # after checks and submissions (logs, state, records) there is still none under OUT
    tools = GymTools(gym)
    for tid in ("binary_search_first", "euclid_mod"):
        tools.check(tid)
        tools.check(tid, NONE_ONLY)
        tools.submit(tid, NONE_ONLY)
    tools.check("jml_abs_value")
    tools.submit("jml_abs_value")
    assert scan_tree(gym, hidden) == []


def test_check_reports_the_failing_visible_case(gym: Path) -> None:
    res = check(gym / "binary_search_first", NONE_ONLY)
    # postc-1 ([1,3,5,7], 5) -> Some(2) is a correct output; is_none() rejects it
    assert "FAIL post_complete/postc-1" in res.text
    assert '"arr": [1, 3, 5, 7]' in res.text
    assert res.report.exit_code == 1
    assert res.log and Path(res.log).is_file()
    ok = check(gym / "binary_search_first", GOLD_BSF)
    assert ok.report.passed_all and "FAIL" not in ok.text


def test_check_gives_the_line_of_an_invalid_spec(gym: Path) -> None:
    bad = GOLD_BSF.replace("input.target\n", "input.target )\n", 1)
    line = bad.splitlines().index(next(x for x in bad.splitlines() if x.endswith("target )")))
    res = check(gym / "binary_search_first", bad)
    assert res.report.status == "invalid"
    assert "INVALID SPEC" in res.text and "spec.rs:" in res.text
    assert res.report.invalid is not None and res.report.invalid.line in (line + 1, line + 2)


def test_submit_grades_on_all_cases_once(gym: Path, sources: Path) -> None:
    d = gym / "binary_search_first"
    rec = submit(d, GOLD_BSF)
    src = load_task(sources / "binary_search_first")
    assert rec.passed_all
    for b in Bucket:
        assert rec.buckets[b].total == len(src.cases.get(b, []))
    assert rec.verdicts == [] and rec.spec_sha and rec.checks == 0
    with pytest.raises(GymError, match="already submitted"):
        submit(d, GOLD_BSF)
    again = submit(d, NONE_ONLY, again=True)
    assert not again.passed_all and again.submission == 2
    recs = (d / PRIVATE / "submissions.jsonl").read_text().splitlines()
    assert len(recs) == 2 and recs[0] != recs[1]


def test_grader_refuses_a_changed_source_task(gym: Path, sources: Path) -> None:
    p = sources / "euclid_mod" / "tests" / "post_sound.jsonl"
    lines = p.read_text().splitlines()
    first = json.loads(lines[0])
    first["visible"] = not first.get("visible", False)
    first["id"] = first["id"] + "-relabelled"
    p.write_text("\n".join([json.dumps(first)] + lines[1:]) + "\n")
    with pytest.raises(GymError, match="changed since"):
        submit(gym / "euclid_mod")


def test_example_is_another_task_with_its_visible_cases_only(tmp_path: Path) -> None:
    out = tmp_path / "g"
    make_gym([JML / "abs_value"], out, examples=[JML])
    m = read_manifest(out / "jml_abs_value")
    assert m.example_task and m.example_task != "jml_abs_value"
    ex = load_task(next(d for d in JML.iterdir() if (d / "task.toml").is_file()
                        and load_task(d).id == m.example_task))
    shown = [json.loads(x) for x in
             (out / "jml_abs_value" / "example" / "visible_cases.jsonl").read_text().splitlines()]
    visible = {(c.bucket.value, c.id) for c in ex.all_cases() if c.visible}
    assert shown and all((c["bucket"], c["id"]) in visible for c in shown)


@pytest.mark.slow
def test_cli_check_submit_and_errors(gym: Path, tmp_path: Path) -> None:
    exe = [sys.executable, "-m", "adequacy"]
    d = gym / "euclid_mod"
    r = subprocess.run([*exe, "check"], cwd=d, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "visible cases passed" in r.stdout
    r = subprocess.run([*exe, "check", str(tmp_path)], capture_output=True, text=True)
    assert r.returncode == 2 and "not inside a gym folder" in r.stderr
    assert "Traceback" not in r.stderr
    r = subprocess.run([*exe, "submit", str(d)], capture_output=True, text=True)
    assert r.returncode == 1 and "pre_sound 0/" in r.stdout
    r = subprocess.run([*exe, "submit", str(d)], capture_output=True, text=True)
    assert r.returncode == 2 and "--again" in r.stderr
    r = subprocess.run([*exe, "gym", "make", str(tmp_path / "nope"), str(tmp_path / "o")],
                       capture_output=True, text=True)
    assert r.returncode == 2 and "Traceback" not in r.stderr


def test_huge_spec_is_refused(gym: Path) -> None:
    assert "limit" in GymTools(gym).check("euclid_mod", "x" * 300_000)
    shutil.rmtree(gym / "euclid_mod" / PRIVATE)
    assert GymTools(gym).check("euclid_mod").startswith("error")
