"""exec_spec on `int`-quantified specs (the common Verus form) against real cargo + vstd.

Truths by hand from Verus's meaning (guide: `int` is the mathematical integers, a quantifier
ranges over every value its guard admits): the rewrite to `usize` binders must give the same
verdicts, and `unknown` wherever the machine type cannot follow Verus (a value below 0, a bound
that is not a `usize`).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from adequacy.extensions.backend import Limits
from adequacy.model.task import Task
from adequacy.model.verdicts import Truth
from adequacy.taskdirs.load import load_task
from adequacy_verus.exec_spec import engine
from adequacy_verus.frontend import parse_spec
from adequacy_verus.skeleton import skeleton_for

pytestmark = [pytest.mark.slow, pytest.mark.requires("exec_spec")]

TOML = """id = "quant"
language = "verus"
title = "Int quantifiers"

[signature.input]
a = "seq<i64>"
k = "i64"

[signature.output]
result = "usize"
"""

CASES = {
    "pre_complete": [
        {"id": "all_nonneg", "input": {"a": [1, 0, 3], "k": 0}},      # every a[i] >= 0 -> true
        {"id": "one_negative", "input": {"a": [1, -2], "k": 0}},      # a[1] = -2 -> false
        {"id": "empty", "input": {"a": [], "k": 0}},                  # vacuous -> true
    ],
    "post_complete": [
        {"id": "found", "input": {"a": [5, 7], "k": 7}, "output": {"result": 1}},   # i = 1
        {"id": "wrong_index", "input": {"a": [5, 7], "k": 7}, "output": {"result": 0}},
        {"id": "absent", "input": {"a": [5], "k": 7}, "output": {"result": 0}},
    ],
}


def make_task(tmp_path: Path) -> Task:
    d = tmp_path / "quant"
    (d / "tests").mkdir(parents=True)
    (d / "task.toml").write_text(TOML)
    (d / "skeleton.rs").write_text("placeholder")
    for b, rows in CASES.items():
        (d / "tests" / f"{b}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    task = load_task(d)
    (d / "skeleton.rs").write_text(skeleton_for(task))
    return load_task(d)


def fill(task: Task, pre: str, post: str) -> str:
    text = task.skeleton.replace("spec fn pre_spec(input: Input) -> bool {\n    true\n}",
                                 "spec fn pre_spec(input: Input) -> bool {\n" + pre + "\n}")
    return text.replace("spec fn post_spec(input: Input, output: Output) -> bool {\n    true\n}",
                        "spec fn post_spec(input: Input, output: Output) -> bool {\n" + post +
                        "\n}")


def verdicts(tmp_path: Path, pre: str, post: str) -> dict[str, Truth]:
    task = make_task(tmp_path)
    text = fill(task, pre, post)
    return {v.case_id: v.value for v in engine.check(
        text, task, task.all_cases(), Limits(), module=parse_spec(text, "spec.rs"))}


def test_int_forall_and_exists_are_decided(tmp_path: Path) -> None:
    got = verdicts(
        tmp_path,
        "    forall|i: int| 0 <= i < input.a.len() ==> input.a[i] >= 0",
        "    exists|i: int| 0 <= i < input.a.len() && (input.a[i] == input.k "
        "&& i == output.result as int)")
    assert got == {"all_nonneg": Truth.true, "one_negative": Truth.false, "empty": Truth.true,
                   "found": Truth.true, "wrong_index": Truth.false, "absent": Truth.false}


def test_values_a_usize_binder_cannot_hold_are_computed_in_int(tmp_path: Path) -> None:
    # Verus: every pre case has k == 0, so `0 <= i < k` is empty and the pre is true (the i64
    # bound is converted to usize by __ade_usize, a panic if it were negative). In the post,
    # `i - 1` is an int (widen.py: i128), -1 at i == 0: found (len 2, result 1): -1 < 1 and
    # 0 < 1, true; wrong_index (len 2, result 0): at i == 1, 0 < 0 fails, false; absent (len 1,
    # result 0): -1 < 0, true.
    got = verdicts(
        tmp_path,
        "    forall|i: int| 0 <= i < input.k ==> input.a[i] >= 0",
        "    forall|i: int| 0 <= i < input.a.len() ==> i - 1 < output.result as int")
    assert got == {"all_nonneg": Truth.true, "one_negative": Truth.true, "empty": Truth.true,
                   "found": Truth.true, "wrong_index": Truth.false, "absent": Truth.true}


def test_a_negative_bound_is_unknown_not_a_shorter_range(tmp_path: Path) -> None:
    # `-1 <= i < len` includes i == -1 in Verus, where a[-1] is unspecified: a usize binder
    # would silently start at 0, so the bound must panic (unknown)
    got = verdicts(
        tmp_path,
        "    forall|i: int| input.k - 1 <= i < input.a.len() ==> input.a[i] >= 0",
        "    true")
    assert {got[c] for c in ("all_nonneg", "one_negative", "empty")} == {Truth.unknown}


def test_a_binder_without_lower_bound_is_never_decided_as_if_it_were_unsigned(
        tmp_path: Path) -> None:
    # Verus: `i < 2 ==> i >= 0` fails at i == -1, so the pre is false for every input, and
    # `exists|i| i < 1 && i + 1 == 0` holds (i == -1). A usize binder would see only i >= 0
    # and answer the opposite; the macro needs both bounds, so both stay unknown (or right).
    got = verdicts(tmp_path, "    forall|i: int| i < 2 ==> i >= 0",
                   "    exists|i: int| i < 1 && (i + 1 == 0)")
    pre = {got[c] for c in ("all_nonneg", "one_negative", "empty")}
    post = {got[c] for c in ("found", "wrong_index", "absent")}
    assert pre <= {Truth.false, Truth.unknown} and post <= {Truth.true, Truth.unknown}
