"""docs/python-api.md runs as written: its examples are a doctest.

The verdicts it shows are those ``specs/expected.toml`` of binary_search_first states (gold
passes everything, ``flawed_post_too_weak`` fails ``post_sound`` only); the doc computes them
with ``interp``, which needs no tool chain."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def test_python_api_page_runs(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from adequacy.examples import copy_examples

    copy_examples(tmp_path / "examples")
    monkeypatch.chdir(tmp_path)
    failed, attempted = doctest.testfile(
        str(REPO / "docs" / "python-api.md"), module_relative=False, verbose=False,
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert attempted >= 15
    assert failed == 0
