"""The rule every engine applies to a predicate that keeps timing out."""

from __future__ import annotations

from adequacy.extensions.backend import FailureStreak, Limits


def test_three_timeouts_in_a_row_give_the_predicate_up() -> None:
    s = FailureStreak(Limits().timeout_streak)
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
    s = FailureStreak(0)
    for _ in range(50):
        s.note("pre", True)
    assert s.skip_reason("pre") is None


def test_every_failure_kind_counts_and_is_named() -> None:
    """out of memory, stack overflow, a dead worker and a forbidden action give a
    predicate up like timeouts do, and the reason names the kind and says the rest are
    skipped."""
    from adequacy.extensions.backend import FAILURE_KINDS, FailureStreak

    words = {"timeout": "ran out of its case budget", "out of memory": "ran out of memory",
             "stack overflow": "overflowed its stack", "worker died": "killed its worker",
             "forbidden": "forbidden action"}
    for kind in FAILURE_KINDS:
        s = FailureStreak(3)
        for _ in range(2):
            s.note("post", kind)
            assert s.skip_reason("post") is None
        s.note("post", kind)
        why = s.skip_reason("post")
        assert why is not None and words[kind] in why, (kind, why)
        assert "3 cases in a row" in why and "remaining cases are skipped" in why


def test_mixed_failures_count_together_and_a_verdict_resets() -> None:
    from adequacy.extensions.backend import FailureStreak

    s = FailureStreak(3)
    s.note("pre", "timeout")
    s.note("pre", "out of memory")
    s.note("pre", None)  # a case that gave a verdict
    s.note("pre", "timeout")
    s.note("pre", "out of memory")
    assert s.skip_reason("pre") is None
    s.note("pre", "out of memory")
    why = s.skip_reason("pre")
    assert why is not None and "1 x timeout, 2 x out of memory" in why


def test_an_unknown_failure_kind_is_refused() -> None:
    import pytest

    from adequacy.extensions.backend import FailureStreak

    with pytest.raises(ValueError, match="unknown failure kind"):
        FailureStreak(3).note("pre", "undefined")


def test_key_names_the_kind_of_a_failed_proof_or_request() -> None:
    """The KeY engine's side of the rule (no KeY needed: these read the worker's replies)."""
    from adequacy_openjml.engines.key import engine as key

    assert key._failure_kind({"status": "timeout"}) == "timeout"
    assert key._failure_kind({"status": "error",
                              "reason": "java.lang.StackOverflowError"}) == "stack overflow"
    assert key._failure_kind({"status": "error", "reason": "OutOfMemoryError"}) == \
        "out of memory"
    assert key._failure_kind({"status": "open"}) is None
    why = key._request_failure({"ok": False, "error": "KeY worker exited (code 137)",
                                "died": True}, None)  # type: ignore[arg-type]
    assert "worker died" in why and "remaining cases are skipped" in why
    why = key._request_failure({"ok": False, "error": "out of memory"}, None)  # type: ignore[arg-type]
    assert "ran out of memory" in why and "remaining cases are skipped" in why
