"""The containment corpus runs only where the sandbox can contain: elsewhere it says why."""

from __future__ import annotations

import pytest

from adequacy import sandbox


@pytest.fixture(scope="session", autouse=True)
def fully_contained() -> None:
    """The corpus asserts containment; a machine that cannot give it says so instead."""
    lacking = sandbox.missing()
    if lacking:
        pytest.skip("sandbox protections missing here: " + "; ".join(p.name for p in lacking))
