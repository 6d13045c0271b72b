"""pass@k and pass^k over one set of tasks at every k: monotone by construction."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adequacy.model.metrics import pass_k_range, summarize

KS = (1, 2, 3, 5, 10, 20)

# a task: how many samples, and which of them passed
tasks = st.lists(st.lists(st.booleans(), min_size=1, max_size=12), min_size=1, max_size=12)


def _results(per_task: list[list[bool]]) -> list[tuple[str, bool, None]]:
    return [(f"t{i}", ok, None) for i, samples in enumerate(per_task) for ok in samples]


@settings(max_examples=300, deadline=None)
@given(tasks)
def test_pass_at_k_never_falls_and_pass_hat_k_never_rises(per_task: list[list[bool]]) -> None:
    s = summarize(_results(per_task), ks=KS)
    ks = sorted(s.pass_at_k)
    assert ks == sorted(s.pass_hat_k)
    for lo, hi in zip(ks, ks[1:], strict=False):
        assert s.pass_at_k[lo] <= s.pass_at_k[hi] + 1e-12
        assert s.pass_hat_k[lo] + 1e-12 >= s.pass_hat_k[hi]
    # every k over the same tasks: those with at least the largest k; the rest counted
    if ks:
        assert s.k_tasks == sum(1 for v in per_task if len(v) >= max(ks))
        assert s.k_tasks + s.k_excluded == len(per_task)
        # the largest k is reached by at least half of the tasks
        assert 2 * s.k_tasks >= len(per_task)


def test_the_curve_the_issue_saw_is_now_monotone() -> None:
    # two easy tasks with 2 samples (both pass) and one hard task with 3 (none passes): averaged
    # per k over whoever reaches k, pass@2 is 2/3 and pass@3 the hard task alone, 0.0 (the
    # curve fell). Over one set, and only up to a k half the tasks reach:
    per_task = [[True, True], [True, True], [False, False, False]]
    s = summarize(_results(per_task), ks=(1, 2, 3))
    assert sorted(s.pass_at_k) == [1, 2]  # k=3 is reached by 1 task of 3: not shown
    assert s.pass_at_k[1] == pytest.approx(2 / 3)
    assert s.pass_at_k[2] == pytest.approx(2 / 3)
    assert (s.k_tasks, s.k_excluded) == (3, 0)
    # with a fourth task of one sample, k=2 is still reached by 3 of 4; the 1-sample task is
    # left out of pass@k (and counted), but still counts in Pass@1
    s = summarize(_results([*per_task, [False]]), ks=(1, 2, 3))
    assert (s.k_tasks, s.k_excluded) == (3, 1)
    assert s.pass_at_k[1] == pytest.approx(2 / 3)
    assert s.pass_at_1 == pytest.approx(2 / 4)


def test_pass_k_range() -> None:
    assert pass_k_range((1, 2, 5), []) == []
    assert pass_k_range((1, 2, 5), [1, 1, 5]) == [1]  # only one task of three reaches 2
    assert pass_k_range((1, 2, 5), [2, 5]) == [1, 2, 5]  # half reach 5
    assert pass_k_range((5,), [1, 1]) == []
