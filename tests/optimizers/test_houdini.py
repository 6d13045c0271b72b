"""The Houdini writer with the real KeY prover.

Hand-worked truth for abs_value (`return x < 0 ? -x : x` on Java int): the template writer's
preconditions from the visible valid inputs do not exclude Integer.MIN_VALUE, where `-x`
overflows to a negative number, so `\\result >= 0` is false for some allowed input and must be
dropped; whatever survives must be proved by KeY as a whole.
"""

from __future__ import annotations

import pytest

from adequacy_optimizers.houdini import HoudiniWriter
from adequacy_optimizers.verifier import prove

from .conftest import example


@pytest.mark.slow
@pytest.mark.requires("key")
def test_houdini_keeps_only_what_key_proves():
    task = example("jml", "abs_value")
    [w] = HoudiniWriter(proof_seconds=20).write(task)
    assert w.text is not None, w.error
    assert "ensures \\result >= 0;" not in w.text
    assert any(n.startswith("dropped") and "\\result >= 0" in n for n in w.notes)
    if "ensures" in w.text:
        assert prove(task, w.text).result == "verified"


def test_houdini_on_verus_says_why_not():
    [w] = HoudiniWriter().write(example("verus", "binary_search_first"))
    assert w.text is None and w.error and "prove" in w.error
