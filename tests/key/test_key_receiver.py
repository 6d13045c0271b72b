"""KeY on an instance method whose spec reads the receiver's fields in the pre-state, and
calls a method of the class with an arithmetic argument.

Before: a stub's ``this`` was unconstrained, so no case reading ``count`` was decided (all of
SpecGen's BankAccount: 0 of 102 such cases); and ``ok(count - k)`` did not load ("Method
ok(\\bigint) not found"), leaving every case of the spec unknown. Now the stubs assume the
fields of the object the no-argument constructor builds (run in rac's JVM, never taken from
the spec's constructor contract) and narrow the argument to ``int`` where it is in range.

Truths by hand, fresh ``Counter``: count = 3, tag = null.
- pre ``ok(count - k)``: k = 1 -> ok(2) true; k = 5 -> ok(-2) false; k = -2147483647 ->
  3 + 2147483647 is outside int, the call is ill-defined: unknown (rac: out of range).
- post ``\\result == count - k``: k = 1 with 2 true, with 3 false.
- pre of ``named()``: ``tag == null`` true on the fresh object."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from adequacy.extensions.backend import Limits, engine_named
from adequacy.model.task import Task
from adequacy.model.verdicts import Truth
from adequacy.taskdirs.load import load_task
from adequacy_openjml.plugin import OpenJmlBackend

pytestmark = [pytest.mark.slow, pytest.mark.requires("key")]

COUNTER = """public class Counter {
    int count = 3;
    String tag;

    //@ ensures \\result == (0 <= n);
    /*@ pure @*/ boolean ok(int n) { return 0 <= n; }

    //@ requires ok(count - k);
    //@ ensures \\result == count - k;
    /*@ pure @*/ int left(int k) { return count - k; }

    //@ requires tag == null;
    //@ ensures \\result == k;
    /*@ pure @*/ int named(int k) { return k; }
}
"""


def _task(root: Path, method: str, cases: dict[str, list[dict[str, object]]]) -> Task:
    root.mkdir(parents=True)
    (root / "task.toml").write_text(
        f'id = "counter_{method}"\nlanguage = "jml"\n\n[signature.input]\nk = "i32"\n\n'
        '[signature.output]\nresult = "i32"\n\n[jml]\nclass = "Counter"\n'
        f'method = "{method}(int)"\nstatic = false\n')
    (root / "Solution.java").write_text(COUNTER)
    (root / "tests").mkdir()
    for bucket, rows in cases.items():
        (root / "tests" / f"{bucket}.jsonl").write_text(
            "".join(json.dumps(r) + "\n" for r in rows))
    return load_task(root)


def _verdicts(task: Task, engine: str) -> dict[tuple[str, str], Truth]:
    b = OpenJmlBackend()
    spec = b.load_spec(task, COUNTER, "Counter.java")
    got = engine_named(b, engine).check(spec, task, task.all_cases(),
                                        Limits(case_seconds=30, spec_seconds=300))
    return {(v.bucket.value, v.case_id): v.value for v in got}


def test_fields_of_the_fresh_receiver_and_narrowed_arguments(tmp_path: Path) -> None:
    task = _task(tmp_path / "left", "left", {
        "pre_complete": [{"id": "one", "input": {"k": 1}},
                         {"id": "huge", "input": {"k": -2147483647}}],
        "pre_sound": [{"id": "five", "input": {"k": 5}}],
        "post_complete": [{"id": "one", "input": {"k": 1}, "output": {"result": 2}}],
        "post_sound": [{"id": "one", "input": {"k": 1}, "output": {"result": 3}}]})
    truth = {("pre_complete", "one"): Truth.true, ("pre_complete", "huge"): Truth.unknown,
             ("pre_sound", "five"): Truth.false, ("post_complete", "one"): Truth.true,
             ("post_sound", "one"): Truth.false}
    assert _verdicts(task, "key") == truth
    assert _verdicts(task, "rac") == truth


def test_a_null_reference_field_is_pinned(tmp_path: Path) -> None:
    task = _task(tmp_path / "named", "named", {
        "pre_complete": [{"id": "one", "input": {"k": 1}}],
        "post_sound": [{"id": "one", "input": {"k": 1}, "output": {"result": 2}}]})
    assert _verdicts(task, "key") == {("pre_complete", "one"): Truth.true,
                                      ("post_sound", "one"): Truth.false}
