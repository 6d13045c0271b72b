"""The ``verus`` verifier (``adequacy verify`` on Verus tasks).

`verus` cannot be installed here. The outputs under ``fixtures/verus_verify`` are hand-written
from Verus's documented formats (the text diagnostics with ``-->`` lines and the summary
``verification results:: N verified, M errors``, rustc JSON diagnostics with primary and
secondary spans); their line numbers are those of the file ``build`` makes from the
count_in_range gold spec and ``fixtures/verus_verify/reference.rs``. End-to-end runs use a
stand-in executable that replays a recording (a test double: it checks our plumbing, never
Verus's answers).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner
from verus_support import stand_in_verus

from adequacy.cli import app
from adequacy.examples import bundled_folder
from adequacy.extensions.backend import Limits
from adequacy.scoring.verification import provers
from adequacy.taskdirs.load import load_task
from adequacy_verus.plugin import VerusBackend
from adequacy_verus.verus_driver.verifier import REFERENCE, build, interpret

REPO = Path(__file__).resolve().parents[2]
TASK = bundled_folder("verus") / "count_in_range"
FIX = Path(__file__).parent / "fixtures" / "verus_verify"
GOLD = (TASK / "specs" / "gold.rs").read_text()


def _built():
    return build(GOLD, (FIX / "reference.rs").read_text())


def test_build_finds_the_reference_functions_where_the_recordings_point() -> None:
    b = _built()
    assert b.spec_lines == 45
    assert b.functions == {"in_range": (53, 59), "count_in_range": (60, 83)}
    lines = b.text.split("\n")
    assert lines[52].startswith("fn in_range(") and lines[59].startswith("fn count_in_range(")
    assert b.text.startswith(GOLD.rstrip("\n")) and "fn main() {}" in lines[-3:]


def test_all_verified() -> None:
    r = interpret((FIX / "verified.txt").read_text(), _built(), "count_in_range")
    assert r.result == "verified" and r.summary == "verus: 2 verified, 0 errors"
    assert [(c.contract, c.status) for c in r.contracts] == [("in_range", "closed"),
                                                            ("count_in_range", "closed")]
    assert r.has_loops and r.loop_invariants and r.open_goals == 0


def test_text_output_with_open_goals() -> None:
    r = interpret((FIX / "postcondition_text.txt").read_text(), _built(), "count_in_range")
    assert r.result == "not verified"
    c = {x.contract: x for x in r.contracts}
    assert c["in_range"].status == "closed"
    assert c["count_in_range"].status == "open" and c["count_in_range"].open_goals == 2
    goals = [(g.branch, g.sequent) for g in c["count_in_range"].goals]
    assert goals[0] == (["postcondition not satisfied"], "reference line 18: {")
    assert goals[1][0] == ["invariant not satisfied at end of loop body"]
    assert "count == count_upto(arr@, lo, hi, i)" in goals[1][1]
    assert r.summary == "verus: 1 verified, 1 errors; open: count_in_range"


def test_json_output_rlimit_is_a_timeout_and_postcondition_open() -> None:
    r = interpret((FIX / "rlimit_and_postcondition_json.txt").read_text(), _built(), "t")
    assert r.result == "not verified"
    c = {x.contract: x for x in r.contracts}
    assert c["in_range"].status == "timeout" and "rlimit" in c["in_range"].reason
    assert c["count_in_range"].status == "open"
    assert r.open_goals == 2


def test_spec_type_error_and_foreign_errors_are_unknown() -> None:
    spec_err = (REPO / "tests" / "verus" / "fixtures" / "verus_outputs"
                / "json_spec_type_error.txt").read_text()
    r = interpret(spec_err, _built(), "t")
    assert r.result == "unknown" and r.summary == ("verus rejects the spec: mismatched types "
                                                   "(spec line 22)")
    r = interpret((FIX / "error_in_vstd_json.txt").read_text(), _built(), "t")
    assert r.result == "unknown" and "outside the spec" in r.summary
    r = interpret("", _built(), "t")
    assert r.result == "unknown" and "neither" in r.summary
    r = interpret("", _built(), "t", timed_out=True, seconds=5)
    assert r.result == "unknown" and "timed out after 5s" in r.summary


def test_unavailable_without_the_binary(monkeypatch: pytest.MonkeyPatch,
                                        tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv("ADEQUACY_VERUS", raising=False)
    [v] = VerusBackend().verifiers()
    info = v.info()
    assert not info.available and "verus" in info.reason and info.fidelity == 30
    assert provers("verus") == []


def test_cli_verify_says_verus_is_missing(monkeypatch: pytest.MonkeyPatch,
                                         tmp_path: Path) -> None:
    monkeypatch.setenv("ADEQUACY_VERUS", str(tmp_path / "no-verus"))
    r = CliRunner().invoke(app, ["verify", str(TASK), str(TASK / "specs" / "gold.rs")])
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    assert r.exit_code == 2
    assert "cannot verify" in r.stderr and "ADEQUACY_VERUS" in r.stderr
    assert "Traceback" not in r.stderr + r.stdout


def _stand_in(tmp_path: Path, recording: Path) -> Path:
    """A ``verus`` that prints a recording on stdout and succeeds."""
    return stand_in_verus(tmp_path / "verus-bin", recording, version="0.test", to_stderr=False,
                          exit_code=0)


def test_verify_without_a_reference_is_unknown(monkeypatch: pytest.MonkeyPatch,
                                               tmp_path: Path) -> None:
    monkeypatch.setenv("ADEQUACY_VERUS", str(_stand_in(tmp_path, FIX / "verified.txt")))
    task = load_task(TASK)
    assert not (task.root / REFERENCE).exists()
    [v] = VerusBackend().verifiers()
    r = v.verify(VerusBackend().load_spec(task, GOLD, "gold.rs"), task, Limits())
    assert r.result == "unknown" and "no reference implementation" in r.summary


def test_cli_verify_end_to_end_with_a_replaying_stand_in(monkeypatch: pytest.MonkeyPatch,
                                                         tmp_path: Path) -> None:
    task = tmp_path / "count_in_range"
    shutil.copytree(TASK, task)
    shutil.copy(FIX / "reference.rs", task / REFERENCE)
    monkeypatch.setenv("ADEQUACY_VERUS",
                       str(_stand_in(tmp_path, FIX / "postcondition_text.txt")))
    r = CliRunner().invoke(app, ["verify", str(task), str(task / "specs" / "gold.rs"),
                                 "--json"])
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    assert r.exit_code == 1, r.stderr
    rep = json.loads(r.stdout)
    assert rep["verification"]["result"] == "not verified"
    assert rep["verification"]["engine"] == "verus"
    assert rep["metrics"]["post_corr"] == 1.0  # the gold spec's adequacy beside it
