"""The exec_spec engine against real cargo + vstd: values, panics, compile errors, fragment gaps."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from adequacy.extensions.backend import Limits
from adequacy.model.task import Task
from adequacy.model.verdicts import Truth
from adequacy.taskdirs.load import load_task
from adequacy_verus.exec_spec import engine
from adequacy_verus.exec_spec.diagnostics import Diagnostic, classify
from adequacy_verus.skeleton import skeleton_for

pytestmark = pytest.mark.slow

needs_cargo = pytest.mark.requires("exec_spec")

TOML = """id = "rich"
language = "verus"
title = "Rich values"

[signature.input]
s = "string"
v = "seq<tuple<char, option<i64>>>"
p = "Point"
big = "u128"
flag = "bool"
k = "usize"

[signature.output]
result = "i32"

[structs.Point]
x = "i32"
y = "i32"
"""

CASES = {
    "pre_complete": [
        # every field exactly as the pre_spec below demands -> true
        {"id": "exact", "input": {"s": "aé", "v": [["a", None], ["z", {"some": -7}]],
                                  "p": {"x": 3, "y": -1}, "big": 2**128 - 1, "flag": True,
                                  "k": 0}},
        # one field differs (y) -> false
        {"id": "off", "input": {"s": "aé", "v": [["a", None], ["z", {"some": -7}]],
                                "p": {"x": 3, "y": 1}, "big": 2**128 - 1, "flag": True,
                                "k": 0}},
        # k out of range -> index panic -> unknown
        {"id": "oob", "input": {"s": "aé", "v": [], "p": {"x": 3, "y": -1},
                                "big": 0, "flag": True, "k": 5}},
    ],
    "post_complete": [
        {"id": "ok", "input": {"s": "", "v": [], "p": {"x": 2147483647, "y": 0}, "big": 0,
                               "flag": False, "k": 0}, "output": {"result": 2147483647}},
        {"id": "ovf", "input": {"s": "", "v": [], "p": {"x": 2147483647, "y": 0}, "big": 0,
                                "flag": True, "k": 0}, "output": {"result": 0}},
    ],
}

PRE = """
    input.v[input.k as int].0 == 'a' && (input.s.len() == 2 && input.s[1] == 'é' && input.v.len() == 2
        && input.v[1].0 == 'z' && input.v[1].1.unwrap() == -7 && input.v[0].0 == 'a'
        && input.p.x == 3 && input.p.y == -1 && input.big == 340282366920938463463374607431768211455u128
        && input.flag)
"""
# flag=false: compare without arithmetic; flag=true: x + 1 overflows for x = i32::MAX
POST = """
    if input.flag { input.p.x + 1 > output.result } else { output.result == input.p.x }
"""


def make_task(tmp_path: Path) -> Task:
    d = tmp_path / "rich"
    (d / "tests").mkdir(parents=True)
    (d / "task.toml").write_text(TOML)
    (d / "skeleton.rs").write_text("placeholder")
    for b, rows in CASES.items():
        (d / "tests" / f"{b}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    task = load_task(d)
    (d / "skeleton.rs").write_text(skeleton_for(task))
    return load_task(d)


def fill(task: Task, pre: str, post: str, helpers: str = "") -> str:
    text = task.skeleton
    text = text.replace("spec fn pre_spec(input: Input) -> bool {\n    true\n}",
                        helpers + "spec fn pre_spec(input: Input) -> bool {\n" + pre + "\n}")
    return text.replace("spec fn post_spec(input: Input, output: Output) -> bool {\n    true\n}",
                        "spec fn post_spec(input: Input, output: Output) -> bool {\n" + post +
                        "\n}")


@needs_cargo
def test_values_panics_and_overflow(tmp_path: Path) -> None:
    task = make_task(tmp_path)
    spec = fill(task, PRE, POST)
    v = {x.case_id: x for x in engine.check(spec, task, task.all_cases(), Limits())}
    assert v["exact"].value is Truth.true and v["exact"].reason == "executed"
    assert v["off"].value is Truth.false
    assert v["oob"].value is Truth.unknown and v["oob"].reason.startswith("panic:")
    assert v["ok"].value is Truth.true
    assert v["ovf"].value is Truth.unknown and "overflow" in v["ovf"].reason
    assert "spec line" in v["ovf"].reason


@needs_cargo
def test_second_build_is_cached(tmp_path: Path) -> None:
    task = make_task(tmp_path)
    spec = fill(task, PRE, POST) + "\n// cache probe\n"
    first = engine.build(spec, task, None, Limits())
    second = engine.build(spec, task, None, Limits())
    assert second.cached and second.binary == first.binary


@needs_cargo
def test_compile_error_is_unknown_at_the_spec_line(tmp_path: Path) -> None:
    # Fidelity rule 1: only the front end calls a spec invalid; an engine that cannot compile
    # a spec leaves its cases unknown, the reason naming the spec's line.
    task = make_task(tmp_path)
    spec = fill(task, "    no_such_helper(input.k)", POST)
    line = spec.splitlines().index("    no_such_helper(input.k)") + 1
    for _ in range(2):  # the second time the recorded outcome is replayed from the cache
        verdicts = engine.check(spec, task, task.all_cases(), Limits(), path="bad.rs")
        assert all(v.value == Truth.unknown for v in verdicts)
        assert all("no_such_helper" in v.reason and f"spec line {line}" in v.reason
                   for v in verdicts)


@needs_cargo
def test_constructs_outside_the_fragment_make_every_case_unknown(tmp_path: Path) -> None:
    task = make_task(tmp_path)
    spec = fill(task, "    input.s.map_values(|c: char| c).len() == 2", POST)
    verdicts = engine.check(spec, task, task.all_cases(), Limits())
    assert {v.value for v in verdicts} == {Truth.unknown}
    assert all(v.reason.startswith("outside exec_spec's fragment:") for v in verdicts)


def test_classification_of_rustc_errors() -> None:
    gap = Diagnostic("error", "unsupported binary operator", 20)
    bad = Diagnostic("error", "cannot find function `foo` in this scope", 21, code="E0425")
    widths = Diagnostic("error", "mismatched types", 22, code="E0308",
                        rendered="error[E0308]: mismatched types\n expected `usize`, found `u64`")
    hashes = Diagnostic("error", "the trait bound `HashSet<u8>: Hash` is not satisfied", 9,
                        code="E0277")
    assert classify([bad], 30) == classify([bad], 30)
    out = classify([bad], 30)
    assert out is not None and out.kind == "invalid" and out.line == 21
    for d in (gap, widths, hashes):
        got = classify([d], 30)
        assert got is not None and got.kind == "outside", d
    assert classify([], 30) is None
    # a line past the spec (the generated harness) is not blamed on the spec
    late = classify([Diagnostic("error", "oops", 99, code="E0000")], 30)
    assert late is not None and late.line is None


def test_forbidden_tokens_are_refused_before_compiling(tmp_path: Path) -> None:
    task = make_task(tmp_path)
    spec = fill(task, '    include_str!("/etc/passwd").len() > 0', POST)
    b = engine.build(spec, task, "evil.rs", Limits())
    assert b.binary is None and b.outside is not None
    assert "include_str" in b.outside and "spec line" in b.outside
    # a comment mentioning the word is fine for the token check
    assert engine.forbidden("// unsafe is not used here\n" + fill(task, "    true", POST), task,
                            None) is None
