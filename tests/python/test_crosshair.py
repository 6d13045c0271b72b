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


def test_symbolic_differences_from_diffbehavior() -> None:
    """diff --symbolic's questions answered with CrossHair: the clamp gold and its flawed
    variants differ where their texts say (checked here with the exec engine, as core's search
    confirms every answer)."""
    from adequacy_python.crosshair_symbolic import find_difference, find_other_output

    from .pysupport import check, post_case, pre_case

    task = load_task(EXAMPLES / "clamp")
    specs = {n: (EXAMPLES / "clamp" / "specs" / f"{n}.py").read_text()
             for n in ("gold", "flawed_pre_too_strong", "flawed_post_too_weak")}
    gold, strong, weak = (loaded(task, specs[n]) for n in specs)
    got = find_difference(task, gold, strong, "pre", "none", 5)
    assert not isinstance(got, str), got
    inp, _ = got
    [a] = check(task, specs["gold"], [pre_case(inp)])
    [b] = check(task, specs["flawed_pre_too_strong"], [pre_case(inp)])
    assert a.value != b.value and a.decided and b.decided
    got = find_difference(task, gold, weak, "post", "a", 5)
    assert not isinstance(got, str) and got[1] is not None, got
    [a] = check(task, specs["gold"], [post_case(got[0], got[1]["result"])])
    [b] = check(task, specs["flawed_post_too_weak"], [post_case(got[0], got[1]["result"])])
    assert (a.value.value, b.value.value) == ("false", "true")
    other = find_other_output(task, weak, {"x": 5, "lo": 0, "hi": 10}, {"result": 5}, 5)
    assert isinstance(other, dict) and other != {"result": 5} and 0 <= other["result"] <= 10
    none = find_other_output(task, gold, {"x": 5, "lo": 0, "hi": 10}, {"result": 5}, 3)
    assert isinstance(none, str) and "does not prove" in none


def test_the_symbolic_capability_answers_core_s_questions(monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    """``PythonBackend.symbolic()`` answers ``differ`` and ``other_output`` questions in the
    shape of core's symbolic model (its ``Answer``/``Decision`` where core has them; plain
    stand-ins otherwise, as a test double of core's types only)."""
    import types

    import adequacy.plugin as api
    from adequacy_python.plugin import PythonBackend

    if not hasattr(api, "Answer"):
        class Stand:
            def __init__(self, **kw: object) -> None:
                self.__dict__.update(kw)

        monkeypatch.setattr(api, "Answer", Stand, raising=False)
        monkeypatch.setattr(api, "Decision", Stand, raising=False)
    sym = PythonBackend().symbolic()
    assert sym is not None and sym.name == "crosshair" and sym.version()
    task = load_task(EXAMPLES / "clamp")
    gold = loaded(task, (EXAMPLES / "clamp" / "specs" / "gold.py").read_text())
    weak = loaded(task, (EXAMPLES / "clamp" / "specs" / "flawed_pre_too_weak.py").read_text())
    limits = types.SimpleNamespace(query_seconds=5.0, memory_mb=2048)
    q = types.SimpleNamespace(kind="differ", a=gold, b=weak, predicate="pre", gate="b",
                              input=None, output=None)
    ans = sym.find(task, q, limits)
    assert ans.status == "found" and ans.input["lo"] > ans.input["hi"], vars(ans)
    q = types.SimpleNamespace(kind="other_output", a=gold, b=None, predicate="post", gate="a",
                              input={"x": 5, "lo": 0, "hi": 10}, output={"result": 5})
    ans = sym.find(task, q, types.SimpleNamespace(query_seconds=3.0, memory_mb=2048))
    assert ans.status == "unknown" and "does not prove" in ans.reason
    d = sym.decide(task, q, limits)
    assert d.value is None
