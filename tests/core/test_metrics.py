"""Metrics against expectations computed by hand."""

from __future__ import annotations

import pytest

from adequacy.model.metrics import (
    BucketStats,
    bucket_stats,
    harness_metrics,
    pass_at_k,
    pass_hat_k,
    passed_all,
    summarize,
    untested_buckets,
)
from adequacy.model.verdicts import Bucket, Truth, Verdict


def v(bucket: Bucket, value: Truth, i: int = 0) -> Verdict:
    return Verdict(case_id=str(i), bucket=bucket, value=value, engine="e")


def test_passed_means_matching_expectation() -> None:
    assert v(Bucket.pre_complete, Truth.true).passed
    assert not v(Bucket.pre_complete, Truth.false).passed
    assert v(Bucket.pre_sound, Truth.false).passed
    assert v(Bucket.post_sound, Truth.false).passed
    assert not v(Bucket.post_sound, Truth.unknown).passed


def make() -> list[Verdict]:
    # pre_complete: 3 true, 1 false          -> 3/4 strict, 3/4 lenient
    # pre_sound: 1 false, 1 unknown          -> 1/2 strict, 1/1 lenient
    # post_complete: 2 true                   -> 1.0
    # post_sound: empty                       -> N/A
    vs = [v(Bucket.pre_complete, Truth.true, i) for i in range(3)]
    vs.append(v(Bucket.pre_complete, Truth.false, 3))
    vs += [v(Bucket.pre_sound, Truth.false, 0), v(Bucket.pre_sound, Truth.unknown, 1)]
    vs += [v(Bucket.post_complete, Truth.true, i) for i in range(2)]
    return vs


def test_bucket_stats_and_metrics_strict() -> None:
    st = bucket_stats(make())
    assert st[Bucket.pre_complete] == BucketStats(total=4, passed=3, failed=1, unknown=0)
    assert st[Bucket.pre_sound] == BucketStats(total=2, passed=1, failed=0, unknown=1)
    assert st[Bucket.post_sound].total == 0
    m = harness_metrics(st, strict=True)
    assert m.pre_corr == 0.75
    assert m.pre_comp == 0.5
    assert m.post_corr == 1.0
    assert m.post_comp is None
    assert m.harness_at(0.5) is True
    assert m.harness_at(0.8) is False
    assert m.post_harness_at(1.0) is True  # only PostCorr is applicable
    assert passed_all(st) is False


def test_lenient_leaves_unknown_out() -> None:
    st = bucket_stats(make())
    m = harness_metrics(st, strict=False)
    assert m.pre_comp == 1.0
    assert m.pre_corr == 0.75


def test_passed_all_with_unknown() -> None:
    # one passed case per bucket (complete buckets expect true, sound ones false), plus one
    # unknown in pre_sound: strict counts it as failed, lenient leaves it out
    vs = [v(Bucket.pre_complete, Truth.true, 0), v(Bucket.pre_sound, Truth.false, 1),
          v(Bucket.pre_sound, Truth.unknown, 2), v(Bucket.post_complete, Truth.true, 3),
          v(Bucket.post_sound, Truth.false, 4)]
    st = bucket_stats(vs)
    assert passed_all(st, strict=True) is False
    assert passed_all(st, strict=False) is True
    all_unknown = bucket_stats([v(b, Truth.unknown, i) for i, b in enumerate(Bucket)])
    assert passed_all(all_unknown, strict=False) is False


def test_passed_all_needs_every_bucket_tested() -> None:
    # an imported task without sound cases must not let a spec pass
    only_complete = bucket_stats([v(Bucket.pre_complete, Truth.true, 0),
                                  v(Bucket.post_complete, Truth.true, 1)])
    assert passed_all(only_complete, strict=True) is False
    assert passed_all(only_complete, strict=False) is False
    assert untested_buckets(only_complete) == [Bucket.pre_sound, Bucket.post_sound]
    # lenient: a bucket whose cases are all unknown is untested too
    lenient = bucket_stats([v(Bucket.pre_complete, Truth.true, 0),
                            v(Bucket.pre_sound, Truth.unknown, 1),
                            v(Bucket.post_complete, Truth.true, 2),
                            v(Bucket.post_sound, Truth.false, 3)])
    assert untested_buckets(lenient, strict=False) == [Bucket.pre_sound]
    assert passed_all(lenient, strict=False) is False


def test_empty_metrics_are_na() -> None:
    m = harness_metrics(bucket_stats([]))
    assert (m.post_corr, m.post_comp, m.pre_corr, m.pre_comp) == (None, None, None, None)
    assert m.harness_at(1.0) is None


def test_pass_at_k_by_hand() -> None:
    # n=5, c=2, k=2: 1 - C(3,2)/C(5,2) = 1 - 3/10
    assert pass_at_k(5, 2, 2) == pytest.approx(0.7)
    assert pass_at_k(5, 0, 3) == 0.0
    assert pass_at_k(5, 4, 2) == 1.0  # n - c < k
    assert pass_at_k(10, 3, 1) == pytest.approx(0.3)
    # pass^k: C(2,2)/C(5,2) = 1/10; C(4,2)/C(5,2) = 6/10
    assert pass_hat_k(5, 2, 2) == pytest.approx(0.1)
    assert pass_hat_k(5, 4, 2) == pytest.approx(0.6)
    with pytest.raises(ValueError):
        pass_at_k(3, 4, 1)
    with pytest.raises(ValueError):
        pass_at_k(3, 1, 4)


def test_summarize_over_tasks() -> None:
    ok = bucket_stats([v(Bucket.pre_complete, Truth.true)])
    res = [("a", True, ok), ("a", False, ok), ("b", True, ok), ("b", True, ok), ("c", False, None)]
    s = summarize(res, ks=(1, 2))
    # per task pass@1: a 0.5, b 1.0, c 0.0 -> mean 0.5
    assert s.pass_at_1 == pytest.approx(0.5)
    # pass@2 over tasks with >=2 samples (a, b): a 1.0, b 1.0
    assert s.pass_at_k[2] == pytest.approx(1.0)
    # pass^2: a 0.0, b 1.0 -> 0.5
    assert s.pass_hat_k[2] == pytest.approx(0.5)
    assert s.invalid == 1


def test_a_bucket_empty_by_design_does_not_block_a_pass() -> None:
    from adequacy.model.metrics import BucketStats, passed_all, untested_buckets
    from adequacy.model.verdicts import Bucket

    stats = {b: BucketStats(total=2, passed=2) for b in Bucket}
    stats[Bucket.pre_sound] = BucketStats()
    assert not passed_all(stats)  # an untested bucket keeps a spec from passing...
    assert passed_all(stats, empty_by_design=[Bucket.pre_sound])  # ...unless it must be empty
    assert untested_buckets(stats, empty_by_design=[Bucket.pre_sound]) == []
    stats[Bucket.post_sound] = BucketStats()  # only the declared bucket is excused
    assert not passed_all(stats, empty_by_design=[Bucket.pre_sound])
