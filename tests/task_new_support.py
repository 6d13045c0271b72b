"""A task made by ``adequacy task new`` and filled in as its user would: one function (the
successor of a non-negative number) whose truth is worked out by hand, for each language."""

from __future__ import annotations

import json
from pathlib import Path

CASES = {
    "pre_complete": [{"id": "p0", "input": {"a": 0}}, {"id": "p5", "input": {"a": 5}}],
    "pre_sound": [{"id": "n1", "input": {"a": -1}}],
    "post_complete": [{"id": "c0", "input": {"a": 0}, "output": {"result": 1}},
                      {"id": "c5", "input": {"a": 5}, "output": {"result": 6}}],
    "post_sound": [{"id": "w0", "input": {"a": 0}, "output": {"result": 0}},
                   {"id": "w5", "input": {"a": 5}, "output": {"result": 7}}],
}
"""``a >= 0`` is the promise; ``result == a + 1`` the answer: a faithful spec passes all."""


def fill_cases(task: Path) -> None:
    for bucket, cases in CASES.items():
        p = task / "tests" / f"{bucket}.jsonl"
        assert p.read_text() == "", f"{p} was written empty by task new"
        p.write_text("".join(json.dumps(c) + "\n" for c in cases))
