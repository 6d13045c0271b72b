"""Shared fixtures: the public datasets beside the repository, when present."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def find_datasets() -> Path | None:
    """``../shared/datasets`` beside the checkout, or ``$ADEQUACY_DATASETS``."""
    env = os.environ.get("ADEQUACY_DATASETS")
    for cand in ([Path(env)] if env else []) + [REPO.parent / "shared" / "datasets"]:
        if cand.is_dir():
            return cand
    return None


@pytest.fixture(scope="session")
def datasets_dir() -> Path:
    d = find_datasets()
    if d is None:
        pytest.skip("../shared/datasets is not present (set ADEQUACY_DATASETS to point at it)")
    return d
