"""``made_by`` and ``note`` on a case: written, read back, and refused with file and line when
malformed (case files may come from anyone)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from adequacy.errors import TaskError
from adequacy.model.task import Case
from adequacy.model.verdicts import Bucket
from adequacy.taskdirs.load import load_task, write_cases

pytestmark = pytest.mark.usefixtures("toy")


def test_written_and_read_back(toy_task: Path) -> None:
    task = load_task(toy_task)
    c = Case(id="p-arith.swap-1", bucket=Bucket.post_sound, input={"x": 2},
             output={"result": 1}, origin="program_mutant",
             made_by=("arith.swap@reference/reference.py:2",), note="why it is here")
    write_cases(toy_task, Bucket.post_sound, [*task.cases[Bucket.post_sound], c])
    got = {x.id: x for x in load_task(toy_task).cases[Bucket.post_sound]}["p-arith.swap-1"]
    assert got.made_by == c.made_by and got.note == "why it is here"
    assert got.origin == "program_mutant"
    # cases without them are written as before (no empty keys)
    line = (toy_task / "tests" / "post_sound.jsonl").read_text().splitlines()[0]
    assert "made_by" not in line and "note" not in line


@pytest.mark.parametrize("extra", [{"made_by": "not a list"}, {"made_by": [""]},
                                   {"made_by": [1]}, {"made_by": ["x" * 301]},
                                   {"note": 5}, {"note": "x" * 2001}])
def test_malformed_is_refused_with_its_line(toy_task: Path, extra: dict[str, object]) -> None:
    p = toy_task / "tests" / "post_sound.jsonl"
    p.write_text(p.read_text() + json.dumps({"id": "bad", "input": {"x": 1},
                                             "output": {"result": 0}, **extra}) + "\n")
    with pytest.raises(TaskError) as e:
        load_task(toy_task)
    assert e.value.line == 3 and "post_sound.jsonl" in str(e.value)


def test_strings_with_unicode_line_breaks_stay_on_their_line(toy_task: Path) -> None:
    # U+0085 and U+2028 are line breaks to str.splitlines(), not to JSON lines
    task = load_task(toy_task)
    weird = "a\x85b\u2028c\x1cd"
    c = Case(id="w", bucket=Bucket.post_sound, input={"x": 3}, output={"result": 7},
             note=weird)
    write_cases(toy_task, Bucket.post_sound, [*task.cases[Bucket.post_sound], c])
    got = {x.id: x for x in load_task(toy_task).cases[Bucket.post_sound]}
    assert got["w"].note == weird and len(got) == 3


def test_the_import_summary_lists_thin_tasks_apart() -> None:
    from adequacy.cli.data import _sound_lines

    lines = _sound_lines({"SGB_Fibonacci": (91, 182)}, ["a", "b"], ["SGB_Abs"], ["c"])
    assert lines[0].startswith("moved to pre_sound: 91 recorded valid input(s) (182 cases) in "
                               "1 task(s)") and "SGB_Fibonacci 91" in lines[0]
    assert lines[1] == ("pre_sound: 2 task(s) with >= 3 cases or every_input_valid; 1 with a "
                        "thin invalid domain, recorded with its evidence in task.toml (SGB_Abs)"
                        "; 1 short for other reasons (c: `adequacy cases generate TASK "
                        "--dry-run` says why)")
    assert _sound_lines({}, ["a"], [], []) == [
        "pre_sound: 1 task(s) with >= 3 cases or every_input_valid"]


def test_thin_domain_is_read_and_cannot_sit_beside_every_input_valid(toy_task: Path) -> None:
    toml = toy_task / "task.toml"
    base = toml.read_text()
    toml.write_text('thin_invalid_domain = true\nthin_invalid_domain_reason = "why"\n' + base)
    task = load_task(toy_task)
    assert task.thin_invalid_domain and task.thin_invalid_domain_reason == "why"
    (toy_task / "tests" / "pre_sound.jsonl").unlink()
    toml.write_text('thin_invalid_domain = true\nevery_input_valid = true\n' + base)
    with pytest.raises(TaskError) as e:
        load_task(toy_task)
    assert e.value.line == 1 and "thin_invalid_domain" in str(e.value)
