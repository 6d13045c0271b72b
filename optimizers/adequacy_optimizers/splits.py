"""Seeded splits of tasks into train / validation / test, stratified by tag.

Tasks are grouped by their last tag (``verina_basic``, ``branch``, ``search`` ...), shuffled
within each group with the seed and dealt out by position within the group in proportion to
the requested sizes (systematic sampling with a random start), so every tag is spread over the three splits in
about the same proportions. The study used 100 / 50 / 512 tasks; sizes are proportions.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from pydantic import BaseModel

from adequacy.errors import AdequacyError
from adequacy.model.task import Task


class Splits(BaseModel):
    train: list[str]
    val: list[str]
    test: list[str]
    seed: int
    proportions: tuple[float, float, float]


def parse_proportions(text: str) -> tuple[float, float, float]:
    """``"100/50/512"`` or ``"0.6/0.2/0.2"``: three non-negative numbers with a positive sum."""
    parts = text.replace(",", "/").split("/")
    try:
        nums = [float(p) for p in parts]
    except ValueError:
        nums = []
    if len(nums) != 3 or any(n < 0 for n in nums) or sum(nums) <= 0 or nums[0] <= 0:
        raise AdequacyError(f"--split {text!r}: expected TRAIN/VAL/TEST sizes such as 100/50/512 "
                            "(train must be positive)")
    total = sum(nums)
    return (nums[0] / total, nums[1] / total, nums[2] / total)


def stratum(task: Task) -> str:
    return task.tags[-1] if task.tags else ""


def split_tasks(tasks: Sequence[Task], proportions: tuple[float, float, float] = (100, 50, 512),
                seed: int = 0) -> Splits:
    total = sum(proportions)
    props = (proportions[0] / total, proportions[1] / total, proportions[2] / total)
    rng = random.Random(seed)
    groups: dict[str, list[str]] = {}
    for t in sorted(tasks, key=lambda t: t.id):
        groups.setdefault(stratum(t), []).append(t.id)
    cuts = (props[0], props[0] + props[1])
    out: dict[str, list[str]] = {"train": [], "val": [], "test": []}
    for key in sorted(groups):
        ids = groups[key]
        rng.shuffle(ids)
        offset = rng.random()
        for j, tid in enumerate(ids):
            pos = (j + offset) / len(ids)
            name = "train" if pos < cuts[0] else "val" if pos < cuts[1] else "test"
            out[name].append(tid)
    if not out["train"] and tasks:  # tiny sets: never leave training empty
        moved = (out["test"] or out["val"]).pop(0)
        out["train"].append(moved)
    return Splits(train=out["train"], val=out["val"], test=out["test"], seed=seed,
                  proportions=props)
