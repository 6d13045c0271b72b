"""The JML half of the semantics suite: every probe under rac and key, "decided means correct".

Truths are worked out by hand in ``jml_probes.py`` with their source. rac must also decide
every case whose truth is determined (except probes marked ``rac_gap``); key may leave cases
open (its incompleteness is documented in docs/key.md) but never decides one wrongly, and
never calls a valid spec invalid.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from jml_probes import PROBES, Probe, run, wrong  # noqa: E402

from adequacy.errors import SpecInvalid  # noqa: E402

pytestmark = pytest.mark.slow
VALID = [p for p in PROBES if not p.invalid]
INVALID = [p for p in PROBES if p.invalid]


def test_at_least_thirty_probes() -> None:
    assert len(VALID) >= 30 and all(p.source for p in PROBES)


@pytest.mark.requires("javac")
@pytest.mark.parametrize("probe", VALID, ids=lambda p: p.id)
def test_rac_decides_correctly(probe: Probe, tmp_path: Path) -> None:
    results = run(probe, "rac", tmp_path)
    assert not wrong(results), results
    if not probe.rac_gap:
        undecided = [r for r in results if r[0] is not None and r[1] == "unknown"]
        assert not undecided, undecided


@pytest.mark.requires("javac")
@pytest.mark.parametrize("pid", ["real-of-double-inexact", "real-transcendental"])
def test_rac_says_why_a_real_is_not_computed(pid: str, tmp_path: Path) -> None:
    """A \\real rac cannot compute exactly is unknown with the reason, not rounded."""
    probe = next(p for p in PROBES if p.id == pid)
    for _truth, value, reason in run(probe, "rac", tmp_path):
        assert value == "unknown" and "\\real" in reason, reason


@pytest.mark.parametrize("probe", INVALID, ids=lambda p: p.id)
def test_front_end_rejects_ill_formed(probe: Probe, tmp_path: Path) -> None:
    with pytest.raises(SpecInvalid) as e:
        run(probe, "rac", tmp_path)
    assert e.value.line is not None and e.value.file == f"{probe.id}.java"


@pytest.mark.requires("key")
@pytest.mark.parametrize("probe", VALID, ids=lambda p: p.id)
def test_key_decides_correctly(probe: Probe, tmp_path: Path) -> None:
    results = run(probe, "key", tmp_path)
    assert not wrong(results), results
