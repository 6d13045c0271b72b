"""The worked examples shipped with the gym are right: an agent copies their style.

Truths by hand (clamp x into [lo, hi], lo <= hi promised): the gold spec accepts the 4 valid
inputs and the 5 correct outputs and rejects the 2 inputs with lo > hi and the 4 wrong outputs;
the skeleton (true / true) accepts everything, so it fails exactly pre_sound 2 and post_sound 4.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from adequacy.extensions import registry
from adequacy.gym.make import gold_spec, shipped_dirs
from adequacy.model.verdicts import Bucket
from adequacy.scoring.runner import score_spec
from adequacy.taskdirs.discovery import discover_tasks
from adequacy.taskdirs.load import load_task

TASKS = discover_tasks(shipped_dirs())


def test_one_example_per_language() -> None:
    assert sorted(load_task(d).language for d in TASKS) == ["jml", "python", "verus"]
    # each language's example is its own backend's (examples belong to their language)
    for d in TASKS:
        owner = registry.registry().owner(load_task(d).language)
        assert owner.gym_example_dir is not None and d.is_relative_to(owner.gym_example_dir)


@pytest.mark.parametrize("root", TASKS, ids=lambda p: p.parent.name)
def test_gold_passes_everything_and_the_skeleton_fails_the_sound_buckets(root: Path) -> None:
    task = load_task(root)
    gold = gold_spec(task)
    assert gold is not None
    rep = score_spec(task, gold.read_text(), gold.name)
    assert rep.status == "scored" and rep.passed_all, rep.model_dump_json()
    skel = score_spec(task, task.skeleton, task.files.skeleton)
    failed = {b: s.failed for b, s in skel.buckets.items() if s.failed}
    assert failed == {Bucket.pre_sound: 2, Bucket.post_sound: 4}
