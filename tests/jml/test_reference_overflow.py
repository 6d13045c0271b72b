"""The task's Java reference runs with its int and long arithmetic checked (JML safe math).

OpenJML checks code with safe math by default: a verified method never overflows on an input
its precondition admits, so an input where the reference overflows is outside its domain,
and the wrapped value Java computes there is no valid output. Truths below are worked by
hand from the JLS (two's complement, 32- and 64-bit)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jml_support import write_task

from adequacy.taskdirs.load import load_task
from adequacy_mutators import generate_task
from adequacy_openjml.plugin import OpenJmlBackend

pytestmark = [pytest.mark.slow, pytest.mark.requires("javac")]

ARITH = """public class Solution {
    public static int solve(int x, int y) {
        switch (y) {
            case 0: return x * x;                        // 65536 * 65536 = 2^32: overflow
            case 1: { int i = x; i++; return i; }        // iinc: MAX_VALUE + 1
            case 2: return x / -1;                       // MIN_VALUE / -1 = 2^31
            case 3: return -x;                           // -MIN_VALUE = 2^31
            case 4: { long p = (long) x * (long) x * 4L; return (int) (p >>> 40); } // long
            case 5: return (byte) x;                     // a narrowing cast: Java's truncation
            case 6: try { return x + x; } catch (Throwable t) { return -7; }
            case 8: return Math.abs(x);                  // Math.abs(MIN_VALUE) is MIN_VALUE
            case 9: return Integer.sum(x, x);            // the JDK's wrapping +
            default: return x - y;
        }
    }
}
"""


def _kinds(task_root: Path, inputs: list[dict[str, int]]) -> list[tuple[str, object]]:
    task = load_task(task_root)
    outs = OpenJmlBackend().reference_outcomes(task, inputs)
    return [(o.kind, o.output["result"] if o.output else o.reason) for o in outs]


def test_overflow_is_an_invalid_input_never_a_wrapped_output(tmp_path: Path) -> None:
    root = write_task(tmp_path / "t", ARITH)
    M, m = 2147483647, -2147483648
    got = _kinds(root, [
        {"x": 3, "y": 0}, {"x": 65536, "y": 0},
        {"x": 41, "y": 1}, {"x": M, "y": 1},
        {"x": 10, "y": 2}, {"x": m, "y": 2},
        {"x": 5, "y": 3}, {"x": m, "y": 3},
        # (2^30)^2 * 4 = 2^62 fits a long, and 2^62 >>> 40 = 2^22; (2^31 - 1)^2 * 4 > 2^63
        {"x": 1 << 30, "y": 4}, {"x": M, "y": 4},
        {"x": 300, "y": 5},
        {"x": 1 << 30, "y": 6},
        {"x": m, "y": 7},
        {"x": -5, "y": 8}, {"x": m, "y": 8},
        {"x": 21, "y": 9}, {"x": 1 << 30, "y": 9},
    ])
    assert got[0] == ("returned", 9)
    assert got[2] == ("returned", 42)
    assert got[4] == ("returned", -10)
    assert got[6] == ("returned", -5)
    assert got[8] == ("returned", 1 << 22)
    assert got[10] == ("returned", 44)  # 300 - 256: the cast is Java's, not an overflow
    assert got[13] == ("returned", 5)
    assert got[15] == ("returned", 42)
    for k in (1, 3, 5, 7, 9, 11, 12, 14, 16):
        kind, reason = got[k]
        assert kind == "threw" and "arithmetic overflow" in str(reason), (k, got[k])
    assert "caught by the reference" in str(got[11][1])  # its catch (Throwable) returned -7


def test_generated_pairs_never_carry_a_wrapped_sum(tmp_path: Path) -> None:
    code = """public class Solution {
    public static int solve(int x, int y) {
        return x + y;
    }
}
"""
    root = write_task(tmp_path / "sum", code)
    rows = [({"x": 1, "y": 2}, 3), ({"x": 40, "y": 2}, 42), ({"x": -5, "y": 9}, 4)]
    (root / "tests" / "pre_complete.jsonl").write_text("".join(
        json.dumps({"id": f"p{k}", "input": i}) + "\n" for k, (i, _o) in enumerate(rows)))
    (root / "tests" / "post_complete.jsonl").write_text("".join(
        json.dumps({"id": f"p{k}", "input": i, "output": {"result": o}}) + "\n"
        for k, (i, o) in enumerate(rows)))
    rep = generate_task(root, valid=20, seed=0)
    post = [json.loads(x) for x in (root / "tests/post_complete.jsonl").read_text().splitlines()]
    assert len(post) > len(rows)
    for c in post:
        assert c["output"]["result"] == c["input"]["x"] + c["input"]["y"], c
    bad = [json.loads(x) for x in (root / "tests/pre_sound.jsonl").read_text().splitlines()]
    # the extremes overflow: x = MAX_VALUE beside a positive y, or MIN_VALUE beside a negative
    assert any(not -2**31 <= c["input"]["x"] + c["input"]["y"] < 2**31 for c in bad), bad
    for c in bad:
        assert not -2**31 <= c["input"]["x"] + c["input"]["y"] < 2**31, c
    assert not rep.inferred_every_input_valid


def test_audit_names_a_recorded_case_whose_output_is_a_wrapped_value(tmp_path: Path) -> None:
    """SpecGenBench records fib(100) = -980107325: Java's wrapped int. Planted here on x + y:
    MAX_VALUE + 1 recorded as MIN_VALUE."""
    from typer.testing import CliRunner

    from adequacy.cli import app

    code = "public class Solution {\n    public static int solve(int x, int y) {\n" \
           "        return x + y;\n    }\n}\n"
    root = write_task(tmp_path / "sum", code)
    (root / "tests" / "post_complete.jsonl").write_text(
        json.dumps({"id": "ok", "input": {"x": 1, "y": 2}, "output": {"result": 3}}) + "\n"
        + json.dumps({"id": "wrapped", "input": {"x": 2147483647, "y": 1},
                      "output": {"result": -2147483648}}) + "\n")
    r = CliRunner().invoke(app, ["task", "audit", str(root), "--json"])
    assert r.exit_code == 1, r.stdout
    rep = json.loads(r.stdout.splitlines()[0])
    assert {(f["kind"], f["case"]) for f in rep["findings"]} == {
        ("reference overflows on a valid-bucket input", "post_complete/wrapped")}


def test_the_judge_calls_a_throwing_reference_invalid_and_a_hanging_one_nothing(
        tmp_path: Path) -> None:
    """An exception (an overflow included) puts the input outside the reference's domain;
    a reference that does not terminate says nothing about it (docs/cases.md)."""
    from adequacy.search.oracles import OracleJudge

    code = """public class Solution {
    public static int solve(int x, int y) {
        if (y == 1) { while (x == x) { } }
        return x * y;
    }
}
"""
    task = load_task(write_task(tmp_path / "t", code))
    words = OracleJudge(task).inputs([{"x": 3, "y": 2}, {"x": 65536, "y": 65536},
                                      {"x": 3, "y": 1}])
    assert [w.value for w in words] == [True, False, None], words
    assert "arithmetic overflow" in words[1].reason
