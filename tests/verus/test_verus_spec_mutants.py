"""Spec mutants of Verus specs (``adequacy_verus.mutation``), on bundled gold specs.

binary_search_first's gold says ``Some(k) => k < len && arr[k] == target && ...``. Weakening
``arr[k] == target`` to ``arr[k] >= target`` lets through ``Some(0)`` for ``arr = [1]``,
``target = 0`` (arr[0] = 1 >= 0, and no earlier index exists): worked out by hand, that case
kills the mutant and passes the gold.
"""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from adequacy.extensions.mutants import SPEC_OPERATORS
from adequacy.extensions.registry import registry
from adequacy.plugin import Bucket, Case, SpecInvalid, load_task
from adequacy.scoring.runner import score_spec

EXAMPLES = Path(__file__).resolve().parents[2] / "backends" / "adequacy_verus" / "examples"
BSF = EXAMPLES / "verus" / "binary_search_first"


def _changed(a: str, b: str) -> list[tuple[str, str]]:
    """(removed, added) text of each changed line group."""
    out = []
    sm = difflib.SequenceMatcher(a=a.splitlines(), b=b.splitlines())
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag != "equal":
            out.append(("\n".join(a.splitlines()[i1:i2]).strip(),
                        "\n".join(b.splitlines()[j1:j2]).strip()))
    return out


def test_a_weakened_comparison_and_the_case_that_kills_it() -> None:
    task = load_task(BSF)
    gold = (BSF / "specs" / "gold.rs").read_text()
    ms = registry().backend_for("verus").spec_mutants(task, gold)
    (m,) = [m for m in ms if m.operator == "cmp.weaken" and m.line == 27
            and m.description == "== -> >="]
    assert _changed(gold, m.text) == [(
        "Some(k) => k < input.arr.len() && input.arr[k as int] == input.target",
        "Some(k) => k < input.arr.len() && input.arr[k as int] >= input.target")]
    killer = Case(id="k", bucket=Bucket.post_sound, input={"arr": [1], "target": 0},
                  output={"result": {"some": 0}})
    on_mutant = score_spec(task, m.text, None, engines=["interp"], cases=[killer])
    on_gold = score_spec(task, gold, None, engines=["interp"], cases=[killer])
    assert [v.passed for v in on_mutant.verdicts] == [False]
    assert [v.passed for v in on_gold.verdicts] == [True]
    # and the task's own cases do not kill it (a blind spot of the bundled cases)
    own = score_spec(task, m.text, None, engines=["interp"])
    assert not any(v.decided and not v.passed for v in own.verdicts)


def test_edits_keep_the_rest_of_the_file_as_written() -> None:
    task = load_task(BSF)
    gold = (BSF / "specs" / "gold.rs").read_text()
    ms = registry().backend_for("verus").spec_mutants(task, gold)
    by = {(m.operator, m.line, m.description): m for m in ms}
    # a quantifier's bound, a whole clause, a negated premise
    assert ("forall|i: usize| 1 <= i < input.arr.len() ==> input.arr[(i - 1) as int] <= "
            "input.arr[i as int]", "forall|i: usize| 1 <= i < (input.arr.len() - 1) ==> "
            "input.arr[(i - 1) as int] <= input.arr[i as int]") in _changed(
        gold, by[("quant.range", 21, "bound input.arr.len() -> input.arr.len() - 1")].text)
    assert _changed(gold, by[("clause.true", 21, "pre_spec: a clause -> true")].text)[0][1] \
        == "true"
    neg = [m for m in ms if m.operator == "guard.negate" and m.line == 21]
    assert _changed(gold, neg[0].text)[0][1].startswith("forall|i: usize| !(1 <= i < ")
    for m in ms:  # one change each: comments, layout and the structs stay as written
        assert len(_changed(gold, m.text)) == 1 and "// gold spec" in m.text


def test_every_operator_on_the_bundled_golds_and_few_refused() -> None:
    b = registry().backend_for("verus")
    seen: set[str] = set()
    made = refused = 0
    golds = sorted((EXAMPLES / "verus").glob("*/specs/gold.rs"))
    assert golds
    for g in golds:
        task = load_task(g.parents[1])
        text = g.read_text()
        texts = set()
        for m in b.spec_mutants(task, text):
            assert m.text != text and m.text not in texts and m.operator in SPEC_OPERATORS
            texts.add(m.text)
            seen.add(m.operator)
            made += 1
            try:
                b.load_spec(task, m.text, "m.rs")
            except SpecInvalid:
                refused += 1
    assert seen == set(SPEC_OPERATORS)
    assert made > 100 and refused <= made // 10


def test_result_replaced_by_an_input_of_its_type(tmp_path: Path) -> None:
    # coprime_check: a bool result and no bool input (nothing to replace it by); euclid_mod
    # returns an i64 like its inputs
    task = load_task(EXAMPLES / "verus" / "euclid_mod")
    gold = (EXAMPLES / "verus" / "euclid_mod" / "specs" / "gold.rs").read_text()
    rs = [m for m in registry().backend_for("verus").spec_mutants(task, gold)
          if m.operator == "result.input"]
    ins = {p.name for p in task.inputs if p.type_text == task.outputs[0].type_text}
    assert rs and ins
    for m in rs:
        (_, added), = _changed(gold, m.text)
        assert any(f"input.{n}" in added for n in ins)
    task2 = load_task(EXAMPLES / "verus" / "coprime_check")
    gold2 = (EXAMPLES / "verus" / "coprime_check" / "specs" / "gold.rs").read_text()
    assert not [m for m in registry().backend_for("verus").spec_mutants(task2, gold2)
                if m.operator == "result.input"]


def test_an_unknown_operator_is_an_error() -> None:
    task = load_task(BSF)
    with pytest.raises(ValueError, match="unknown mutation operator"):
        registry().backend_for("verus").spec_mutants(task, (BSF / "specs" / "gold.rs").read_text(),
                                          ["cmp.weeken"])


def test_survivors_are_judged_by_the_solver_first(tmp_path: Path) -> None:
    """``0 <= j`` with ``j: usize`` holds for every j, so ``0 - 1 <= j`` changes nothing: the
    solver proves that mutant equivalent for every input. ``== -> >=`` of the first
    occurrence's element differs (arr = [1], target = 0, Some(0)): a blind spot whose
    counterexample the concrete engines confirm."""
    import shutil

    from adequacy.scoring.options import ScoreOptions
    from adequacy.search.strength import task_strength

    d = tmp_path / "bsf"
    shutil.copytree(BSF, d)
    task = load_task(d)
    rep, found = task_strength(task, d / "specs" / "gold.rs", ScoreOptions(), budget=5.0)
    assert "the solver judged each survivor first" in rep.symbolic
    by = {(m.operator, m.line, m.description): m for m in rep.mutants}
    eq = by[("const.shift", 29, "0 -> -1")]
    assert eq.status == "survived" and eq.equivalent == "symbolic"
    assert "for every input" in eq.equivalence and not eq.blind_spot
    ge = by[("cmp.weaken", 27, "== -> >=")]
    assert ge.blind_spot and ge.closed and ge.found_by in ("symbolic", "sampling")
    assert ge.label.startswith("spec cmp.weaken@27")
    assert any(c.bucket == Bucket.post_sound and ge.label in c.made_by for c in found)
