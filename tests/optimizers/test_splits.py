"""Splits: seeded, disjoint, covering, proportional, stratified."""

from __future__ import annotations

from pathlib import Path

import pytest

from adequacy.errors import AdequacyError
from adequacy.model.task import Task
from adequacy_optimizers.splits import parse_proportions, split_tasks


def _task(i: int, tag: str) -> Task:
    return Task(id=f"t{i:03d}", language="verus", tags=["ds", tag], inputs=[], outputs=[],
                root=Path("/nonexistent"), cases={})


def test_split_is_seeded_disjoint_proportional_and_stratified():
    tasks = [_task(i, "a" if i % 3 else "b") for i in range(120)]
    s = split_tasks(tasks, (0.5, 0.25, 0.25), seed=7)
    assert s == split_tasks(list(reversed(tasks)), (0.5, 0.25, 0.25), seed=7)
    assert s != split_tasks(tasks, (0.5, 0.25, 0.25), seed=8)
    every = s.train + s.val + s.test
    assert sorted(every) == sorted(t.id for t in tasks) and len(set(every)) == 120
    assert len(s.train) == 60 and len(s.val) == 30 and len(s.test) == 30
    b_ids = {t.id for t in tasks if t.tags[-1] == "b"}  # 40 tasks tagged b
    assert 18 <= len(b_ids & set(s.train)) <= 22 and 8 <= len(b_ids & set(s.val)) <= 12


def test_proportions_parse_and_reject_nonsense():
    assert parse_proportions("100/50/512") == pytest.approx((100 / 662, 50 / 662, 512 / 662))
    for bad in ("1/2", "a/b/c", "0/1/1", "-1/1/1"):
        with pytest.raises(AdequacyError, match="--split"):
            parse_proportions(bad)


def test_sizes_are_the_asked_proportions_of_the_task_count():
    from adequacy_optimizers.splits import empty_splits, split_sizes

    # 7 tasks at 4/2/1 are 4/2/1 (before: train 3, validation 4, test 0, silently)
    s = split_tasks([_task(i, "a" if i % 2 else "b") for i in range(7)], (4, 2, 1), seed=0)
    assert (len(s.train), len(s.val), len(s.test)) == (4, 2, 1)
    assert split_sizes(7, (4, 2, 1)) == (4, 2, 1) and empty_splits(7, (4, 2, 1)) == []
    # each within one task of its share, adding up: 10 at 1/1/1 -> 3.33 each -> 4/3/3
    assert split_sizes(10, (1, 1, 1)) == (4, 3, 3)
    # too few tasks for a share the user gave: named
    assert split_sizes(3, (4, 2, 1)) == (2, 1, 0) and empty_splits(3, (4, 2, 1)) == ["test"]
    # a share of 0 is not asked for; training always gets a task
    assert empty_splits(3, (4, 2, 0)) == [] and split_sizes(2, (1, 50, 50))[0] == 1
