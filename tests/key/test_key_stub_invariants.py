"""Red-team case of the KeY stubs: a class invariant is JML that KeY assumes in the pre-state
of every non-``helper`` method, and the stubs are methods of the spec's class. So
``//@ invariant false;`` (or ``static invariant false;``) made every stub vacuous, every
proof closed in the direction its bucket expects, and ``requires true; ensures true;``
scored PASSED ALL under ``--engine key`` (found 2026-12-05). The task's semantics (docs/jml.md)
has no invariant in the precondition, and rac evaluates none: the stubs are ``helper`` now,
and a stub that fixes nothing must not prove ``false`` (the canary).

Truths by hand: ``requires true`` accepts every input, so no pre case is false; ``ensures
true`` accepts every output, so no post case is false."""

from __future__ import annotations

from pathlib import Path

import pytest
from key_support import EXAMPLES, REPO

from adequacy.extensions.backend import Limits
from adequacy.model.verdicts import Truth
from adequacy.scoring.runner import score_spec
from adequacy.taskdirs.load import load_task
from adequacy_openjml.task_from import convert

pytestmark = [pytest.mark.slow, pytest.mark.requires("key")]

ABS = """public class Solution {
    //@ public static invariant false;

    //@ requires true;
    //@ ensures true;
    public static int solve(int x) {
        if (x < 0)
            return -x;
        return x;
    }
}
"""


def _never_false(task_dir: Path, spec: str) -> None:
    task = load_task(task_dir)
    rep = score_spec(task, spec, "S.java", engines=["key"], cache=None,
                     limits=Limits(case_seconds=30, spec_seconds=300))
    assert rep.status == "scored", rep
    wrong = [(v.bucket.value, v.case_id, v.reason) for v in rep.verdicts
             if v.value is Truth.false]
    assert not wrong, wrong
    assert any(v.value is Truth.true for v in rep.verdicts), "KeY decided nothing"


def test_a_false_static_invariant_does_not_make_stubs_vacuous() -> None:
    _never_false(EXAMPLES / "abs_value", ABS)


def test_a_false_instance_invariant_does_not_make_stubs_vacuous(tmp_path: Path) -> None:
    dest = tmp_path / "t"
    convert(REPO / "tests" / "fixtures" / "programs" / "Account.java", "deposit", dest,
            draws=3)
    spec = (dest / "specs" / "original.java").read_text()
    spec = spec.replace("public class Account {", "public class Account {\n"
                        "    //@ public invariant false;", 1)
    spec = spec.replace("//@ requires 0 < amount && amount <= 1000;", "//@ requires true;", 1)
    spec = spec.replace("//@ ensures balance == \\old(balance) + amount;", "//@ ensures true;", 1)
    spec = spec.replace('//@ ensures log.equals(\\old(log) + "d");', "", 1)
    assert "invariant false" in spec and "requires true" in spec and "log.equals" not in spec
    _never_false(dest, spec)


def test_a_proved_canary_leaves_every_case_unknown(monkeypatch: pytest.MonkeyPatch) -> None:
    """What KeY replies is scripted here (the canary's job is to catch inconsistencies no
    test above can produce once the stubs are ``helper``): every stub closed, canary too."""
    from adequacy_openjml.engines.key import engine
    from adequacy_openjml.jml.load import load

    task = load_task(EXAMPLES / "abs_value")
    spec = load(task, (EXAMPLES / "abs_value" / "specs" / "gold.java").read_text(), "gold.java")
    cases = [c for b in task.cases.values() for c in b]

    def closed(sf, methods, *_a, **_k):  # type: ignore[no-untyped-def]
        return {"ok": True, "results": [{"method": m, "status": "closed", "steps": 1}
                                        for m in methods]}

    monkeypatch.setattr(engine, "_request", closed)
    got = engine.check(spec, task, cases, Limits(case_seconds=30, spec_seconds=300))
    assert got and all(v.value is Truth.unknown for v in got)
    assert all("inconsistent" in v.reason for v in got)
