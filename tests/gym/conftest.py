"""Gym fixtures: gym folders made from the bundled examples of both languages."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from adequacy.examples import bundled_folder
from adequacy.gym import make_gym

REPO = Path(__file__).resolve().parents[2]
VERUS = bundled_folder("verus")
JML = bundled_folder("jml")


@pytest.fixture
def sources(tmp_path: Path) -> Path:
    """Copies of a few bundled tasks (tests may edit them)."""
    src = tmp_path / "src"
    for d in (VERUS / "binary_search_first", VERUS / "euclid_mod", JML / "abs_value",
              JML / "linear_search"):
        shutil.copytree(d, src / d.name)
    return src


@pytest.fixture
def gym(sources: Path, tmp_path: Path) -> Path:
    out = tmp_path / "gym"
    make_gym([sources], out, visible=3, seed=0)
    return out
