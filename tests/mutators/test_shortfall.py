"""Why a task falls short of the case goals (mutators/_shortfall.py), on small tasks whose
input space and reference we know by heart (hand-worked truths in each test's comment)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from adequacy.model.verdicts import Bucket
from adequacy.taskdirs.load import load_task
from adequacy_mutators import generate_task, pre_reason, valid_reason

from .test_generate_cases import DOUBLE_REF, DOUBLE_TOML, make_task

SUM_TOML = ('id = "total"\nlanguage = "verus"\n\n[signature.input]\na = "array<i32>"\n\n'
            '[signature.output]\nresult = "i64"\n')
SUM_REF = "def reference(inp):\n    return {'result': sum(inp['a'])}\n"


def test_one_array_argument_and_a_total_reference_leaves_only_null(tmp_path: Path) -> None:
    # sum is total on every non-null array; an array argument may be null (SeqType "array")
    # and sum(None) raises: exactly one invalid input exists, so 1 pre_sound case, never 3,
    # and no every_input_valid (null is invalid). Arrays of length 1..4 with values -5..8
    # admit far more than 50 inputs, so the valid goal is met.
    cases = [({"a": a}, {"result": sum(a)}) for a in ([1, 2, 3], [-4, 0], [7, 7, 7, 7], [5])]
    d = make_task(tmp_path, "total", SUM_TOML, cases, {"reference.py": SUM_REF})
    rep = generate_task(d, valid=50, seed=0)
    task = load_task(d)
    assert [c.input for c in task.cases[Bucket.pre_sound]] == [{"a": None}]
    assert pre_reason(task, rep) == (
        "the only invalid input any oracle confirms is null, and 1 reference argument and "
        "nothing else: exactly one such input exists")
    assert valid_reason(task, rep) is None


def test_a_narrow_integer_shape_is_named_for_both_goals(tmp_path: Path) -> None:
    # examples 1, 2, 3 (all >= 1): draws stay in 1..5, so 2 new pairs (4, 5); the reference
    # (2 * n) is total, and with 0, -1, i32 min and max it runs on 9 inputs: fewer than 20, no
    # inference, no invalid input. Both goals missed, each for the narrow shape.
    d = make_task(tmp_path, "double", DOUBLE_TOML,
                  [({"n": n}, {"result": 2 * n}) for n in (1, 2, 3)], {"reference.py": DOUBLE_REF})
    rep = generate_task(d, valid=50, seed=0)
    task = load_task(d)
    assert rep.valid_total == 5 and rep.reference_runs == 9
    assert pre_reason(task, rep) == ("fewer than 20 inputs tried (the examples' shape admits "
                                     "few), too few to infer")
    assert valid_reason(task, rep) == ("the examples' shape admits few distinct inputs (draws "
                                       "repeat)")


def test_two_bools_admit_four_inputs(tmp_path: Path) -> None:
    # (a, b) bools: 4 inputs, all given, so every_input_valid by the finite-input rule (pre goal
    # met) and 4 < 50 valid pairs for the types' reason, not for a draw's
    toml = ('id = "and"\nlanguage = "verus"\n\n[signature.input]\na = "bool"\nb = "bool"\n\n'
            '[signature.output]\nresult = "bool"\n')
    all4 = [({"a": a, "b": b}, {"result": a and b}) for a in (False, True) for b in (False, True)]
    d = make_task(tmp_path, "and", toml, all4, {})
    rep = generate_task(d, valid=50, seed=0)
    task = load_task(d)
    assert pre_reason(task, rep) is None
    assert valid_reason(task, rep) == "the types admit only 4 inputs"


def test_a_distrusted_reference_is_the_reason_for_both(tmp_path: Path) -> None:
    # off by one on n > 2: the task's own pairs 3 and 12 expose it, so nothing is generated
    ref = ("def reference(inp):\n"
           "    return {'result': 2 * inp['n'] + (1 if inp['n'] > 2 else 0)}\n")
    d = make_task(tmp_path, "double", DOUBLE_TOML,
                  [({"n": n}, {"result": 2 * n}) for n in (-7, 0, 3, 12)], {"reference.py": ref})
    rep = generate_task(d, valid=20, seed=0)
    task = load_task(d)
    want = "reference distrusted: it does not reproduce the task's own pairs"
    assert pre_reason(task, rep) == want
    assert valid_reason(task, rep, 20) == want


def test_a_timeout_is_named_and_a_throwing_draw_is_counted(tmp_path: Path, monkeypatch: Any
                                                            ) -> None:
    import adequacy_mutators._generate as g

    monkeypatch.setattr(g, "PY_SECONDS", 0.2)
    # loops forever on negative n (only the boundary values -1 and i32 min are negative: the
    # examples 0..12 never draw one), so no outcome there proves anything, and nothing else is
    # invalid: no pre_sound case, no inference
    loops = ("def reference(inp):\n    n = inp['n']\n    while n < 0:\n        pass\n"
             "    return {'result': 2 * n}\n")
    d = make_task(tmp_path, "double", DOUBLE_TOML,
                  [({"n": n}, {"result": 2 * n}) for n in (0, 3, 12)], {"reference.py": loops})
    rep = generate_task(d, valid=10, seed=0)
    reason = pre_reason(load_task(d), rep)
    assert reason is not None
    assert reason.startswith("reference gave no outcome on some inputs (timed out on ")
    # raises on odd n: every odd draw is refused as a valid pair and counted
    odd = ("def reference(inp):\n    if inp['n'] % 2:\n        raise ValueError('odd')\n"
           "    return {'result': 2 * inp['n']}\n")
    e = make_task(tmp_path / "odd", "double", DOUBLE_TOML,
                  [({"n": n}, {"result": 2 * n}) for n in (0, 2, 40)], {"reference.py": odd})
    rep = generate_task(e, valid=10, seed=0)
    task = load_task(e)
    threw = rep.dropped.get("valid: reference threw (tried as invalid)", 0)
    assert threw >= 1  # 0..40 widened: ten even draws cannot come before any odd one
    assert all(c.input["n"] % 2 == 0 for c in task.cases[Bucket.post_complete])
    assert all(c.input["n"] % 2 == 1 for c in task.cases[Bucket.pre_sound])

