"""no PASSED ALL where nothing was tested, and the paper cuts."""

from __future__ import annotations

import io
import json
import re
import shutil
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from adequacy.cli import app
from adequacy.examples import bundled_folder
from adequacy.model.verdicts import Bucket, Truth, Verdict
from adequacy.records.tables import batch_table, verdict_line
from adequacy.scoring.spec_report import SpecReport

ROOT = Path(__file__).resolve().parents[2]
EUCLID = bundled_folder("verus") / "euclid_mod"
runner = CliRunner()

NO_ANNOTATIONS = (EUCLID / "specs" / "gold.rs").read_text().replace(
    "input.b != 0", "true").replace("output.result == input.a % input.b", "true")


def invoke(*args: str | Path) -> tuple[int, str, str]:
    r = runner.invoke(app, [str(a) for a in args])
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    return r.exit_code, r.stdout, r.stderr


def test_no_sound_buckets_is_not_a_pass(tmp_path: Path) -> None:
    task = tmp_path / "euclid_mod"
    shutil.copytree(EUCLID, task, ignore=shutil.ignore_patterns("specs"))
    for b in ("pre_sound", "post_sound"):
        (task / "tests" / f"{b}.jsonl").unlink()
    spec = tmp_path / "nothing.rs"
    spec.write_text(NO_ANNOTATIONS)
    code, out, _ = invoke("score", task, spec, "--no-cache")
    assert code == 1 and "PASSED ALL" not in out
    flat = " ".join(out.split())
    assert "NOT PASSED untested: pre_sound, post_sound (no cases)" in flat
    assert "adequacy mutate" in flat
    # with every bucket present the same spec fails on the sound ones
    code, out, _ = invoke("score", EUCLID, spec, "--no-cache")
    assert code == 1 and "FAILED" in out


def _report(value: Truth, strict: bool, buckets: tuple[Bucket, ...] = tuple(Bucket)
            ) -> SpecReport:
    return SpecReport(key="k", task_id="t", task_path="t", spec_path="s.rs", spec_sha="",
                      language="verus", status="scored", strict=strict,
                      verdicts=[Verdict(case_id=str(i), bucket=b, value=value, engine="interp")
                                for i, b in enumerate(buckets)]).finish()


def test_lenient_undefined_everywhere_is_not_a_pass() -> None:
    rep = _report(Truth.unknown, strict=False)
    assert not rep.passed_all and rep.exit_code == 1
    line = verdict_line(rep).plain
    assert "PASSED ALL" not in line and "no decided case" in line


def test_pass_at_1_follows_the_rule_even_for_old_records() -> None:
    # a record written before the rule: passed_all stored as true with empty sound buckets
    old = _report(Truth.true, strict=True, buckets=(Bucket.pre_complete, Bucket.post_complete))
    old.passed_all = True
    buf = io.StringIO()
    Console(file=buf, width=80).print(batch_table([old]))
    assert "Pass@1 0.000" in buf.getvalue()


def test_batch_table_names_do_not_collapse_in_80_columns() -> None:
    reps = []
    for suffix in ("alpha", "omega"):
        r = _report(Truth.true, strict=True)
        reps.append(r.model_copy(update={
            "task_id": "a_rather_long_task_identifier_from_a_dataset",
            "spec_path": f"/x/specs/sample_with_a_long_common_prefix_{suffix}.rs"}))
    buf = io.StringIO()
    Console(file=buf, width=80).print(batch_table(reps))
    text = buf.getvalue()
    assert max(len(ln) for ln in text.splitlines()) <= 80
    assert "alpha" in text and "omega" in text and "…" not in text


def test_version_and_short_help() -> None:
    code, out, _ = invoke("--version")
    assert code == 0 and re.fullmatch(r"adequacy \d+\.\d+\.\d+\S*\n", out)
    code, out, _ = invoke("score", "-h")
    assert code == 0 and "Usage:" in out


def test_import_help_names_no_missing_command() -> None:
    code, out, _ = invoke("import", "--help")
    assert code == 0 and "import-list" not in out and "verina" in out


def test_every_run_option_has_help_and_flags_take_no_value() -> None:
    code, out, _ = invoke("run", "--help")
    assert code == 0 and "<bool>" not in out
    opts = re.findall(r"^  (-[^\n]*)$", out, re.M)
    assert opts
    # each option line has a help text after its names (two spaces), or continues below
    for line in opts:
        names = line.split("  ")[0]
        assert line.strip() != names.strip(), f"no help text: {line}"
    code, out, err = invoke("backends", "--json", "false")
    assert code == 2 and "unexpected extra argument" in err


def test_error_printed_once(tmp_path: Path) -> None:
    # asking for an engine that cannot run here is an error of the run, not of the spec
    code, out, err = invoke("score", EUCLID, EUCLID / "specs" / "gold.rs", "--no-cache",
                            "--engine", "verus")
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "verus" in err


def test_unavailable_engine_said_once_and_short() -> None:
    code, out, _ = invoke("score", EUCLID, EUCLID / "specs" / "gold.rs", "--no-cache")
    assert code == 0
    flat = " ".join(out.split())
    if "verus unavailable" not in flat:
        pytest.skip("the verus engine is installed here")
    assert flat.count("verus unavailable") == 1 and "releases" not in flat


def test_verify_on_a_verus_task() -> None:
    # no `verus` binary here: the answer says so (what to install), with no traceback
    code, out, err = invoke("verify", EUCLID, EUCLID / "specs" / "gold.rs")
    assert code == 2 and "cannot verify" in err and "Traceback" not in err + out


def test_import_verina_wrong_file(tmp_path: Path) -> None:
    wrong = tmp_path / "wrong.json"
    wrong.write_text("{}")
    code, out, err = invoke("import", "verina", wrong, tmp_path / "out")
    assert code == 2 and "no task converted" in err and "no VERINA task folders" in err


SGB = ROOT.parent / "shared" / "datasets" / "specgenbench" / "sgb.jsonl"


@pytest.mark.dataset
@pytest.mark.skipif(not SGB.is_file(), reason="needs ../shared/datasets/specgenbench")
def test_import_mutates_by_default(tmp_path: Path) -> None:
    # SpecGenBench records carry only valid pairs: without mutate no sound case exists
    src = tmp_path / "sgb1.jsonl"
    src.write_text(SGB.read_text().splitlines()[0] + "\n")
    code, out, err = invoke("import", "specgenbench", src, tmp_path / "on")
    assert code == 0, err
    assert "mutate:" in out
    code, out, err = invoke("import", "specgenbench", src, tmp_path / "off", "--no-mutate")
    assert code == 0 and "mutate:" not in out

    def count(d: Path, b: str) -> int:
        f = d / "SGB_Abs" / "tests" / f"{b}.jsonl"
        return len(f.read_text().splitlines()) if f.exists() else 0

    assert count(tmp_path / "off", "post_sound") == 0
    assert count(tmp_path / "on", "post_sound") > 0
    # without mutate, pre_sound holds only what generation's oracles call invalid: for Abs,
    # num = Integer.MIN_VALUE, where -num overflows (JML's safe math for code)
    off = (tmp_path / "off" / "SGB_Abs" / "tests" / "pre_sound.jsonl").read_text().splitlines()
    assert [json.loads(x)["input"] for x in off] == [{"num": -2147483648}]


@pytest.mark.slow
def test_lenient_real_run_undefined_everywhere() -> None:
    # euclid_mod's fields are `int`, outside exec_spec's fragment (docs/verus.md): every case
    # is unknown under that engine alone; lenient scoring must not call that a pass
    code, out, err = invoke("score", EUCLID, EUCLID / "specs" / "gold.rs", "--engine",
                            "exec_spec", "--lenient", "--no-cache")
    if code == 2 and "unavailable" in err:
        pytest.skip("exec_spec unavailable here")
    flat = " ".join(out.split())
    assert code == 1 and "PASSED ALL" not in flat
    assert ("untested: pre_complete, pre_sound, post_complete, post_sound (no decided case)"
            in flat)
