"""A search's budget is a deadline for everything it runs, the engines' own work included.

The toy engine is made slow the way a cold compile is: it spends all the time it is given.
Before the runner cut each engine's time to the search's deadline, one batch cost an engine's
full ``spec_seconds`` per engine of the chain (``diff --budget 10`` ran 30 s when the cases
fell through to a compiling engine); now the whole search ends within its budget plus the
time one process call needs to notice.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from adequacy.extensions.backend import Limits
from adequacy.model.verdicts import Truth
from adequacy.scoring.options import ScoreOptions
from adequacy.search.explore import compare
from adequacy.search.oracles import SpecJudge
from adequacy.taskdirs.load import load_task

GOLD = "pre: x >= 0\npost: result == x + 1\n"
OTHER = "pre: x >= 1\npost: result == x + 1\n"


@pytest.fixture
def slow_engines(toy: None, monkeypatch: pytest.MonkeyPatch) -> list[float]:
    import adequacy_toy.plugin as toy_plugin
    given: list[float] = []

    def slow(self, spec, task, cases, limits):  # type: ignore[no-untyped-def]
        given.append(limits.spec_seconds)
        time.sleep(min(limits.spec_seconds, 30))
        return [toy_plugin.Verdict(case_id=c.id, bucket=c.bucket, value=Truth.unknown,
                                   engine=self.name, reason="still compiling") for c in cases]

    monkeypatch.setattr(toy_plugin.ToyEngine, "check", slow)
    return given


def test_compare_ends_within_its_budget(slow_engines: list[float], toy_task: Path) -> None:
    task = load_task(toy_task)
    opts = ScoreOptions(engines=["picky", "exact"], limits=Limits(spec_seconds=20))
    left = SpecJudge(task, OTHER, "other", opts)
    right = SpecJudge(task, GOLD, "gold", opts)
    t0 = time.monotonic()
    rep = compare(task, left, right, budget=1.5, gate="both")
    took = time.monotonic() - t0
    assert took < 2.5, took
    assert not rep.disagreements and rep.undecided > 0
    assert slow_engines and max(slow_engines) <= 1.5
