"""Core tests: engine infos asked afresh per test (the toy fixtures are in tests/conftest.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from adequacy.extensions import registry

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


@pytest.fixture(autouse=True)
def _fresh_engine_infos() -> None:
    """Engine infos are asked once per registry; a test that patches an engine must not be
    answered with another test's."""
    registry.registry().refresh()
