"""The bundled Verus examples' soundness buckets come from ``adequacy mutate``.

Each task carries its own oracles (reference/reference.py, reference/validator.py and a
``[constraints]`` table where the statement's promise fits the vocabulary); the mutated cases in
tests/*.jsonl were made by ``adequacy mutate TASK --per-case 3 --seed 0``. These tests keep the
files honest: the made cases exist, each is re-judged by the task's oracle files, and they are
exactly what the mutator makes from the hand-written cases (so a rerun adds nothing). If the
mutators change on purpose, regenerate with that command and rerun tests/verus/test_examples.py.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from adequacy.examples import bundled_folder
from adequacy.model.task import Case
from adequacy.model.verdicts import Bucket
from adequacy.taskdirs.load import load_task
from adequacy_mutators import mutate_task, params_key, parse_constraints
from adequacy_mutators._oracles import load_module_function

EXAMPLES = bundled_folder("verus")
TASKS = sorted(p for p in EXAMPLES.iterdir() if p.is_dir())
IDS = [p.name for p in TASKS]
PER_CASE, SEED = 3, 0
MADE = ("mutant", "generated")

#: tasks whose statement promises nothing about the input: no invalid input exists
NO_PROMISE = {"is_palindrome"}
#: tasks whose few invalid inputs the hand-written pre_sound cases already hold, so the
#: generator can only make duplicates: name -> every invalid input
EXHAUSTED: dict[str, list[dict[str, Any]]] = {"smallest_divisor": [{"n": 0}, {"n": 1}]}


def _made(task_dir: Path, bucket: Bucket) -> list[Case]:
    return [c for c in load_task(task_dir).cases.get(bucket, []) if c.origin in MADE]


def test_every_bundled_task_is_covered() -> None:
    assert len(TASKS) == 7
    for d in TASKS:
        assert (d / "reference" / "reference.py").is_file()
        assert (d / "reference" / "validator.py").is_file()


@pytest.mark.parametrize("task_dir", TASKS, ids=IDS)
def test_post_sound_has_mutants_judged_wrong_by_the_reference(task_dir: Path) -> None:
    task = load_task(task_dir)
    made = _made(task_dir, Bucket.post_sound)
    assert made and all(c.origin == "mutant" and c.id.startswith("m-") for c in made)
    ref = load_module_function(task_dir / "reference" / "reference.py", "reference")
    valid = load_module_function(task_dir / "reference" / "validator.py", "valid")
    for c in made:
        assert c.output is not None and valid(c.input), c.id
        assert params_key(ref(c.input), task.outputs) != params_key(c.output, task.outputs), c.id


@pytest.mark.parametrize("task_dir", TASKS, ids=IDS)
def test_pre_sound_has_generated_inputs_the_oracles_reject(task_dir: Path) -> None:
    task = load_task(task_dir)
    made = _made(task_dir, Bucket.pre_sound)
    cons = parse_constraints(task.constraints, task.inputs)
    valid = load_module_function(task_dir / "reference" / "validator.py", "valid")
    if task_dir.name in NO_PROMISE:
        assert not cons and not task.cases.get(Bucket.pre_sound)
        return
    for c in made:
        assert c.origin == "generated" and c.id.startswith("g-") and not valid(c.input), c.id
        assert not cons or cons.violations(c.input), c.id
    if task_dir.name in EXHAUSTED:
        held = {params_key(c.input, task.inputs) for c in task.cases[Bucket.pre_sound]}
        every = EXHAUSTED[task_dir.name]
        assert all(not valid(i) for i in every)
        assert {params_key(i, task.inputs) for i in every} <= held
        return
    assert made


@pytest.mark.parametrize("task_dir", TASKS, ids=IDS)
def test_rerun_with_the_same_seed_adds_nothing(task_dir: Path, tmp_path: Path) -> None:
    copy = tmp_path / task_dir.name
    shutil.copytree(task_dir, copy)
    before = {p.name: p.read_bytes() for p in (copy / "tests").iterdir()}
    report = mutate_task(copy, per_case=PER_CASE, seed=SEED)
    assert (report.post_sound_added, report.pre_sound_added) == (0, 0)
    assert {p.name: p.read_bytes() for p in (copy / "tests").iterdir()} == before


@pytest.mark.parametrize("task_dir", TASKS, ids=IDS)
def test_made_cases_are_what_mutate_makes_from_the_hand_cases(task_dir: Path,
                                                               tmp_path: Path) -> None:
    """Strip the made cases from a copy and mutate again: the same cases come back."""
    copy = tmp_path / task_dir.name
    shutil.copytree(task_dir, copy)
    for bucket in (Bucket.post_sound, Bucket.pre_sound):
        path = copy / "tests" / f"{bucket.value}.jsonl"
        kept = [ln for ln in path.read_text().splitlines(keepends=True)
                if not any(f'"origin": "{o}"' in ln for o in MADE)]
        path.write_text("".join(kept))
    mutate_task(copy, per_case=PER_CASE, seed=SEED)
    for bucket in (Bucket.post_sound, Bucket.pre_sound):
        ours = {(c.id, params_key(c.input, load_task(task_dir).inputs))
                for c in _made(task_dir, bucket)}
        again = {(c.id, params_key(c.input, load_task(copy).inputs)) for c in _made(copy, bucket)}
        assert again == ours, bucket.value
