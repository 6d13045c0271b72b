"""Recorded valid cases the language contradicts, and thin invalid domains (docs/cases.md).

``solve(x) = x * x`` on ints: 50000 * 50000 = 2,500,000,000 does not fit an int (its wrapped
value is 2,500,000,000 - 2^32 = -1,794,967,296). A dataset that records (50000 ->
-1794967296) as a valid pair is contradicted by the language's safe math: the input is
invalid. ``solve(x) = -x``: only x = MIN_VALUE overflows (-(-2^31) = 2^31 does not fit), so the
whole invalid domain is that one input, and the task says so instead of counting as short.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from jml_support import write_task

from adequacy.taskdirs.load import load_task
from adequacy_mutators import generate_task

pytestmark = [pytest.mark.slow, pytest.mark.requires("javac")]

SQUARE = "public class Solution {\n    public static int solve(int x) {\n" \
         "        return x * x;\n    }\n}\n"
NEGATE = "public class Solution {\n    public static int solve(int x) {\n" \
         "        return -x;\n    }\n}\n"


def _cases(root: Path, rows: list[tuple[int, int]], name: str = "x") -> None:
    (root / "tests" / "pre_complete.jsonl").write_text("".join(
        json.dumps({"id": f"c{k}", "input": {name: x}}) + "\n" for k, (x, _) in enumerate(rows)))
    (root / "tests" / "post_complete.jsonl").write_text("".join(
        json.dumps({"id": f"c{k}", "input": {name: x}, "output": {"result": y}}) + "\n"
        for k, (x, y) in enumerate(rows)))


def test_a_recorded_wrapped_output_becomes_an_invalid_input(tmp_path: Path) -> None:
    root = write_task(tmp_path / "sq", SQUARE, inputs={"x": "i32"})
    _cases(root, [(3, 9), (-4, 16), (50000, -1794967296), (100, 10000)])
    rep = generate_task(root, valid=5, seed=0)
    assert rep.moved_to_invalid == ["pre_complete/c2", "post_complete/c2"]
    assert rep.moved_inputs == 1
    task = load_task(root)
    valid = {c.input["x"] for b in ("pre_complete", "post_complete")
             for c in task.cases[next(x for x in task.cases if x.value == b)]}
    assert 50000 not in valid and {3, -4, 100} <= valid
    sound = task.cases[next(x for x in task.cases if x.value == "pre_sound")]
    (moved,) = [c for c in sound if c.id.startswith("ovf-c2")]
    assert moved.input == {"x": 50000} and moved.origin == "official"
    assert "-1794967296" in moved.note and "overflow" in moved.note
    # no generated pair carries a wrapped value either
    for c in task.cases[next(x for x in task.cases if x.value == "post_complete")]:
        assert c.output == {"result": c.input["x"] ** 2}
    # a second run finds nothing more to move
    again = generate_task(root, valid=5, seed=0)
    assert again.moved_to_invalid == []


def test_a_validator_stating_the_input_valid_keeps_the_case(tmp_path: Path) -> None:
    root = write_task(tmp_path / "sq", SQUARE, inputs={"x": "i32"})
    _cases(root, [(3, 9), (50000, -1794967296)])
    (root / "reference").mkdir()
    (root / "reference" / "validator.py").write_text("def valid(inp):\n    return True\n")
    rep = generate_task(root, valid=0, seed=0)
    assert rep.moved_to_invalid == []


def test_negation_overflows_only_at_min_value_a_thin_domain(tmp_path: Path) -> None:
    root = write_task(tmp_path / "neg", NEGATE, inputs={"x": "i32"})
    _cases(root, [(3, -3), (-4, 4), (0, 0), (17, -17)])
    rep = generate_task(root, valid=30, seed=0)
    task = load_task(root)
    sound = task.cases[next(x for x in task.cases if x.value == "pre_sound")]
    assert [c.input for c in sound] == [{"x": -2147483648}]
    assert rep.thin_invalid_domain and rep.inferred_thin_invalid_domain
    assert "x = -2147483648 (the reference overflows)" in rep.thin_invalid_domain_reason
    head = tomllib.loads((root / "task.toml").read_text())
    assert head["thin_invalid_domain"] is True
    assert head["thin_invalid_domain_reason"] == rep.thin_invalid_domain_reason
    assert task.thin_invalid_domain and not task.every_input_valid
    from adequacy_mutators import pre_reason
    assert pre_reason(task, rep) is None  # not short: thin, with its evidence


def test_a_wide_overflow_region_is_not_thin(tmp_path: Path) -> None:
    """x * x overflows for every |x| > 46340: the extremes overflow, and so do the values
    between them and 0 (MAX / 2 = 1073741823: its square is far above 2^31). The task has
    many invalid inputs; those found on the way are pre_sound cases, and nothing is "thin"."""
    root = write_task(tmp_path / "sq", SQUARE, inputs={"x": "i32"})
    _cases(root, [(3, 9), (-4, 16), (0, 0), (17, 289)])
    rep = generate_task(root, valid=30, seed=0)
    assert not rep.thin_invalid_domain
    task = load_task(root)
    sound = task.cases[next(x for x in task.cases if x.value == "pre_sound")]
    assert len(sound) >= 3 and all(abs(c.input["x"]) > 46340 for c in sound)
    assert rep.pre_operators.get("overflow.ladder", 0) >= 1


def test_parity_of_an_overflow_region_is_seen(tmp_path: Path) -> None:
    """``n % 2 == 0 ? n : 2 * n`` overflows for odd n > 2^30 only: MAX_VALUE (odd) overflows,
    MAX - 1 and MAX / 2 do not, MAX - 2 (odd) does. Not thin."""
    code = "public class Solution {\n    public static int solve(int n) {\n" \
           "        return n % 2 == 0 ? n : 2 * n;\n    }\n}\n"
    root = write_task(tmp_path / "even", code, inputs={"n": "i32"})
    _cases(root, [(3, 6), (4, 4), (7, 14), (10, 10)], "n")
    rep = generate_task(root, valid=30, seed=0)
    assert not rep.thin_invalid_domain
    task = load_task(root)
    sound = task.cases[next(x for x in task.cases if x.value == "pre_sound")]
    assert {"n": 2147483645} in [c.input for c in sound]
    assert all(c.input["n"] % 2 and abs(c.input["n"]) > 2**30 for c in sound)
