"""The results log: older files still read, newer ones and crafted counts are refused by line.

The schema-1 fixtures are real output of main before the versioned log (see their README); the
expected figures below were counted by hand from the `adequacy run` footers that wrote them.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adequacy.extensions.component import Component
from adequacy.model.verdicts import Bucket
from adequacy.records.html import ResultsError, build_study, read_records
from adequacy.records.log import SCHEMA, Producer, append_record, read_results

from .conftest import full, spec_report, write

V1 = Path(__file__).resolve().parents[1] / "fixtures" / "results_v1"


def adequacy(*args: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "adequacy", *map(str, args)],
                          capture_output=True, text=True, cwd=cwd, timeout=300)


# ------------------------------------------------------------------ schema 1 still reads


def test_schema_1_run_output_reads_with_its_figures() -> None:
    # footer of the run that wrote it: "8 pairs: passed 2, failed 4, invalid 2, errors 0"
    recs = read_records([V1 / "run_jml.jsonl"])
    assert len(recs) == 8
    assert sum(r.report.passed_all for r in recs) == 2
    assert [r.report.status for r in recs].count("invalid") == 2
    assert {r.producer.command for r in recs} == {"run"}
    assert all(r.producer.adequacy == "" and r.report.options is not None for r in recs)
    # "5 pairs: passed 1, failed 4"
    verus = read_records([V1 / "run_verus.jsonl"])
    assert (len(verus), sum(r.report.passed_all for r in verus)) == (5, 1)


def test_options_strict_of_the_release_before_reads() -> None:
    # main at ae4926a: "no result records in this file" (every line failed extra="forbid")
    recs = read_records([V1 / "options_strict.jsonl"])
    assert len(recs) == 3
    assert all(r.report.strict is False for r in recs)
    study = build_study(recs, ["options_strict.jsonl"])
    assert study.strict is False


def test_gym_submission_of_schema_1_keeps_its_fields_beside_the_report() -> None:
    (rec,) = read_records([V1 / "gym_submissions.jsonl"])
    assert rec.producer.command == "submit"
    assert rec.report.passed_all and rec.report.verdicts == []
    assert rec.extra["submission"] == 1 and rec.extra["checks"] == 0
    assert rec.report.buckets[Bucket.post_sound].total == 14


def test_report_cli_reads_every_fixture(tmp_path: Path) -> None:
    files = sorted(V1.glob("*.jsonl"))
    files.remove(V1 / "synthesize_jobs.jsonl")
    proc = adequacy("report", *files, "-f", "json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    rows = json.loads(proc.stdout)["rows"]
    assert len(rows) == 8 + 5 + 3 + 2 + 1


# ------------------------------------------------------------------ refused, with the line


def _line(obj: dict[str, Any]) -> str:
    return json.dumps(obj) + "\n"


def test_newer_schema_is_refused_with_file_and_line(tmp_path: Path) -> None:
    p = write(tmp_path / "r.jsonl", [spec_report("t1", "a.rs", full(True))])
    with p.open("a") as f:
        f.write(_line({"schema": SCHEMA + 1, "whatever": "comes next"}))
    with pytest.raises(ResultsError, match=rf"r.jsonl:2: written with results schema "
                                           rf"{SCHEMA + 1}, newer than"):
        read_records([p])
    proc = adequacy("report", p, "-f", "md", cwd=tmp_path)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "r.jsonl:2:" in proc.stderr and "upgrade" in proc.stderr


@pytest.mark.parametrize("schema", ["2", True, 0, None])
def test_a_schema_that_is_not_a_positive_integer_is_refused(tmp_path: Path,
                                                            schema: object) -> None:
    p = tmp_path / "r.jsonl"
    rec = json.loads(spec_report("t1", "a.rs", full(True)).model_dump_json())
    p.write_text(_line({**rec, "schema": schema}))
    with pytest.raises(ResultsError, match="r.jsonl:1: not a result record: schema must"):
        read_records([p])


def test_a_foreign_line_in_the_middle_is_an_error_a_torn_tail_is_not(tmp_path: Path) -> None:
    good = [spec_report("t1", "a.rs", full(True), key="a"),
            spec_report("t2", "b.rs", full(False), key="b")]
    p = write(tmp_path / "r.jsonl", good)
    lines = p.read_text().splitlines()
    p.write_text(lines[0] + "\n{\"torn\": \n" + lines[1] + "\n")
    with pytest.raises(ResultsError, match=r"r.jsonl:2: not a result record: not valid JSON"):
        read_records([p])
    p.write_text(lines[0] + "\n" + lines[1][:50])  # a writer killed mid-line
    assert [r.report.key for r in read_records([p])] == ["a"]


def _crafted(tmp_path: Path, mutate: Any) -> Path:
    """A real record (all four buckets 2/2 except post_sound 2/3) with one field edited."""
    obj = json.loads(spec_report("t1", "a.rs", full(False)).model_dump_json())
    obj["verdicts"] = []  # as the gym writes them: only the counts are left to check
    mutate(obj)
    p = tmp_path / "crafted.jsonl"
    p.write_text(_line(obj))
    return p


def _set_bucket(bucket: str, **counts: int) -> Any:
    def m(obj: dict[str, Any]) -> None:
        obj["buckets"][bucket].update(counts)
    return m


def _passed_all(obj: dict[str, Any]) -> None:
    obj["passed_all"] = True


def _metrics(obj: dict[str, Any]) -> None:
    obj["metrics"]["post_comp"] = 1.0


def _excuse_complete(obj: dict[str, Any]) -> None:
    obj["empty_by_design"] = ["pre_complete"]


def _invalid_with_counts(obj: dict[str, Any]) -> None:
    obj["status"] = "invalid"
    obj["metrics"] = None


def _three_buckets(obj: dict[str, Any]) -> None:
    del obj["buckets"]["pre_sound"]


CRAFTED = {
    # the two: PreCorr -100% in the report, and a pass from no case at all
    "negative total": (_set_bucket("pre_complete", total=-5), "greater than or equal to 0"),
    "passed > total": (_set_bucket("pre_complete", total=0, passed=3, failed=0, unknown=0),
                       "do not add up"),
    "counts do not add up": (_set_bucket("post_sound", total=9), "do not add up"),
    "a count as text": (_set_bucket("post_sound", passed="3"), "valid integer"),
    "pass claimed on failing counts": (_passed_all, "passed_all is true"),
    "inflated metric": (_metrics, "metrics do not follow"),
    "complete bucket excused": (_excuse_complete, "only sound buckets"),
    "invalid spec with counts": (_invalid_with_counts, "has no verdicts or case counts"),
    "a bucket missing": (_three_buckets, "all four buckets"),
}


@pytest.mark.parametrize("name", list(CRAFTED))
def test_inconsistent_counts_are_refused_with_the_line(tmp_path: Path, name: str) -> None:
    mutate, why = CRAFTED[name]
    (rec,) = read_records([_crafted(tmp_path, lambda obj: None)])  # the record unedited reads
    assert not rec.report.passed_all and rec.report.buckets[Bucket.post_sound].passed == 2
    p = _crafted(tmp_path, mutate)
    with pytest.raises(ResultsError, match="crafted.jsonl:1: not a valid result record") as e:
        read_records([p])
    assert why in str(e.value)


def test_counts_not_matching_the_verdicts_are_refused(tmp_path: Path) -> None:
    obj = json.loads(spec_report("t1", "a.rs", full(False)).model_dump_json())
    obj["buckets"]["post_sound"] = {"total": 3, "passed": 3, "failed": 0, "unknown": 0}
    obj["metrics"]["post_comp"] = 1.0
    obj["passed_all"] = True
    p = tmp_path / "r.jsonl"
    p.write_text(_line(obj))
    with pytest.raises(ResultsError, match="r.jsonl:1: .*do not match the verdicts"):
        read_records([p])


def test_one_case_counted_many_times_is_refused(tmp_path: Path) -> None:
    # the counts follow from the verdicts, but the verdicts are one passing case copied
    obj = json.loads(spec_report("t1", "a.rs", full(False)).model_dump_json())
    ps = [v for v in obj["verdicts"] if v["bucket"] == "post_sound"]
    copied = [v for v in obj["verdicts"] if v["bucket"] != "post_sound"]
    copied += [ps[0]] * 3
    obj["verdicts"] = copied
    obj["buckets"]["post_sound"] = {"total": 3, "passed": 3, "failed": 0, "unknown": 0}
    obj["metrics"]["post_comp"] = 1.0
    obj["passed_all"] = True
    p = tmp_path / "r.jsonl"
    p.write_text(_line(obj))
    with pytest.raises(ResultsError, match="r.jsonl:1: .*more than one verdict"):
        read_records([p])


@pytest.mark.parametrize("command", ["report", "compare"])
@pytest.mark.slow
def test_report_and_compare_refuse_crafted_counts(tmp_path: Path, command: str) -> None:
    p = _crafted(tmp_path, _set_bucket("pre_complete", total=-5))
    ok = write(tmp_path / "ok.jsonl", [spec_report("t1", "a.rs", full(True))])
    args = [p, "-f", "md"] if command == "report" else [ok, p]
    proc = adequacy(command, *args, cwd=tmp_path)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "crafted.jsonl:1:" in proc.stderr and "-100" not in proc.stdout


# ------------------------------------------------------------------ schema 2 round trip


def test_append_record_round_trips_and_keeps_subclass_fields_in_extra(tmp_path: Path) -> None:
    from adequacy.gym.session import GymRecord

    rep = spec_report("t1", "a.rs", full(True))
    gym = GymRecord.model_validate({**rep.model_dump(), "verdicts": [], "submission": 2})
    p = tmp_path / "r.jsonl"
    with p.open("a") as f:
        f.write('{"torn": ')  # a killed writer's tail: cut before the next record
    append_record(p, gym, Producer(adequacy="9.9", command="submit", writer="agent",
                                   model="m1"), extra={"verified": True})
    (logged,) = read_results(p)
    raw = json.loads(p.read_text())
    assert raw["schema"] == SCHEMA and set(raw) == {"seal", "schema", "created", "producer",
                                                    "report", "extra"}
    assert logged.sealed
    assert "submission" not in raw["report"] and raw["extra"]["submission"] == 2
    rec = logged.record
    assert rec.producer.model == "m1" and rec.created is not None
    assert rec.report.passed_all and rec.extra["verified"] is True


def test_the_record_shape_is_pinned_to_its_schema_number() -> None:
    # Readers refuse unknown fields, so a field added to the record (or to SpecReport inside
    # it) makes files that this schema's readers refuse as invalid rather than as newer. When
    # this fails: bump adequacy.records.log.SCHEMA, add a migration to _MIGRATIONS, keep a fixture
    # of the old shape, then update the pin below.
    import hashlib

    from adequacy.records.log import ResultRecord

    def bare(v: Any) -> Any:  # names and types only: a reworded docstring is no new shape,
        # nor is how the command line spells a field (its flag, variable, metavar)
        if isinstance(v, dict):
            return {k: bare(x) for k, x in v.items()
                    if k not in ("description", "title", "cli", "env", "metavar")}
        return [bare(x) for x in v] if isinstance(v, list) else v

    shape = json.dumps(bare(ResultRecord.model_json_schema(by_alias=True)), sort_keys=True)
    pins = {2: "24c501b17d83d1907b30876327695085908f2ff4e0e9d9fd2f970a33e799e65b",
            3: "347c6458d56c5e8a4b168d4aa522f4da2d947c34e73a124e25f7d0d6eb4ad36d",
            4: "c6f09f3876bcd4321503f38cda0cf4bcd586da15db4a6f821bc0f88b6076d48e",
            5: "0d3f3e26fc9df233bd1e6c62900611c477654c998751cba9853d06c03f59e8a3",
            6: "9f2384dea0a61df60718827c55ed019da2136854096c77c7e9b26668684aff03",
            7: "12f9cb81c75745cb93bd86a8b38973724892722a96fbc1169e746f9768bf42d0"}
    assert hashlib.sha256(shape.encode()).hexdigest() == pins[SCHEMA]


def test_schema_3_records_read_as_not_sealed() -> None:
    """Real output of main before the seal (tests/fixtures/results_v3): read, and never taken
    for a record this installation's grader sealed."""
    v3 = Path(__file__).resolve().parents[1] / "fixtures" / "results_v3" / "run_verus.jsonl"
    logged = read_results(v3)
    assert len(logged) == 2 and not any(r.sealed for r in logged)
    assert {r.record.report.status for r in logged} == {"scored"}


def test_schema_6_records_read_without_program_kills() -> None:
    """Real output of main before the program-mutant kill ratio (tests/fixtures/results_v6):
    read, with no ratio claimed, and not taken for this installation's sealed records (the
    fixture's paths were edited after it was sealed)."""
    v6 = Path(__file__).resolve().parents[1] / "fixtures" / "results_v6" / "run_verus.jsonl"
    logged = read_results(v6)
    assert len(logged) == 2 and not any(r.sealed for r in logged)
    assert all(r.record.report.program_mutants is None for r in logged)
    assert {r.record.report.status for r in logged} == {"scored"}


def test_schema_4_records_read_without_solver_figures() -> None:
    """Real output of main before the solver's figures (tests/fixtures/results_v4): read, with
    no figures claimed, and not taken for this installation's sealed records (the fixture's
    paths were edited after it was sealed elsewhere)."""
    v4 = Path(__file__).resolve().parents[1] / "fixtures" / "results_v4" / "run_jml.jsonl"
    logged = read_results(v4)
    assert len(logged) == 3 and not any(r.sealed for r in logged)
    assert all(r.record.report.symbolic is None for r in logged)
    assert any(r.record.report.status == "scored" for r in logged)


def test_schema_2_records_read_with_empty_origins() -> None:
    """Real output of main before ``origins`` (tests/fixtures/results_v2): read, not refused,
    and with no claim about which origins the score rested on."""
    v2 = Path(__file__).resolve().parents[1] / "fixtures" / "results_v2" / "run_jml.jsonl"
    recs = read_records([v2])
    assert len(recs) == 3 and all(r.report.origins == {} for r in recs)
    assert any(r.report.status == "scored" for r in recs)


def test_schema_4_records_read_without_writer_parameters_or_plugins() -> None:
    """Real output of main before ``made_by`` and ``plugins`` (tests/fixtures/results_v4):
    read with neither, their flat provenance as written."""
    v4 = Path(__file__).resolve().parents[1] / "fixtures" / "results_v4"
    plain = read_results(v4 / "run_verus.jsonl")
    written = read_results(v4 / "synth_templates.jsonl")
    assert len(plain) == 2 and len(written) == 1
    for r in plain + written:
        assert r.record.producer.made_by is None and r.record.producer.plugins == []
        assert r.record.producer.adequacy == "0.1.0" and r.record.report.status == "scored"
    assert written[0].record.producer.writer == "templates"
    assert plain[0].record.producer.writer is None


# ------------------------------------------------------------------ migrations, by property

_params = st.dictionaries(st.sampled_from(["family", "model", "temperature", "samples",
                                           "program"]),
                          st.one_of(st.none(), st.booleans(), st.integers(-5, 5),
                                    st.floats(0, 2), st.text(max_size=8)), max_size=4)
_component = st.builds(Component, kind=st.sampled_from(["writer", "agent", "plugin"]),
                       name=st.text(min_size=1, max_size=8), params=_params,
                       distribution=st.one_of(st.none(), st.just("spec-adequacy")),
                       version=st.one_of(st.none(), st.just("0.1.0")))
_producer = st.builds(
    Producer, adequacy=st.just("0.1.0"), command=st.sampled_from(["run", "submit", "agent"]),
    writer=st.one_of(st.none(), st.sampled_from(["templates", "dspy", "agent"])),
    model=st.one_of(st.none(), st.text(max_size=12)),
    family=st.one_of(st.none(), st.sampled_from(["zs", "fs-cot"])),
    program=st.one_of(st.none(), st.just("ab" * 32)),
    sample=st.one_of(st.none(), st.integers(0, 9)),
    made_by=st.one_of(st.none(), _component), plugins=st.lists(_component, max_size=3))


def _older(line: str, schema: int) -> str:
    """The line as a writer of ``schema`` would have written it: without what came later."""
    obj = json.loads(line)
    if schema < 5:
        for k in ("made_by", "plugins"):
            obj["producer"].pop(k, None)
    if schema < 4:
        obj.pop("seal", None)
        obj["producer"].pop("sample", None)
    if schema < 3:
        obj["report"].pop("origins", None)
    obj["schema"] = schema
    return json.dumps(obj)


@pytest.mark.property
@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(prod=_producer, schema=st.integers(2, 5))
def test_a_record_read_back_from_any_schema_is_the_record_less_what_it_lacked(
        tmp_path: Path, prod: Producer, schema: int) -> None:
    """Written now and read back: the same record. Written as schema 2, 3 or 4 (the same
    record without what those lacked) and read: migrated to the current schema with exactly
    those fields empty, everything else equal."""
    p = tmp_path / f"r{schema}.jsonl"
    p.unlink(missing_ok=True)
    rep = spec_report("t1", "a.rs", full(True))
    written = append_record(p, rep, prod)
    (now,) = read_results(p)
    assert now.record.model_copy(update={"seal": None}) == written and now.sealed
    p.write_text(_older(p.read_text(encoding="utf-8").split("\n")[0], schema) + "\n",
                 encoding="utf-8")
    (old,) = read_results(p)
    lost: dict[str, Any] = {}
    if schema < 5:
        lost["producer"] = prod.model_copy(update={"made_by": None, "plugins": []})
    if schema < 4:
        lost["producer"] = lost["producer"].model_copy(update={"sample": None})
    if schema < 3:
        lost["report"] = written.report.model_copy(update={"origins": {}})
    assert old.record.model_copy(update={"seal": None}) == written.model_copy(
        update={"schema_": SCHEMA, **lost})
    # a line rewritten (into an older shape, or only respaced) is not what the grader sealed
    assert not old.sealed


def test_a_line_break_inside_a_field_does_not_cut_the_record(tmp_path: Path) -> None:
    """JSON strings hold U+2028, U+2029 and U+0085 raw; a reader splitting on them (as
    ``str.splitlines`` does) would call the record torn and the file unreadable."""
    p = tmp_path / "r.jsonl"
    for model in ("a\u2028b", "c\x85d", "e\u2029f"):
        append_record(p, spec_report("t1", f"{model}.rs", full(True)),
                      Producer(adequacy="0.1.0", command="run", model=model))
    assert [r.record.producer.model for r in read_results(p)] == ["a\u2028b", "c\x85d",
                                                                   "e\u2029f"]


def test_schema_3_records_read_as_no_sample() -> None:
    """Real output of main before ``producer.sample`` (tests/fixtures/results_v3): read, and
    not taken for a writer's sample (pass@k counts none of them)."""
    v3 = Path(__file__).resolve().parents[1] / "fixtures" / "results_v3" / "synthesize_run.jsonl"
    recs = read_records([v3])
    assert len(recs) == 1 and recs[0].producer.writer == "templates"
    assert recs[0].producer.sample is None
