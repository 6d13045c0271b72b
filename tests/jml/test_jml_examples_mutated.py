"""The bundled JML examples' soundness buckets come from ``adequacy mutate``.

Each task carries a ``reference/validator.py`` and a ``[constraints]`` table where the
statement's promise fits the vocabulary; its output oracle is the task's own Java method run
by the backend (``run_reference`` in the rac worker), so no reference.py exists. The made cases
in tests/*.jsonl come from ``adequacy mutate TASK --per-case 3 --seed 0``. These tests keep the
files honest: the made cases exist, each is re-judged (the Java reference for outputs, the
validator and constraints for inputs), and they are exactly what the mutator makes from the
hand-written cases. tests/jml/test_rac_examples.py checks that gold specs still pass all of
them and flawed specs fail exactly their named buckets. If the mutators change on purpose,
regenerate with that command and rerun both files.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from jml_support import EXAMPLES

from adequacy.model.task import Case
from adequacy.model.verdicts import Bucket
from adequacy.taskdirs.load import load_task
from adequacy_mutators import mutate_task, params_key, parse_constraints
from adequacy_mutators._oracles import load_module_function
from adequacy_openjml.plugin import OpenJmlBackend

TASKS = sorted(p for p in EXAMPLES.iterdir() if (p / "task.toml").is_file())
IDS = [p.name for p in TASKS]
PER_CASE, SEED = 3, 0
MADE = ("mutant", "generated")

#: tasks whose few invalid inputs the hand-written pre_sound cases already hold, so the
#: generator can only make duplicates: name -> every invalid input
EXHAUSTED: dict[str, list[dict[str, Any]]] = {
    "abs_value": [{"x": -(2**31)}],
    "array_max": [{"a": None}, {"a": []}],
    "reverse_in_place": [{"a": None}],
    "swap_case": [{"s": None}],
}
#: tasks whose remaining invalid inputs no constraint can describe (the validator alone knows
#: them), so nothing is generated: array_sum's overflowing sums; null is held by hand
VALIDATOR_ONLY = {"array_sum": [{"a": None}, {"a": [2147483647, 1]}]}


def _made(task_dir: Path, bucket: Bucket) -> list[Case]:
    return [c for c in load_task(task_dir).cases.get(bucket, []) if c.origin in MADE]


def test_every_bundled_task_is_covered() -> None:
    assert len(TASKS) == 7
    for d in TASKS:
        assert (d / "reference" / "validator.py").is_file()
        assert not (d / "reference" / "reference.py").exists()  # the Java method is the oracle
        assert load_task(d).constraints, d.name


@pytest.mark.parametrize("task_dir", TASKS, ids=IDS)
def test_validator_and_constraints_accept_every_valid_input(task_dir: Path) -> None:
    task = load_task(task_dir)
    valid = load_module_function(task_dir / "reference" / "validator.py", "valid")
    cons = parse_constraints(task.constraints, task.inputs)
    for b in (Bucket.pre_complete, Bucket.post_complete, Bucket.post_sound):
        for c in task.cases.get(b, []):
            assert valid(c.input) is True, (b.value, c.id)
            assert not cons.violations(c.input), (b.value, c.id)
    for c in task.cases.get(Bucket.pre_sound, []):
        assert valid(c.input) is False, c.id


@pytest.mark.slow
@pytest.mark.requires("javac")
@pytest.mark.parametrize("task_dir", TASKS, ids=IDS)
def test_post_sound_has_mutants_the_java_reference_calls_wrong(task_dir: Path) -> None:
    task = load_task(task_dir)
    made = _made(task_dir, Bucket.post_sound)
    assert made and all(c.origin == "mutant" and c.id.startswith("m-") for c in made)
    valid = load_module_function(task_dir / "reference" / "validator.py", "valid")
    refs = OpenJmlBackend().run_reference(task, [c.input for c in made])
    for c, ref in zip(made, refs, strict=True):
        assert c.output is not None and valid(c.input), c.id
        if ref is None and task_dir.name == "array_sum":
            # the validator admits [MAX_VALUE, 1, -1] (the total fits), but the loop's
            # partial sum overflows, so the checked reference gives no output (JML's safe
            # math); the right output is the sum, by hand
            assert c.output != {"result": sum(c.input["a"])}, c.id
            continue
        assert ref is not None, c.id
        assert params_key(ref, task.outputs) != params_key(c.output, task.outputs), c.id
    # and the reference agrees with every hand-written right output
    right = task.cases[Bucket.post_complete]
    for c, ref in zip(right, OpenJmlBackend().run_reference(task, [c.input for c in right]),
                      strict=True):
        if ref is None and task_dir.name == "array_sum":  # the partial sum overflows, above
            assert c.output == {"result": sum(c.input["a"])}, c.id
            continue
        assert ref is not None and params_key(ref, task.outputs) == \
            params_key(c.output or {}, task.outputs), c.id


@pytest.mark.parametrize("task_dir", TASKS, ids=IDS)
def test_pre_sound_has_generated_inputs_the_oracles_reject(task_dir: Path) -> None:
    task = load_task(task_dir)
    made = _made(task_dir, Bucket.pre_sound)
    cons = parse_constraints(task.constraints, task.inputs)
    valid = load_module_function(task_dir / "reference" / "validator.py", "valid")
    for c in made:
        assert c.origin == "generated" and c.id.startswith("g-") and not valid(c.input), c.id
        assert cons.violations(c.input), c.id
    held = {params_key(c.input, task.inputs) for c in task.cases[Bucket.pre_sound]}
    for table in (EXHAUSTED, VALIDATOR_ONLY):
        if task_dir.name in table:
            every = table[task_dir.name]
            assert all(not valid(i) for i in every)
            assert {params_key(i, task.inputs) for i in every} <= held
            assert not made
            return
    assert made


@pytest.mark.slow
@pytest.mark.requires("javac")
@pytest.mark.parametrize("task_dir", TASKS, ids=IDS)
def test_rerun_with_the_same_seed_adds_nothing(task_dir: Path, tmp_path: Path) -> None:
    copy = tmp_path / task_dir.name
    shutil.copytree(task_dir, copy)
    before = {p.name: p.read_bytes() for p in (copy / "tests").iterdir()}
    report = mutate_task(copy, per_case=PER_CASE, seed=SEED)
    assert (report.post_sound_added, report.pre_sound_added) == (0, 0)
    assert {p.name: p.read_bytes() for p in (copy / "tests").iterdir()} == before


@pytest.mark.slow
@pytest.mark.requires("javac")
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
    inputs = load_task(task_dir).inputs
    for bucket in (Bucket.post_sound, Bucket.pre_sound):
        ours = {(c.id, params_key(c.input, inputs)) for c in _made(task_dir, bucket)}
        again = {(c.id, params_key(c.input, inputs)) for c in _made(copy, bucket)}
        assert again == ours, bucket.value
