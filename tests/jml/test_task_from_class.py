"""``adequacy task from`` on a Java class with JML (tests/fixtures/programs/MaxOf.java, ours):
the method's signature becomes the task's, the file is both the reference and
``specs/original.java``, and the cases are the inputs on which the method returns normally,
with its results. Truths by hand: ``max`` returns the larger argument; ``largest`` throws on an
empty array (so no derived case is empty); ``square`` returns normally everywhere, and its
requires (0..10) decides which inputs are valid."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from adequacy.errors import TaskError
from adequacy.model.verdicts import Bucket
from adequacy.scoring.options import ScoreOptions
from adequacy.scoring.runner import score_spec
from adequacy.taskdirs.load import load_task
from adequacy_openjml.task_from import convert

REPO = Path(__file__).resolve().parents[2]
PROGRAM = REPO / "tests" / "fixtures" / "programs" / "MaxOf.java"


def _rows(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text().splitlines() if x.strip()]


@pytest.mark.slow
def test_an_overload_becomes_a_task_whose_cases_are_the_methods_results(tmp_path: Path
                                                                        ) -> None:
    dest = tmp_path / "t"
    done = convert(PROGRAM, "max(int, int)", dest, draws=12)
    task = load_task(dest)
    assert task.id == "MaxOf_max_int_int"
    assert {p.name: str(p.type) for p in task.inputs} == {"a": "i32", "b": "i32"}
    rows = _rows(dest / "tests" / "post_complete.jsonl")
    assert done.cases == len(rows) >= 5
    for r in rows:
        assert r["output"]["result"] == max(r["input"]["a"], r["input"]["b"])
    spec = (dest / "specs" / "original.java").read_text()
    rep = score_spec(task, spec, "original.java", ScoreOptions(engines=["rac"]))
    assert rep.status == "scored"
    assert all(s.passed == s.total for s in rep.buckets.values())
    wrong = spec.replace("\\result == a || \\result == b", "\\result == a")
    bad = score_spec(task, wrong, "wrong.java", ScoreOptions(engines=["rac"]))
    assert bad.buckets[Bucket.post_complete].failed == sum(
        r["input"]["a"] < r["input"]["b"] for r in rows)


@pytest.mark.slow
def test_inputs_the_method_throws_on_are_left_out(tmp_path: Path) -> None:
    dest = tmp_path / "t"
    convert(PROGRAM, "largest", dest, draws=15)
    rows = _rows(dest / "tests" / "post_complete.jsonl")
    assert rows and all(r["input"]["arr"] for r in rows)
    for r in rows:
        assert r["output"]["result"] == max(r["input"]["arr"])


@pytest.mark.slow
def test_the_programs_own_precondition_splits_valid_from_invalid(tmp_path: Path) -> None:
    """``square`` returns normally on every int; its requires (0..10) says which are valid."""
    dest = tmp_path / "t"
    done = convert(PROGRAM, "square", dest, draws=30)
    valid = _rows(dest / "tests" / "pre_complete.jsonl")
    invalid = _rows(dest / "tests" / "pre_sound.jsonl")
    assert done.cases == len(valid) and done.invalid == len(invalid)
    assert valid and invalid
    assert all(0 <= r["input"]["n"] <= 10 for r in valid)
    assert all(not 0 <= r["input"]["n"] <= 10 for r in invalid)
    for r in _rows(dest / "tests" / "post_complete.jsonl"):
        assert r["output"]["result"] == r["input"]["n"] ** 2


@pytest.mark.slow
def test_a_method_using_another_file_of_the_program_runs_with_it(tmp_path: Path) -> None:
    folder = REPO / "tests" / "fixtures" / "programs" / "twofiles"
    with pytest.raises(TaskError, match="returned normally on none"):
        convert(folder / "Doubler.java", "twice", tmp_path / "alone", draws=5)
    dest = tmp_path / "t"
    done = convert(folder / "Doubler.java", "twice", dest, draws=10,
                   extra=[folder / "Adder.java"])
    assert done.cases >= 3
    text = (dest / "Solution.java").read_text()
    assert text.count("public class") == 1 and "class Adder" in text
    assert text.splitlines()[2].strip() == "//@ ensures \\result == 2 * x;"  # lines kept
    for r in _rows(dest / "tests" / "post_complete.jsonl"):
        assert r["output"]["result"] == 2 * r["input"]["x"]


@pytest.mark.parametrize(("function", "words"), [
    ("max", "names 2 overloads"),
    ("nothing", "void, changes no array parameter and its ensures read no field"),
    ("min", "methods: "),
])
def test_what_is_out_of_reach_is_said(tmp_path: Path, function: str, words: str) -> None:
    with pytest.raises(TaskError) as e:
        convert(PROGRAM, function, tmp_path / "t")
    assert words in str(e.value) and e.value.file == str(PROGRAM)


@pytest.mark.slow
def test_integer_bounds_beside_an_array_are_drawn_to_fit_it(tmp_path: Path) -> None:
    """``fill(a, from, to, v)`` requires ``0 <= from <= to <= a.length``: with bounds drawn
    from -10..10 against arrays of at most 3 elements about one draw in a hundred fits, so
    none of 40 did and ``fill`` was out of reach. Half the draws now take the integers from
    -1..len+1. Truth by hand: each valid case's output is the input array with ``a[from..to)``
    set to ``v``; the inputs the precondition rejects go to ``pre_sound``."""
    dest = tmp_path / "t"
    done = convert(PROGRAM, "fill", dest, draws=40)
    valid = _rows(dest / "tests" / "post_complete.jsonl")
    assert done.cases == len(valid) >= 3
    for r in valid:
        i = r["input"]
        assert 0 <= i["from"] <= i["to"] <= len(i["a"])
        want = [i["v"] if i["from"] <= k < i["to"] else x for k, x in enumerate(i["a"])]
        assert r["output"]["a"] == want
    for r in _rows(dest / "tests" / "pre_sound.jsonl"):
        i = r["input"]
        assert not 0 <= i["from"] <= i["to"] <= len(i["a"])
    task = load_task(dest)
    spec = (dest / "specs" / "original.java").read_text()
    rep = score_spec(task, spec, "original.java", ScoreOptions(engines=["rac"]))
    assert rep.status == "scored"
    assert all(s.passed == s.total and not s.unknown for s in rep.buckets.values())


@pytest.mark.slow
def test_an_instance_method_runs_on_a_default_constructed_receiver(tmp_path: Path) -> None:
    """Stepper declares no constructor, so Java gives it one without arguments, which sets
    ``step = 3``. Truth by hand: every case's result is ``x + 3``."""
    dest = tmp_path / "t"
    done = convert(PROGRAM.parent / "Stepper.java", "next", dest, draws=10)
    task = load_task(dest)
    assert task.settings["static"] is False
    rows = _rows(dest / "tests" / "post_complete.jsonl")
    assert done.cases == len(rows) >= 5
    assert all(r["output"]["result"] == r["input"]["x"] + 3 for r in rows)
    spec = (dest / "specs" / "original.java").read_text()
    rep = score_spec(task, spec, "original.java", ScoreOptions(engines=["rac"]))
    assert all(s.passed == s.total and not s.unknown for s in rep.buckets.values())


def test_a_receiver_whose_constructors_all_take_arguments_is_out_of_reach(tmp_path: Path
                                                                          ) -> None:
    """Counter's only constructor takes ``start``: the no-argument constructor a task's
    receiver comes from does not exist, which is said before any input is drawn."""
    program = PROGRAM.parent / "Counter.java"
    with pytest.raises(TaskError) as e:
        convert(program, "peek", tmp_path / "t")
    assert "every constructor of `Counter` takes arguments (`Counter(int)`)" in str(e.value)
    assert e.value.file == str(program) and e.value.line == 10


@pytest.mark.slow
def test_a_precondition_rac_cannot_decide_is_not_called_one_that_rejects(tmp_path: Path
                                                                         ) -> None:
    """``same`` requires ``0 <= x`` and runs on every int, but its class has a pure method
    that allocates (``fresh``), which rac does not follow: every pre case is unknown. The
    method is out of reach for that reason, not because its precondition rejects all."""
    program = PROGRAM.parent / "Undecided.java"
    with pytest.raises(TaskError) as e:
        convert(program, "same", tmp_path / "t", draws=8)
    msg = str(e.value)
    assert "rac cannot decide its precondition" in msg and "pure method fresh allocates" in msg
    assert "accepts none" not in msg and e.value.line == 4
