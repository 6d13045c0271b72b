"""The rule every engine applies to a predicate that keeps timing out (issue 10 section 5)."""

from __future__ import annotations

from adequacy.backend import Limits, TimeoutStreak


def test_three_timeouts_in_a_row_give_the_predicate_up() -> None:
    s = TimeoutStreak(Limits().timeout_streak)
    assert Limits().timeout_streak == 3
    for _ in range(2):
        s.note("post", True)
        assert s.skip_reason("post") is None
    s.note("post", False)  # a case that finished resets the count
    for _ in range(2):
        s.note("post", True)
    assert s.skip_reason("post") is None
    s.note("post", True)
    why = s.skip_reason("post")
    assert why is not None and "3 cases in a row" in why and "--timeout-streak 3" in why
    assert s.skip_reason("pre") is None  # the other predicate still runs ...
    s.note("pre", False)
    assert s.skip_reason("pre") is None
    s.note("pre", True)  # ... until it times out once
    why = s.skip_reason("pre")
    assert why is not None and "already given up" in why


def test_zero_never_gives_up() -> None:
    s = TimeoutStreak(0)
    for _ in range(50):
        s.note("pre", True)
    assert s.skip_reason("pre") is None
