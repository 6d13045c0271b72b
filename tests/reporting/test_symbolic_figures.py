"""The solver's figures beside the buckets: in the report's record, in every report format,
and refused when a record's counts do not follow from its listed results."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import ValidationError

from adequacy.errors import ResultsError
from adequacy.model.symbolic_figures import (
    AdmittedInput,
    OutputDetermination,
    PinnedInput,
    PreAdmission,
    SymbolicFigures,
)
from adequacy.records.html import build_study, read_records, render_html
from adequacy.records.html._render import render_markdown, summary_rows

from .conftest import full, spec_report, write


def _pins(pinned: int, second: int, unknown: int) -> OutputDetermination:
    res = ([PinnedInput(input={"x": i}, output={"r": i}, status="pinned") for i in range(pinned)]
           + [PinnedInput(input={"x": 100 + i}, output={"r": 0}, other={"r": 1},
                          status="second_output") for i in range(second)]
           + [PinnedInput(input={"x": 200 + i}, output={"r": 0}, status="unknown",
                          reason="solver timeout") for i in range(unknown)])
    return OutputDetermination(inputs=len(res), pinned=pinned, second_output=second,
                               unknown=unknown, results=res)


def test_figures_are_in_every_format(tmp_path: Path) -> None:
    a = spec_report("t1", "a.rs", full(True)).model_copy(update={"symbolic": SymbolicFigures(
        output=_pins(3, 1, 1), pre=PreAdmission(gold="g.rs", status="found", inputs=[
            AdmittedInput(input={"x": -1}, oracle="invalid")]))})
    b = spec_report("t2", "b.rs", full(True)).model_copy(update={"symbolic": SymbolicFigures(
        output=_pins(5, 0, 0), pre=PreAdmission(gold="g.rs", status="none",
                                                claim="for every input"))})
    c = spec_report("t3", "c.rs", full(False))  # not measured: counts nowhere
    recs = read_records([write(tmp_path / "r.jsonl", [a, b, c])])
    study = build_study(recs, ["r"])
    (ap,) = study.approaches
    # 8 of 10 inputs pinned over the two measured specs; one of two specs admits beyond gold
    assert ap.determined == pytest.approx(0.8) and ap.determined_inputs == 10
    assert ap.second_outputs == 1
    assert ap.pre_admits == pytest.approx(0.5) and ap.pre_measured == 2
    row = summary_rows(study)[0]
    assert row["post determines output"] == "80.0% of 10 inputs (1 second outputs)"
    assert row["pre admits beyond gold"] == "50.0% of 2 specs"
    md = render_markdown(study)
    assert "post determines output" in md
    assert "post determines the output on 3 of 5 valid inputs (1 with a second output, 1 " \
           "undecided)" in md
    html = render_html(study)
    assert "pre admits 1 input(s) the gold spec refuses" in html
    assert json.loads(recs[0].report.model_dump_json())["symbolic"]["output"]["pinned"] == 3


def test_a_report_without_figures_has_no_solver_columns(tmp_path: Path) -> None:
    recs = read_records([write(tmp_path / "r.jsonl", [spec_report("t1", "a.rs", full(True))])])
    assert "post determines output" not in summary_rows(build_study(recs, ["r"]))[0]


def test_forged_counts_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ValidationError):
        OutputDetermination(inputs=2, pinned=2, second_output=0, unknown=0,
                            results=[PinnedInput(input={}, output={}, status="unknown")] * 2)
    good = spec_report("t1", "a.rs", full(True)).model_copy(update={"symbolic": SymbolicFigures(
        output=_pins(1, 0, 1))})
    obj = json.loads(good.model_dump_json())
    obj["symbolic"]["output"]["pinned"] = 2  # claims both inputs pinned
    obj["symbolic"]["output"]["unknown"] = 0
    p = tmp_path / "forged.jsonl"
    p.write_text(json.dumps(obj) + "\n")
    with pytest.raises(ResultsError, match="output determination counts"):
        read_records([p])
    # figures on a report that was not scored are refused too
    err = spec_report("t1", "a.rs", {}, status="error")
    obj = json.loads(err.model_dump_json())
    obj["symbolic"] = json.loads(SymbolicFigures(output=_pins(1, 0, 0)).model_dump_json())
    p.write_text(json.dumps(obj) + "\n")
    with pytest.raises(ResultsError, match="no symbolic figures"):
        read_records([p])
