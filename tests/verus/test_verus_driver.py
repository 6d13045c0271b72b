"""The verifier driver: file building, output attribution, availability.

`verus` cannot be installed here, so attribution is tested against recorded outputs written
from Verus's documented formats (text diagnostics, rustc JSON diagnostics, ``--output-json``),
and ``check`` end-to-end against a stand-in executable that replays such a recording (a test
double, used only in this unit test).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from verus_support import stand_in_verus

from adequacy.errors import EngineUnavailable, SpecInvalid
from adequacy.examples import bundled_folder
from adequacy.extensions.backend import Limits
from adequacy.model.task import Case, Task
from adequacy.model.verdicts import Truth
from adequacy.taskdirs.load import load_task
from adequacy_verus import rustc
from adequacy_verus.verus_driver import attribute, availability, build_file, check
from adequacy_verus.verus_driver.driver import (
    parse_results_line,
)

REPO = Path(__file__).resolve().parents[2]
FIX = Path(__file__).parent / "fixtures" / "verus_outputs"
TASK = bundled_folder("verus") / "binary_search_first"


def _setup() -> tuple[Task, str, list[Case]]:
    task = load_task(TASK)
    spec = (TASK / "specs" / "gold.rs").read_text()
    cases = [task.cases[b][0] for b in task.cases if task.cases[b]][:4]
    return task, spec, cases


def test_build_file_places_two_functions_per_case_where_the_recordings_expect() -> None:
    task, spec, cases = _setup()
    text, spans = build_file(spec, task, cases)
    lines = text.splitlines()
    assert [(s.holds, s.fails) for s in spans] == [((40, 42), (43, 45)), ((47, 49), (50, 52)),
                                                  ((54, 56), (57, 59)), ((61, 63), (64, 66))]
    assert lines[39] == "proof fn __adequacy_c0_holds() {"
    assert lines[40] == "    assert(pre_spec(Input { arr: seq![1i64, 2i64, 3i64], target: 2i64 }));"
    assert lines[43].startswith("    assert(!pre_spec(")
    assert "Output { result: Option::Some(2usize) }" in lines[54]
    assert text.startswith(spec.rstrip("\n"))
    assert lines[-1] == "fn main() {}"


@pytest.mark.parametrize("fixture", ["text_mixed.txt", "json_mixed.txt",
                                     "json_output_json.txt"])
def test_attribution_of_a_mixed_run(fixture: str) -> None:
    task, spec, cases = _setup()
    _, spans = build_file(spec, task, cases)
    att = attribute((FIX / fixture).read_text(), spans, spec_lines=spec.count("\n") + 1)
    assert att.spec_error is None
    # c0: only `holds` verified; c1: only `fails`; c2: rlimit on both; c3: only `fails`
    assert att.values[0] == (Truth.true, "symbolic")
    assert att.values[1] == (Truth.false, "symbolic")
    assert att.values[2][0] is Truth.unknown and "rlimit" in att.values[2][1]
    assert att.values[3] == (Truth.false, "symbolic")


def test_results_line_in_both_formats() -> None:
    assert parse_results_line((FIX / "text_mixed.txt").read_text()) == (5, 5)
    assert parse_results_line((FIX / "json_output_json.txt").read_text()) == (5, 5)
    assert parse_results_line("no summary here") is None


def test_text_and_json_parsers_agree_on_lines() -> None:
    t = [(d.message.split(";")[0], d.line) for d in
         rustc.parse_text((FIX / "text_mixed.txt").read_text()) if d.line]
    j = [(d.message.split(";")[0], d.line) for d in
         rustc.parse_json((FIX / "json_mixed.txt").read_text()) if d.line]
    assert t == j and len(t) == 5


def test_both_polarities_verified_is_unknown_not_a_verdict() -> None:
    task, spec, cases = _setup()
    _, spans = build_file(spec, task, cases)
    att = attribute((FIX / "all_verified.txt").read_text(), spans, spec.count("\n") + 1)
    assert all(v[0] is Truth.unknown and "both" in v[1] for v in att.values.values())


def test_error_inside_the_spec_is_reported_as_spec_error() -> None:
    task, spec, cases = _setup()
    _, spans = build_file(spec, task, cases)
    att = attribute((FIX / "json_spec_type_error.txt").read_text(), spans,
                    spec.count("\n") + 1)
    assert att.spec_error == ("mismatched types", 22)
    assert att.values == {}


def test_unavailable_without_verus(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv("ADEQUACY_VERUS", raising=False)
    ok, _, reason = availability()
    assert not ok and "verus" in reason
    task, spec, cases = _setup()
    with pytest.raises(EngineUnavailable):
        check(spec, task, cases, Limits())
    monkeypatch.setenv("ADEQUACY_VERUS", str(tmp_path / "nope"))
    assert availability()[0] is False


def _fake_verus(tmp_path: Path, recording: Path) -> Path:
    return stand_in_verus(tmp_path, recording, version="0.2026.11.01.test", to_stderr=True,
                          exit_code=1)


def test_check_end_to_end_with_a_replaying_stand_in(monkeypatch: pytest.MonkeyPatch,
                                                    tmp_path: Path) -> None:
    exe = _fake_verus(tmp_path, FIX / "json_mixed.txt")
    monkeypatch.setenv("ADEQUACY_VERUS", str(exe))
    ok, version, _ = availability()
    assert ok and version == "verus 0.2026.11.01.test"
    task, spec, cases = _setup()
    verdicts = check(spec, task, cases, Limits(spec_seconds=30))
    assert [v.value for v in verdicts] == [Truth.true, Truth.false, Truth.unknown, Truth.false]
    assert all(v.engine == "verus" for v in verdicts)
    # accept-bucket case verified -> passes; post_sound case decided false -> passes
    assert verdicts[0].passed and verdicts[3].passed


def test_check_raises_spec_invalid_for_errors_in_the_spec(monkeypatch: pytest.MonkeyPatch,
                                                          tmp_path: Path) -> None:
    exe = _fake_verus(tmp_path, FIX / "json_spec_type_error.txt")
    monkeypatch.setenv("ADEQUACY_VERUS", str(exe))
    task, spec, cases = _setup()
    with pytest.raises(SpecInvalid) as e:
        check(spec, task, cases, Limits(spec_seconds=30), path="gold.rs")
    assert e.value.line == 22 and e.value.engine == "verus"
    assert os.environ["ADEQUACY_VERUS"] == str(exe)
