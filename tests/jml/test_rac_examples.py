"""Bundled examples: gold specs pass every case; flawed specs fail exactly where intended."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from jml_support import EXAMPLES

from adequacy.extensions.backend import Limits, engine_named
from adequacy.model.verdicts import BUCKETS
from adequacy.taskdirs.load import check_task, load_task
from adequacy_openjml.plugin import OpenJmlBackend

TASKS = sorted(p for p in EXAMPLES.iterdir() if (p / "task.toml").exists())
SPECS = [(t, s) for t in TASKS for s in sorted((t / "specs").glob("*.java"))]


def test_at_least_six_examples_with_flawed_specs() -> None:
    assert len(TASKS) >= 6
    for t in TASKS:
        expected = tomllib.loads((t / "specs" / "expected.toml").read_text())
        assert "gold" in expected and len(expected) >= 2, t
        assert {s.stem for s in (t / "specs").glob("*.java")} == set(expected), t


@pytest.mark.parametrize("task_dir", TASKS, ids=lambda p: p.name)
def test_examples_are_valid_tasks(task_dir: Path) -> None:
    task, errors = check_task(task_dir)
    assert not errors, errors
    assert task is not None and all(task.cases.get(b) for b in BUCKETS)


@pytest.mark.slow
@pytest.mark.requires("javac")
@pytest.mark.parametrize("task_dir, spec", SPECS, ids=lambda p: p.name)
def test_spec_fails_where_intended(task_dir: Path, spec: Path) -> None:
    expected = tomllib.loads((task_dir / "specs" / "expected.toml").read_text())
    task = load_task(task_dir)
    b = OpenJmlBackend()
    loaded = b.load_spec(task, spec.read_text(), str(spec))
    verdicts = engine_named(b, "rac").check(loaded, task, task.all_cases(), Limits())
    failed = {v.bucket.value for v in verdicts if not v.passed}
    assert failed == set(expected[spec.stem]["fails"]), [
        (v.bucket.value, v.case_id, v.value.value, v.reason) for v in verdicts if not v.passed]


@pytest.mark.slow
@pytest.mark.requires("javac")
def test_case_conversion_flaws_in_detail() -> None:
    """The strong-precondition/one-branch spec: which cases, and why (worked by hand)."""
    task_dir = EXAMPLES / "swap_case"
    task = load_task(task_dir)
    b = OpenJmlBackend()
    spec = b.load_spec(task, (task_dir / "specs" / "flawed_strong_pre_one_branch.java")
                       .read_text(), "flawed.java")
    vs = {(v.bucket.value, v.case_id): v for v in engine_named(b, "rac").check(
        spec, task, task.all_cases(), Limits())}
    # 'Hello World' and '123' are valid inputs but not all-lowercase: wrongly rejected
    assert vs[("pre_complete", "mixed")].value.value == "false"
    assert vs[("pre_complete", "digits")].value.value == "false"
    assert vs[("pre_complete", "lower")].value.value == "true"
    # wrong outputs for inputs outside the precondition are vacuously accepted
    assert vs[("post_sound", "upper-kept")].value.value == "true"
    assert vs[("post_sound", "upper-branch")].value.value == "true"
    # on its own branch the flawed spec still rejects wrong outputs
    assert vs[("post_sound", "unchanged")].value.value == "false"


@pytest.mark.slow
@pytest.mark.requires("javac")
def test_run_reference() -> None:
    b = OpenJmlBackend()
    t = load_task(EXAMPLES / "swap_case")
    assert b.run_reference(t, [{"s": "aB1"}, {"s": None}]) == [{"result": "Ab1"}, None]
    t = load_task(EXAMPLES / "reverse_in_place")
    assert b.run_reference(t, [{"a": [1, 2, 3]}]) == [{"a": [3, 2, 1]}]
    t = load_task(EXAMPLES / "abs_value")
    # -MIN_VALUE overflows: under JML's safe math (OpenJML's default for code) the input is
    # outside the method's domain, so it gives no output (Java's would be MIN_VALUE itself)
    assert b.run_reference(t, [{"x": -2147483648}, {"x": -5}]) == [None, {"result": 5}]
