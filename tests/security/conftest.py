"""The containment corpus runs only where the sandbox can contain: elsewhere it says why."""

from __future__ import annotations

import pytest

from adequacy.sandbox import bwrap


@pytest.fixture(scope="session", autouse=True)
def fully_contained() -> None:
    """The corpus asserts containment; a machine that cannot give it says so instead."""
    probe = bwrap.probe(False)
    if not probe.ok:
        pytest.skip(f"the sandbox cannot contain here: {probe.reason}")
