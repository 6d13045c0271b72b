"""Red-team case of the KeY verifier (``adequacy verify``, ``run --verify``): JML that KeY takes
as given without proof (``assume``, ``axiom``) must not make a wrong contract count as verified.
Without the check, ``//@ assume false;`` at the top of the body closes every goal, so
``ensures \\result == 42`` on an absolute value was reported "verified"."""

from __future__ import annotations

import pytest
from key_support import EXAMPLES

from adequacy.extensions.backend import Limits
from adequacy.scoring.verification import verify_with_metrics
from adequacy.taskdirs.load import load_task

pytestmark = [pytest.mark.slow, pytest.mark.requires("key")]

WRONG = """public class Solution {

    //@ ensures \\result == 42;
    public static int solve(int x) {
        //@ {stmt}
        if (x < 0)
            return -x;
        return x;
    }
}
"""


@pytest.mark.parametrize("stmt", ["assume false;", "assume_redundantly false;"])
def test_an_assumed_falsehood_is_not_a_proof(stmt: str) -> None:
    task = load_task(EXAMPLES / "abs_value")
    rep = verify_with_metrics(task, WRONG.replace("{stmt}", stmt), "S.java",
                              Limits(spec_seconds=60))
    assert rep.verification.result != "verified", rep.verification.summary
    assert "line 5" in rep.verification.summary


def test_a_false_class_invariant_is_not_a_proof() -> None:
    task = load_task(EXAMPLES / "abs_value")
    spec = WRONG.replace("        //@ {stmt}\n", "").replace(
        "public class Solution {\n", "public class Solution {\n    //@ public static invariant false;\n")
    assert "invariant false" in spec
    rep = verify_with_metrics(task, spec, "S.java", Limits(spec_seconds=60))
    assert rep.verification.result != "verified", rep.verification.summary
