"""GEPA metrics: scores worked out by hand, feedback contents, and no held-out case ever leaks.

Hand-worked truth: the bare skeleton of binary_search_first (`pre_spec` and `post_spec` both
`true`) accepts everything, so it passes pre_complete 5/5 and post_complete 5/5 and fails
pre_sound 0/8 and post_sound 0/20: mean of the four fractions 0.5; all4 0.0; PostHarness@1 0.0.
"""

from __future__ import annotations

import pytest

pytest.importorskip("dspy", reason="needs the optimize extra: pip install -e '.[optimize]'")

import json  # noqa: E402

import dspy  # noqa: E402

from adequacy.errors import HeldOutTask, MetricUnavailable
from adequacy.model.task import Task  # noqa: E402
from adequacy_optimizers.metrics import SpecMetric  # noqa: E402

from .conftest import example, gold  # noqa: E402


def _case_texts(task: Task) -> list[str]:
    """A case's identity in feedback: its input as compact JSON (with the output after it for
    post cases). A bare output such as {"result":-7} may equal a training case's output by
    coincidence, so outputs are only checked together with their input."""
    out = []
    for c in task.all_cases():
        text = "input " + json.dumps(c.input, separators=(",", ":"))
        if c.output:
            text += ", output " + json.dumps(c.output, separators=(",", ":"))
        out.append(text)
    return out


def _gold(task: Task) -> dspy.Example:
    return dspy.Example(task_id=task.id)


def test_true_true_spec_scores_by_hand():
    task = example("verus", "binary_search_first")
    pred = dspy.Prediction(spec_text=task.skeleton)
    got = {opt: SpecMetric([task], option=opt)(_gold(task), pred)
           for opt in ("mean", "all4", "post")}
    assert got["mean"].score == pytest.approx(0.5)
    assert got["all4"].score == 0.0 and got["post"].score == 0.0
    fb = got["mean"].feedback
    assert "pre_sound (PreComp): 0/8 pass" in fb and "post_sound (PostComp): 0/20 pass" in fb
    assert "pre_complete" not in fb  # passing buckets are not named
    assert fb.count("\n- input") == 3  # max_cases=3 failing cases shown


def test_gold_scores_one_and_says_so():
    task = example("verus", "binary_search_first")
    r = SpecMetric([task])(_gold(task), dspy.Prediction(spec="```rust\n" + gold(
        "verus", "binary_search_first") + "```"))
    assert r.score == 1.0 and r.feedback.startswith("All 38 cases pass")


def test_unparseable_and_invalid_answers_are_scored_failures():
    task = example("verus", "binary_search_first")
    m = SpecMetric([task])
    r = m(_gold(task), dspy.Prediction(spec="I think the answer is 42."))
    assert r.score == 0.0 and "No spec could be read" in r.feedback
    bad = task.skeleton.replace("    true\n}\n\n/// Which outputs", "    input.arr.len( >\n}\n\n"
                                "/// Which outputs", 1)
    r = m(_gold(task), dspy.Prediction(spec_text=bad))
    assert r.score == 0.0 and r.feedback.startswith("The spec is invalid (line ")


def test_gepa_accepts_the_metric_signature():
    task = example("verus", "binary_search_first")
    dspy.GEPA(metric=SpecMetric([task]), max_metric_calls=1, reflection_lm=dspy.LM("x/y"))


def test_verus_has_no_prover_for_vr():
    with pytest.raises(MetricUnavailable, match="prove"):
        SpecMetric([example("verus", "binary_search_first")], kind="vr")


def _check_no_leak(metric: SpecMetric, train: Task, held: list[Task], spec: str) -> None:
    r = metric(_gold(train), dspy.Prediction(spec_text=spec))
    for h in held:
        with pytest.raises(HeldOutTask):
            metric(_gold(h), dspy.Prediction(spec_text=spec))
        for text in _case_texts(h):
            assert text not in r.feedback, (metric.kind, metric.option, text)


@pytest.mark.parametrize("option", ["mean", "all4", "post"])
def test_adequacy_feedback_never_holds_a_held_out_case(option):
    train = example("verus", "binary_search_first")
    held = [example("verus", n) for n in ("coprime_check", "count_in_range", "remove_at")]
    # a spec failing many cases, so that the feedback lists cases
    _check_no_leak(SpecMetric([train], option=option), train, held, train.skeleton)


@pytest.mark.slow
@pytest.mark.requires("key")
@pytest.mark.parametrize("kind", ["vr", "verified_adequacy", "adequacy"])
def test_jml_metrics_feedback_never_holds_a_held_out_case(kind):
    train = example("jml", "abs_value")
    held = [example("jml", "array_max"), example("jml", "linear_search")]
    weak = gold("jml", "abs_value").replace("//@ ensures \\result >= 0;\n", "")
    _check_no_leak(SpecMetric([train], kind=kind), train, held, weak)


@pytest.mark.slow
@pytest.mark.requires("key")
def test_vr_and_verified_adequacy_by_hand():
    """abs_value's gold verifies (its requires excludes MIN_VALUE, the one overflow); the same
    spec claiming `\\result > 0` is false at x = 0, so it cannot verify and scores below 1."""
    task = example("jml", "abs_value")
    g = gold("jml", "abs_value")
    vr = SpecMetric([task], kind="vr")
    assert vr(_gold(task), dspy.Prediction(spec_text=g)).score == 1.0
    wrong = g.replace("\\result >= 0", "\\result > 0")
    r = vr(_gold(task), dspy.Prediction(spec_text=wrong))
    assert r.score in (0.3, 0.1) and "not verified" in r.feedback
    va = SpecMetric([task], kind="verified_adequacy")
    assert va(_gold(task), dspy.Prediction(spec_text=g)).score == 1.0
    r = va(_gold(task), dspy.Prediction(spec_text=wrong))
    assert r.score == 0.0 and "Adequacy" in r.feedback and "not verified" in r.feedback
