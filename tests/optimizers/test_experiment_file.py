"""``adequacy experiment run``: a study file's sources are written once and scored once (a
rerun scores nothing new), every record carries the file's SHA-256, and a bad study file is one
line naming the file and the line."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from adequacy.errors import TaskError
from adequacy.examples import bundled_folder
from adequacy_optimizers.experiment import load_study, run_study

REPO = Path(__file__).resolve().parents[2]
EUCLID = bundled_folder("verus") / "euclid_mod"

STUDY = f"""
name = "t"
tasks = ["{EUCLID}"]
results = "res.jsonl"
out = "written"
cache = false

[[specs]]
name = "bundled"
glob = "default"

[[specs]]
name = "templates"
writer = "templates"

[scoring]
engines = ["interp"]
"""


def _records(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text().splitlines() if x.strip()]


def test_a_rerun_scores_nothing_new_and_records_the_file_hash(tmp_path: Path) -> None:
    f = tmp_path / "study.toml"
    f.write_text(STUDY)
    sha = hashlib.sha256(f.read_bytes()).hexdigest()
    first = run_study(load_study(f), workers=1, progress=False)
    bundled = len([p for p in (EUCLID / "specs").glob("*.rs")])
    by = {s.name: s for s in first.sources}
    assert by["bundled"].specs == bundled and by["bundled"].writer is None
    assert by["templates"].specs == 1 and by["templates"].written_now
    assert first.batch.total == bundled + 1 and first.batch.computed == bundled + 1
    assert by["bundled"].passed_all >= 1  # the gold spec
    recs = _records(tmp_path / "res.jsonl")
    assert len(recs) == bundled + 1
    assert {r["producer"]["experiment"] for r in recs} == {sha}
    assert {r["producer"]["writer"] for r in recs} == {"bundled", "templates"}
    written = (tmp_path / "written" / "templates" / "jobs.jsonl").read_text()

    second = run_study(load_study(f), workers=1, progress=False)
    assert second.batch.computed == 0 and second.batch.skipped_done == bundled + 1
    assert not {s.name: s for s in second.sources}["templates"].written_now
    assert (tmp_path / "written" / "templates" / "jobs.jsonl").read_text() == written
    assert len(_records(tmp_path / "res.jsonl")) == bundled + 1


def test_a_changed_writer_setting_writes_again(tmp_path: Path) -> None:
    f = tmp_path / "study.toml"
    f.write_text(STUDY)
    run_study(load_study(f), workers=1, progress=False)
    f.write_text(STUDY.replace('writer = "templates"', 'writer = "templates"\nsamples = 2'))
    again = run_study(load_study(f), workers=1, progress=False)
    t = {s.name: s for s in again.sources}["templates"]
    assert t.written_now  # the settings changed: the old write is not reused
    stamp = json.loads((tmp_path / "written" / "templates" / "source.json").read_text())
    assert stamp["source"]["samples"] == 2


@pytest.mark.parametrize(("edit", "line", "words"), [
    (lambda s: s.replace('cache = false', 'cache = false\ncolour = "red"'), 7, "colour"),
    (lambda s: s.replace('glob = "default"', 'glob = "default"\nwriter = "templates"'), 8,
     "exactly one of glob or writer"),
    (lambda s: s.replace('engines = ["interp"]', 'engines = "interp"'), 17, "engines"),
    (lambda s: s.replace('name = "templates"', 'name = "templates'), 13, "TOML"),
    (lambda s: s + '\n[[specs]]\nname = "m"\nwriter = "dspy"\n', 19, "needs model"),
])
def test_a_bad_study_names_the_file_and_line(tmp_path: Path, edit, line: int,
                                             words: str) -> None:
    f = tmp_path / "study.toml"
    f.write_text(edit(STUDY))
    with pytest.raises(TaskError) as e:
        load_study(f)
    assert e.value.file == str(f) and e.value.line == line, (str(e.value), e.value.line)
    assert words in str(e.value)


def test_the_cli_runs_a_study_and_refuses_a_bad_one(tmp_path: Path) -> None:
    f = tmp_path / "study.toml"
    f.write_text(STUDY)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    cmd = [sys.executable, "-m", "adequacy", "experiment", "run", str(f), "--no-progress"]
    r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)
    assert r.returncode == 0, r.stderr
    assert "templates" in r.stdout and "scored now" in r.stdout
    f.write_text(STUDY.replace("[scoring]", "[scoring\n"))
    bad = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
    assert bad.returncode == 2 and f"{f}:" in bad.stderr and "Traceback" not in bad.stderr
