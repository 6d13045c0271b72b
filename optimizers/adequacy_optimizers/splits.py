"""Seeded splits of tasks into train / validation / test, stratified by tag.

Tasks are grouped by their last tag (``verina_basic``, ``branch``, ``search`` ...), shuffled
within each group with the seed and ordered by position within their group (systematic
sampling with a random start), so every tag is spread over the three splits in about the same
proportions; the sizes are the requested proportions of the task count, rounded so that they
add up (``split_sizes``). The study used 100 / 50 / 512 tasks; sizes are proportions.
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


def split_sizes(n: int, proportions: tuple[float, float, float]) -> tuple[int, int, int]:
    """Train, validation and test sizes of ``n`` tasks: each share of ``n`` rounded down, the
    tasks left over to the largest remainders (so the sizes add up to ``n`` and each is within
    one task of its share); training gets at least one task."""
    total = sum(proportions)
    raw = [n * p / total for p in proportions]
    sizes = [int(r) for r in raw]
    for i in sorted(range(3), key=lambda i: -(raw[i] - sizes[i]))[:n - sum(sizes)]:
        sizes[i] += 1
    if n and not sizes[0]:  # tiny sets: never leave training empty
        sizes[max((1, 2), key=lambda i: sizes[i])] -= 1
        sizes[0] = 1
    return sizes[0], sizes[1], sizes[2]


def empty_splits(n: int, proportions: tuple[float, float, float]) -> list[str]:
    """The splits given a positive share that ``n`` tasks leave empty."""
    sizes = split_sizes(n, proportions)
    return [name for name, p, k in zip(("train", "validation", "test"), proportions, sizes,
                                       strict=True) if p > 0 and k == 0]


def split_tasks(tasks: Sequence[Task], proportions: tuple[float, float, float] = (100, 50, 512),
                seed: int = 0) -> Splits:
    """Sizes as ``split_sizes`` says; within them, each tag spread over the three splits in
    proportion: tasks are ordered by their place within their tag's shuffled group (a random
    start per group), and the first ``train`` of that order train, the next ``validation``
    validate, the rest test."""
    total = sum(proportions)
    props = (proportions[0] / total, proportions[1] / total, proportions[2] / total)
    rng = random.Random(seed)
    groups: dict[str, list[str]] = {}
    for t in sorted(tasks, key=lambda t: t.id):
        groups.setdefault(stratum(t), []).append(t.id)
    keyed: list[tuple[float, float, str]] = []
    for key in sorted(groups):
        ids = groups[key]
        rng.shuffle(ids)
        offset = rng.random()
        keyed += [((j + offset) / len(ids), rng.random(), tid) for j, tid in enumerate(ids)]
    order = [tid for *_, tid in sorted(keyed)]
    n_train, n_val, _ = split_sizes(len(order), props)
    return Splits(train=order[:n_train], val=order[n_train:n_train + n_val],
                  test=order[n_train + n_val:], seed=seed, proportions=props)
