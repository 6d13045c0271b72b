"""Paired comparison: sign test and bootstrap against values worked out by hand."""

from __future__ import annotations

from pathlib import Path

import pytest

from adequacy.records.html import compare, read_records
from adequacy.records.html._compare import sign_test

from .conftest import full, spec_report, write


def test_sign_test_exact_values() -> None:
    # 8 better, 1 worse: P(X <= 1 | n=9, p=1/2) = (1 + 9) / 512; two-sided doubles it.
    assert sign_test(8, 1) == pytest.approx(20 / 512)
    assert sign_test(3, 3) == 1.0
    assert sign_test(0, 0) is None
    assert sign_test(5, 0) == pytest.approx(2 / 32)


def test_compare_pairs_tasks_and_flags_flips(tmp_path: Path) -> None:
    # 9 tasks in both: B passes t0..t7 where A failed, t8 got worse; t9 only in A.
    a = [spec_report(f"t{i}", "s.rs", full(i == 8), key=f"a{i}") for i in range(10)]
    b = [spec_report(f"t{i}", "s.rs", full(i != 8), key=f"b{i}") for i in range(9)]
    cmp = compare(read_records([write(tmp_path / "a.jsonl", a)]),
                  read_records([write(tmp_path / "b.jsonl", b)]), "a", "b", resamples=2000)
    p1 = cmp.deltas[0]
    assert (p1.tasks, p1.better, p1.worse, p1.same) == (9, 8, 1, 0)
    assert p1.mean_diff == pytest.approx(7 / 9)
    assert p1.sign_p == pytest.approx(20 / 512)
    assert p1.ci_low is not None and p1.ci_high is not None
    assert p1.ci_low <= 7 / 9 <= p1.ci_high and p1.ci_high <= 1.0
    assert (cmp.only_a, cmp.only_b) == (1, 0)
    assert [c.task_id for c in cmp.worsened] == ["t8"]
    assert len(cmp.specs_flipped) == 9
    post_sound = next(d for d in cmp.deltas if d.measure.startswith("post_sound"))
    assert post_sound.mean_diff == pytest.approx((8 * (1 - 2 / 3) - (1 - 2 / 3)) / 9)
    pre = next(d for d in cmp.deltas if d.measure.startswith("pre_complete"))
    assert pre.mean_diff == 0 and pre.same == 9 and pre.sign_p is None


def test_bootstrap_is_seeded(tmp_path: Path) -> None:
    a = [spec_report(f"t{i}", "s.rs", full(i % 2 == 0), key=f"a{i}") for i in range(6)]
    b = [spec_report(f"t{i}", "s.rs", full(i % 3 == 0), key=f"b{i}") for i in range(6)]
    ra = read_records([write(tmp_path / "a.jsonl", a)])
    rb = read_records([write(tmp_path / "b.jsonl", b)])
    one = compare(ra, rb, resamples=500, seed=3).deltas[0]
    two = compare(ra, rb, resamples=500, seed=3).deltas[0]
    assert (one.ci_low, one.ci_high) == (two.ci_low, two.ci_high)
