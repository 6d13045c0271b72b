"""Spec mutants of Python specs (``adequacy_python.mutation``) and program mutants of a
Python task's ``solution.py``.

clamp's gold post is ``lo <= result <= hi and (result == x or ...)``. Replacing ``result`` by
``x`` in its first conjunct gives ``lo <= x <= hi``, which rejects the right output of
``x = 12, lo = 0, hi = 10`` (result 10, case c2): worked out by hand, c2 kills it.
"""

from __future__ import annotations

import ast
from pathlib import Path

from adequacy.extensions.registry import registry
from adequacy.plugin import load_task
from adequacy.scoring.runner import score_spec

EXAMPLES = Path(__file__).resolve().parents[2] / "backends" / "adequacy_python" / "examples"
CLAMP = EXAMPLES / "clamp"
SECOND = EXAMPLES / "second_largest"


def test_result_replaced_by_an_input_is_killed_by_an_out_of_range_case() -> None:
    task = load_task(CLAMP)
    gold = (CLAMP / "specs" / "gold.py").read_text()
    ms = registry().backend_for("python").spec_mutants(task, gold)
    first = [m for m in ms if m.operator == "result.input" and m.description == "result -> x"]
    assert first
    m = next(m for m in first if "lo <= x <= hi and" in m.text)
    rep = score_spec(task, m.text, None)
    assert rep.status == "scored"
    failed = {v.case_id for v in rep.verdicts if v.decided and not v.passed}
    assert "c2" in failed  # 0 <= 12 <= 10 is false: the right output 10 is rejected


def test_mutants_change_only_the_spec_functions() -> None:
    task = load_task(CLAMP)
    gold = (CLAMP / "specs" / "gold.py").read_text()
    stub = ast.unparse(ast.parse(gold).body[0])
    ms = registry().backend_for("python").spec_mutants(task, gold)
    assert {m.operator for m in ms} >= {"clause.true", "conjunct.drop", "logic.swap",
                                        "cmp.weaken", "cmp.strengthen", "result.input"}
    for m in ms:
        tree = ast.parse(m.text)
        assert ast.unparse(tree.body[0]) == stub  # the task's function stub is untouched
        registry().backend_for("python").load_spec(task, m.text, "m.py")  # every one is a valid spec
    drops = [m for m in ms if m.operator == "conjunct.drop" and m.line == 10]
    assert any("return result == x or" in m.text for m in drops)


def test_program_mutants_of_the_solution() -> None:
    # second_largest returns max(x for x in xs if x < top); with "x <= top" it returns the
    # largest: 3 for [3, 1, 2] (hand-worked), a wrong output the reference's 2 tells apart
    task = load_task(SECOND)
    b = registry().backend_for("python")
    ms = b.program_mutants(task)
    assert ms and all(m.file == "reference/solution.py" for m in ms)
    (m,) = [m for m in ms if m.operator == "cmp.boundary" and m.description == "< -> <="]
    outs = b.program_outcomes(task, m, [{"xs": [3, 1, 2]}, {"xs": [5, 5, 4]}])
    assert outs is not None
    assert [o.output for o in outs] == [{"result": 3}, {"result": 5}]
    # clamp's solution (max(lo, min(x, hi)) behind a guard) has only mutants of its guard,
    # which raise on valid inputs or change nothing there: none gives a wrong output
    clamp = load_task(CLAMP)
    inputs = [{"x": 12, "lo": 0, "hi": 10}, {"x": 7, "lo": 7, "hi": 7}]
    for cm in b.program_mutants(clamp):
        got = b.program_outcomes(clamp, cm, inputs)
        assert got is not None
        assert all(o.kind != "returned" or o.output == {"result": min(max(i["lo"], i["x"]),
                                                                      i["hi"])}
                   for o, i in zip(got, inputs, strict=True))
