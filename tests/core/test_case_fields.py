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
