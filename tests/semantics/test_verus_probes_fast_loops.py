"""The Verus probes again with interp's fast loops forced on every quantifier range (they are
compiled only for ranges of 256 instances or more by default, which no probe reaches): the
lowered loops must give the hand-worked truth (0 wrong, nothing decided on an unspecified
case) and exactly the closures' verdicts."""

from __future__ import annotations

from pathlib import Path

import pytest
from verus_probe_data import PROBES, run_probe, wrong

from adequacy_verus.interp import quant as Q


@pytest.mark.parametrize("probe", PROBES, ids=[p.name for p in PROBES])
def test_fast_loops_agree_with_the_truth_and_the_closures(
        probe: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Q, "LOWER_AT", 1 << 60)
    slow = run_probe(probe, tmp_path / "slow", ["interp"])["interp"]  # type: ignore[arg-type]
    monkeypatch.setattr(Q, "LOWER_AT", 0)
    fast = run_probe(probe, tmp_path / "fast", ["interp"])["interp"]  # type: ignore[arg-type]
    assert wrong(probe, fast) == []  # type: ignore[arg-type]
    assert [v.value for v in fast] == [v.value for v in slow]
