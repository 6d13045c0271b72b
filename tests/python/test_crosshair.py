"""CrossHair as the Python verifier: a counterexample it finds is confirmed by the concrete
engines before the result is "not verified"; finding none is "unknown", never "verified".

Truth by hand on the clamp example: with lo = hi = 3 the reference returns 3, which the spec
``result != 3`` rejects; the gold spec holds for every input."""

from __future__ import annotations

import pytest

from adequacy.plugin import Limits, load_task

from .pysupport import EXAMPLES, loaded

pytestmark = pytest.mark.slow
pytest.importorskip("crosshair", reason="needs the python extra (crosshair-tool)")


def test_a_confirmed_counterexample_and_an_unknown() -> None:
    from adequacy_python.crosshair_verify import CrossHairVerifier

    task = load_task(EXAMPLES / "clamp")
    bad = loaded(task, "def pre(x, lo, hi):\n    return lo <= hi\n\n\n"
                       "def post(x, lo, hi, result):\n    return lo <= result <= hi and result != 3\n")
    r = CrossHairVerifier().verify(bad, task, Limits(case_seconds=2.0))
    assert r.result == "not verified" and "rejects it" in r.summary, r
    gold = loaded(task, (EXAMPLES / "clamp" / "specs" / "gold.py").read_text())
    r = CrossHairVerifier().verify(gold, task, Limits(case_seconds=2.0))
    assert r.result == "unknown" and "does not prove" in r.summary, r


def test_the_reference_raising_inside_the_precondition_is_a_counterexample() -> None:
    from adequacy_python.crosshair_verify import CrossHairVerifier

    task = load_task(EXAMPLES / "second_largest")
    weak = loaded(task, "def pre(xs):\n    return len(xs) >= 1\n")  # [5] has no second value
    r = CrossHairVerifier().verify(weak, task, Limits(case_seconds=2.0))
    assert r.result == "not verified" and "raises" in r.summary, r
