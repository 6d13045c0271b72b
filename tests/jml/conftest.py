"""Fixtures of the JML tests (helpers live in jml_support)."""

from __future__ import annotations

from pathlib import Path

import pytest
from jml_support import TWO_INTS, Runner, write_task


@pytest.fixture
def two_ints(tmp_path: Path) -> Runner:
    return Runner(write_task(tmp_path / "t"), TWO_INTS)
