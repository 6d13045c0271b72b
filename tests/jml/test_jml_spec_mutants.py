"""Spec mutants of JML specs (``adequacy_openjml.jml.mutation``) and program mutants of a JML
task's Java method (``adequacy_openjml.program_mutation``).

array_max's gold: ``requires a != null && a.length > 0``, ``ensures (\\forall int i; 0 <= i <
a.length; a[i] <= \\result)`` and ``(\\exists ...; a[i] == \\result)``. Strengthening ``a[i] <=
\\result`` to ``a[i] < \\result`` rejects every right output (the maximum is one of the a[i]):
any post_complete case kills it. array_sum's method adds with ``s += a[i]``; ``s -= a[i]``
returns -6 on [1, 2, 3]: hand-worked, a wrong output the reference's 6 tells apart.
"""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from adequacy.extensions.mutants import SPEC_OPERATORS
from adequacy.extensions.registry import registry
from adequacy.plugin import SpecInvalid, load_task
from adequacy.scoring.runner import score_spec

JML = Path(__file__).resolve().parents[2] / "backends" / "adequacy_openjml" / "examples" / "jml"


def _changed(a: str, b: str) -> list[tuple[str, str]]:
    sm = difflib.SequenceMatcher(a=a.splitlines(), b=b.splitlines())
    return [("\n".join(a.splitlines()[i1:i2]).strip(), "\n".join(b.splitlines()[j1:j2]).strip())
            for tag, i1, i2, j1, j2 in sm.get_opcodes() if tag != "equal"]


def test_each_mutant_changes_one_clause_of_the_annotation_only() -> None:
    task = load_task(JML / "array_max")
    gold = (JML / "array_max" / "specs" / "gold.java").read_text()
    ms = registry().backend_for("jml").spec_mutants(task, gold)
    assert ("/*@ requires a != null && a.length > 0;", "/*@ requires ((a.length > 0));") in [
        c for m in ms if m.operator == "conjunct.drop" for c in _changed(gold, m.text)]
    (strict,) = [m for m in ms if m.operator == "cmp.strengthen" and m.line == 4
                 and m.description == "<= -> <" and "a[i] < \\result" in m.text]
    assert _changed(gold, strict.text) == [(
        "@ ensures (\\forall int i; 0 <= i < a.length; a[i] <= \\result);",
        "@ ensures (\\forall int i; 0 <= i < a.length; a[i] < \\result);")]
    body = gold[gold.index("public static"):]
    for m in ms:
        assert len(_changed(gold, m.text)) == 1 and m.text.endswith(body)  # Java untouched


def test_the_bundled_golds_give_every_operator_and_few_refused() -> None:
    b = registry().backend_for("jml")
    seen: set[str] = set()
    made = refused = 0
    for g in sorted(JML.glob("*/specs/gold.java")):
        task = load_task(g.parents[1])
        for m in b.spec_mutants(task, g.read_text()):
            seen.add(m.operator)
            made += 1
            try:
                b.load_spec(task, m.text, "m.java")
            except SpecInvalid:
                refused += 1
    assert seen == set(SPEC_OPERATORS)
    assert made > 50 and refused <= made // 10


@pytest.mark.slow
@pytest.mark.requires("javac")
def test_a_strengthened_bound_is_killed_by_a_right_output() -> None:
    task = load_task(JML / "array_max")
    gold = (JML / "array_max" / "specs" / "gold.java").read_text()
    (m,) = [m for m in registry().backend_for("jml").spec_mutants(task, gold)
            if m.operator == "cmp.strengthen" and "a[i] < \\result" in m.text]
    rep = score_spec(task, m.text, None, engines=["rac"])
    killed = [v for v in rep.verdicts if v.decided and not v.passed]
    assert killed and all(v.bucket.value == "post_complete" for v in killed)


@pytest.mark.slow
@pytest.mark.requires("javac")
def test_a_java_mutant_runs_like_the_reference() -> None:
    task = load_task(JML / "array_sum")
    b = registry().backend_for("jml")
    ms = b.program_mutants(task)
    (minus,) = [m for m in ms if m.operator == "arith.swap" and "+= -> -=" in m.description]
    assert "s -= a[i];" in minus.source and minus.file == "Solution.java"
    outs = b.program_outcomes(task, minus, [{"a": [1, 2, 3]}, {"a": []}])
    assert outs is not None and [o.output for o in outs] == [{"result": -6}, {"result": 0}]
    # a mutant javac refuses says so, for every input
    broken = minus.model_copy(update={"source": minus.source.replace("s -= a[i];", "s -= ;")})
    bad = b.program_outcomes(task, broken, [{"a": [1]}])
    assert bad is not None and bad[0].kind == "failed" and "compile" in bad[0].reason
