"""The bundled problem packages (examples/packages) imported end to end, with buckets worked
out by hand from the routing table (docs/packages.md), and their gold specs scored.

max_index (C++ validator, checker and main solution against our minimal testlib.h):
- official 01-06 -> pre_complete and post_complete; 07 repeats 01 (duplicate in both);
  08 ends in "..." (truncated).
- hacks accepted by the validator -> pre_complete: h1 h2 h4 h5 h6 h7 h8 h16 h17 h18 h19
  (h3 repeats official 01's input: a duplicate there);
- rejected -> pre_sound: h9 (n = 0), h10 (n = 101), h11 (2e9), h13 (-1e9 - 1),
  h20 (-2e9), h21 (n = 150);
- h12 (two spaces) and h14 (n = 3 with 2 numbers) do not parse: syntactically invalid;
  h15 ("-0") parses to 0, which prints as "0": it does not round-trip;
- outputs the checker accepts -> post_complete: h1 (3 of 2 7 7), h2 (3 of 5 1 5 2), h18;
  rejected -> post_sound: h3 h4 h5 h6 (index 0) h7 (index 5 of 4) h8 (-1) h19;
  h16's record says "wa" but index 2 of 5 5 1 is a maximum: dropped (disagreement);
  h17's output "abc" does not parse.

any_divisor (Python validator, checker and main solution):
- official 01-06 in both complete buckets, 07 repeats 02;
- pre_complete hacks: h1 h3 h4 h5 h6 h7 h15 h16 (h2 repeats h1's input);
- pre_sound: h8 (1) h9 (0) h10 (10001) h11 (-5) h12 (99999999);
- post_complete: h1 (6 | 12), h2 (4 | 12), h15 (5 | 25); post_sound: h3 (-1 for 15),
  h4 (13 for 13), h5 (1 for 9), h6 (3 for 8), h7 (1 for 97);
- h13 ("007") does not round-trip, h14 ("abc") does not parse, h16's output "5 " has a
  trailing space (does not round-trip), h17 is recorded truncated.

abs_diff (written from Polygon's documented full-package format only: generated tests, extra
files and elements, a `std::wcmp.cpp` checker, a second solution; nothing of it is special-cased):
- official 01-07 in both complete buckets but 04, which repeats 03;
- valid hacks 1 2 3 4 5 6 13 -> pre_complete; 7 (1001) 8 (-1001) 9 (5000) 10 (-2000)
  12 (10^6) -> pre_sound; 11 ("1 2 3") does not parse;
- outputs: 4 (0 for 7 7) and 6 (1 for -1 -2) accepted; 1 2 3 5 13 (signed differences, 0 for
  100 -100) rejected.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from adequacy.examples import bundled_folder
from adequacy.model.verdicts import Bucket
from adequacy.packages import Options, import_packages
from adequacy.scoring.runner import score_spec
from adequacy.taskdirs.load import load_task

ROOT = bundled_folder("packages")

EXPECTED = {
    "max_index": {
        "pre_complete": ["official-01", "official-02", "official-03", "official-04",
                         "official-05", "official-06", "hack-h1", "hack-h2", "hack-h4",
                         "hack-h5", "hack-h6", "hack-h7", "hack-h8", "hack-h16", "hack-h17",
                         "hack-h18", "hack-h19"],
        "pre_sound": ["hack-h9", "hack-h10", "hack-h11", "hack-h13", "hack-h20", "hack-h21"],
        "post_complete": ["official-01", "official-02", "official-03", "official-04",
                          "official-05", "official-06", "hack-h1", "hack-h2", "hack-h18"],
        "post_sound": ["hack-h3", "hack-h4", "hack-h5", "hack-h6", "hack-h7", "hack-h8",
                       "hack-h19"],
    },
    "any_divisor": {
        "pre_complete": ["official-01", "official-02", "official-03", "official-04",
                         "official-05", "official-06", "hack-h1", "hack-h3", "hack-h4",
                         "hack-h5", "hack-h6", "hack-h7", "hack-h15", "hack-h16"],
        "pre_sound": ["hack-h8", "hack-h9", "hack-h10", "hack-h11", "hack-h12"],
        "post_complete": ["official-01", "official-02", "official-03", "official-04",
                          "official-05", "official-06", "hack-h1", "hack-h2", "hack-h15"],
        "post_sound": ["hack-h3", "hack-h4", "hack-h5", "hack-h6", "hack-h7"],
    },
}

EXPECTED["abs_diff"] = {
    "pre_complete": ["official-01", "official-02", "official-03", "official-05", "official-06",
                     "official-07", "hack-1", "hack-2", "hack-3", "hack-4", "hack-5", "hack-6",
                     "hack-13"],
    "pre_sound": ["hack-7", "hack-8", "hack-9", "hack-10", "hack-12"],
    "post_complete": ["official-01", "official-02", "official-03", "official-05",
                      "official-06", "official-07", "hack-4", "hack-6"],
    "post_sound": ["hack-1", "hack-2", "hack-3", "hack-5", "hack-13"],
}

DROPPED = {
    "max_index": {("official-07", "duplicate case"), ("official-08", "truncated test"),
                  ("hack-h3", "duplicate case"), ("hack-h12", "syntactically invalid hack"),
                  ("hack-h14", "syntactically invalid hack"),
                  ("hack-h15", "input does not round-trip"),
                  ("hack-h16", "recorded verdict disagrees with the checker"),
                  ("hack-h17", "syntactically invalid hack output")},
    "any_divisor": {("official-07", "duplicate case"), ("hack-h2", "duplicate case"),
                    ("hack-h13", "input does not round-trip"),
                    ("hack-h14", "syntactically invalid hack"),
                    ("hack-h16", "output does not round-trip"),
                    ("hack-h17", "truncated test")},
    "abs_diff": {("official-04", "duplicate case"), ("hack-11", "syntactically invalid hack")},
}

pytestmark = [pytest.mark.slow, pytest.mark.requires("g++")]


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, object]:
    dest = tmp_path_factory.mktemp("pkg-tasks")
    report = import_packages([ROOT], dest)  # the folder of packages
    return dest, report


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_buckets_follow_the_routing_table(imported: tuple[Path, object], name: str) -> None:
    dest, report = imported
    task = load_task(dest / name)
    got = {b.value: [c.id for c in task.cases[b]] for b in Bucket}
    assert got == EXPECTED[name]
    origins = {c.id: c.origin for cs in task.cases.values() for c in cs}
    assert all(o == ("official" if i.startswith("official") else "hack")
               for i, o in origins.items())
    outcome = next(o for o in report.outcomes if o.task_id == name)  # type: ignore[attr-defined]
    assert outcome.converted
    assert {(p.case, p.kind) for p in outcome.problems} == DROPPED[name]
    # the sample tests are the visible ones
    assert [c.id for c in task.cases[Bucket.pre_complete] if c.visible] == (
        ["official-01", "official-02"] if name == "any_divisor" else ["official-01"])


def test_report_counts_each_reason(imported: tuple[Path, object]) -> None:
    _dest, report = imported
    figures = report.figures  # type: ignore[attr-defined]
    assert figures["dropped: duplicate case"] == 8
    assert figures["dropped: truncated test"] == 2
    assert figures["dropped: syntactically invalid hack"] == 4
    assert figures["kept official"] == 36
    assert figures["kept hack"] == 67
    assert [o.converted for o in report.outcomes] == [True, True, True]  # type: ignore[attr-defined]


def test_every_kept_case_round_trips_through_the_task_io(imported: tuple[Path, object]
                                                         ) -> None:
    """Printing each stored value with the task's reference/io.py gives back the package's
    own text, byte for byte."""
    import runpy
    dest, _ = imported
    for name in EXPECTED:
        io = runpy.run_path(str(dest / name / "reference" / "io.py"))
        task = load_task(dest / name)
        for b in Bucket:
            for c in task.cases[b]:
                if c.id.startswith("official-"):
                    n = c.id.split("-")[1]
                    raw_in = (ROOT / name / "tests" / n).read_text()
                    raw_out = (ROOT / name / "tests" / f"{n}.a").read_text()
                else:
                    h = c.id.split("-", 1)[1]  # hack-h7 -> h7, hack-7 -> 7
                    raw_in = (ROOT / name / "hacks" / h).read_text()
                    raw_out = (ROOT / name / "hacks" / f"{h}.out").read_text() \
                        if c.output is not None else ""
                assert io["print_input"](c.input) == raw_in
                if c.output is not None:
                    assert io["print_output"](c.output, c.input) == raw_out


@pytest.mark.parametrize("engine", ["interp", pytest.param(
    "exec_spec", marks=pytest.mark.requires("exec_spec"))])
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_gold_specs_pass_every_bucket(imported: tuple[Path, object], name: str,
                                      engine: str) -> None:
    dest, _ = imported
    task = load_task(dest / name)
    spec = (dest / name / "specs" / "gold.rs").read_text()
    from adequacy.scoring.options import ScoreOptions
    rep = score_spec(task, spec, "gold.rs", ScoreOptions(engines=[engine]))
    assert rep.passed_all, [(v.case_id, v.value, v.reason) for v in rep.verdicts
                            if not v.decided][:3]


def test_a_parser_that_drops_a_field_is_caught(tmp_path: Path) -> None:
    """An io.py whose parser forgets a number (it keeps only the first n - 1 values) and whose
    printer prints what it kept: P(R(t)) != t on every multi-number test, each reported with
    the first differing byte, and the task falls below the bucket minimum."""
    pkg = tmp_path / "max_index"
    shutil.copytree(ROOT / "max_index", pkg)
    io = pkg / "adequacy" / "io.py"
    io.write_text(io.read_text().replace(
        'a = [int(x) for x in second.split(" ")] if second else []\n    if len(a) != n:',
        'a = [int(x) for x in second.split(" ")][:-1] if second else []\n    if False:'))
    report = import_packages([pkg], tmp_path / "out", Options())
    (o,) = report.outcomes
    # the problem is dropped: its conversion fails on official tests
    assert not o.converted and o.problems[0].kind == "conversion fails on official tests"
    # tests 01-07 (08 is truncated); "3\n1 5 2\n" printed from [1, 5] is "2\n1 5\n": the
    # first byte differs
    assert o.problems[0].detail.startswith("7 official text(s) do not convert; first: "
                                           "official-01: input does not round-trip")
    assert "at byte 0" in o.problems[0].detail and "b'3'" in o.problems[0].detail
    assert not (tmp_path / "out" / "max_index").exists()
    assert json.dumps(report.model_dump())  # the report is data
    # without strictness each lossy case is dropped and reported with its first byte
    (o,) = import_packages([pkg], tmp_path / "out2", Options(strict_conversion=False)).outcomes
    trips = {p.case: p.detail for p in o.problems if p.kind == "input does not round-trip"}
    assert {f"official-0{i}" for i in range(1, 8)} | {"hack-h1"} <= set(trips)
    assert "b'1'" in trips["official-02"] and "b'0'" in trips["official-02"]  # "0\n\n"
    assert not o.converted and o.problems[0].kind == "too few cases"


def test_at_most_max_per_bucket_by_a_seeded_sample(tmp_path: Path) -> None:
    """any_divisor holds 14 / 5 / 9 / 5 cases: with at most 5 per bucket, 9 + 4 are sampled
    out, the same ones on every run."""
    runs = []
    for k in range(2):
        report = import_packages([ROOT / "any_divisor"], tmp_path / f"o{k}",
                                 Options(max_per_bucket=5))
        (o,) = report.outcomes
        assert o.converted and o.counts == {b.value: 5 for b in Bucket}
        assert report.figures["dropped: sampled out"] == 13
        task = load_task(tmp_path / f"o{k}" / "any_divisor")
        runs.append({b: [c.id for c in task.cases[b]] for b in Bucket})
    assert runs[0] == runs[1]
    # kept in their original order
    ids = runs[0][Bucket.pre_complete]
    order = EXPECTED["any_divisor"]["pre_complete"]
    assert ids == [i for i in order if i in ids]


def test_too_few_cases_and_float_types_write_nothing(tmp_path: Path) -> None:
    report = import_packages([ROOT / "any_divisor"], tmp_path / "a", Options(min_per_bucket=6))
    (o,) = report.outcomes
    assert not o.converted and o.problems[0].kind == "too few cases"
    assert "pre_sound 5" in o.problems[0].detail and "post_sound 5" in o.problems[0].detail
    assert not (tmp_path / "a" / "any_divisor").exists()
    pkg = tmp_path / "f"
    shutil.copytree(ROOT / "any_divisor", pkg)
    toml = pkg / "adequacy" / "task.toml"
    toml.write_text(toml.read_text().replace('result = "i64"', 'result = "f64"'))
    (o,) = import_packages([pkg], tmp_path / "b").outcomes
    assert not o.converted and o.problems[0].kind == "floating-point I/O unsupported"
    # int is in interp's reach but outside exec_spec's fragment: the paper's filter drops it
    toml.write_text(toml.read_text().replace('result = "f64"', 'result = "int"'))
    (o,) = import_packages([pkg], tmp_path / "c").outcomes
    assert not o.converted and o.problems[0].kind == "types outside the language's fragment"
    assert "output.result: int holds int" in o.problems[0].detail
    assert not (tmp_path / "c" / "any_divisor").exists()


def test_interactive_problems_are_refused(tmp_path: Path) -> None:
    pkg = tmp_path / "i"
    shutil.copytree(ROOT / "any_divisor", pkg)
    xml = pkg / "problem.xml"
    xml.write_text(xml.read_text().replace(
        "<assets>", '<assets>\n<interactor><source path="files/check.py" type="python.3"/>'
        "</interactor>"))
    (o,) = import_packages([pkg], tmp_path / "out").outcomes
    assert not o.converted and o.problems[0].kind == "interactive problem"


def test_cli_import_package_exit_codes(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from adequacy.cli import app
    r = CliRunner().invoke(app, ["import", "package", str(ROOT / "any_divisor"),
                                 str(tmp_path / "out")])
    assert r.exit_code == 0, r.output
    assert "converted 1 of 1" in r.output and (tmp_path / "out" / "any_divisor").is_dir()
    # no mutate by default: the buckets are the routed ones
    assert len(load_task(tmp_path / "out" / "any_divisor").cases[Bucket.post_sound]) == 5
    r = CliRunner().invoke(app, ["import", "package", str(tmp_path / "nothing"),
                                 str(tmp_path / "o2")])
    assert r.exit_code == 2


def test_hostile_package_paths(tmp_path: Path) -> None:
    """A hack that is a symlink out of the package refuses the package (nothing written); a
    folder of the user's in DEST named like our staging folder is left alone; a DEST entry
    with the task's id that is not a task folder is not replaced."""
    pkg = tmp_path / "any_divisor"
    shutil.copytree(ROOT / "any_divisor", pkg)
    secret = tmp_path / "secret"
    secret.write_text("42\n")
    (pkg / "hacks" / "h99").symlink_to(secret)
    dest = tmp_path / "out"
    (dest / ".staging-any_divisor").mkdir(parents=True)
    (dest / ".staging-any_divisor" / "mine.txt").write_text("keep")
    (o,) = import_packages([pkg], dest).outcomes
    assert not o.converted and o.problems[0].kind == "bad package"
    assert "leaves the package" in o.problems[0].detail
    assert (dest / ".staging-any_divisor" / "mine.txt").read_text() == "keep"
    assert sorted(p.name for p in dest.iterdir()) == [".staging-any_divisor"]
    (pkg / "hacks" / "h99").unlink()
    (dest / "any_divisor").mkdir()
    (dest / "any_divisor" / "notes.txt").write_text("mine")
    (o,) = import_packages([pkg], dest).outcomes
    assert not o.converted and o.problems[0].kind == "destination in the way"
    assert (dest / "any_divisor" / "notes.txt").read_text() == "mine"
    assert sorted(p.name for p in dest.iterdir()) == [".staging-any_divisor", "any_divisor"]


@pytest.mark.skipif(not os.environ.get("ADEQUACY_REAL_TESTLIB"),
                    reason="set ADEQUACY_REAL_TESTLIB to a real testlib.h (github.com/"
                           "MikeMirzayanov/testlib) to check our judges against it")
@pytest.mark.parametrize("name", ["max_index", "abs_diff"])
def test_the_real_testlib_gives_the_same_buckets(tmp_path: Path, name: str) -> None:
    """The C++ samples with the real testlib.h in place of ours (same validator, same checker):
    the same buckets, so the samples' judges and our minimal testlib follow the real library's
    API and conventions (found so: a pattern-taking readToken, an ambiguous readLong, a strict
    readEof in checkers)."""
    pkg = tmp_path / name
    shutil.copytree(ROOT / name, pkg)
    shutil.copy(os.environ["ADEQUACY_REAL_TESTLIB"], pkg / "files" / "testlib.h")
    (o,) = import_packages([pkg], tmp_path / "out").outcomes
    assert o.converted, o.problems[:2]
    task = load_task(tmp_path / "out" / name)
    assert {b.value: [c.id for c in task.cases[b]] for b in Bucket} == EXPECTED[name]
