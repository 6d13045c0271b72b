"""A job's key changes whenever any scoring option changes: resume must never take a record
scored under other options for done. Every field of ``ScoreOptions`` and of its ``Limits`` is
drawn, so a field added to either model is covered without an edit here."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from adequacy.extensions.backend import Limits
from adequacy.scoring.keys import job_key
from adequacy.scoring.options import ScoreOptions
from adequacy.taskdirs.load import load_task


def _changed(field: str, value: Any) -> Any:
    """A different valid value of the same kind."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, float):
        return value * 2 + 1
    if isinstance(value, list):
        return [*value, "interp"]
    if value is None:
        return "toy"
    raise AssertionError(f"no rule to change {field}={value!r}")


FIELDS = [f for f in ScoreOptions.model_fields if f != "limits"]
LIMIT_FIELDS = list(Limits.model_fields)


def test_every_field_is_drawn() -> None:
    """The property below must see every field (an empty list would pass vacuously)."""
    assert {"engines", "strict", "cross_check", "backend"} <= set(FIELDS)
    assert {"case_seconds", "spec_seconds", "memory_mb", "steps", "timeout_streak"} <= set(
        LIMIT_FIELDS)


@pytest.mark.property
def test_any_option_change_changes_the_key(toy_task: Path) -> None:
    task = load_task(toy_task)

    @given(field=st.sampled_from(FIELDS + [f"limits.{f}" for f in LIMIT_FIELDS]))
    def check(field: str) -> None:
        _differs(task, field)

    check()


def _differs(task: Any, field: str) -> None:
    base = ScoreOptions()
    if field.startswith("limits."):
        name = field.split(".", 1)[1]
        limits = Limits(**{name: _changed(name, getattr(base.limits, name))})
        other = base.with_(limits=limits)
    else:
        other = base.with_(**{field: _changed(field, getattr(base, field))})
    assert other != base
    assert job_key(task, "spec", other) != job_key(task, "spec", base)
