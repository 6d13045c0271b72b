"""Symbolic diff on bundled examples: a confirmed, shrunk counterexample in the flaw's bucket,
and a proof (with its scope) for an equivalent rewrite. Truths: the flawed spec's bucket is
the one `specs/expected.toml` records; the rewrite was checked by hand to be equivalent."""

from __future__ import annotations

from pathlib import Path

import pytest

from adequacy.examples import bundled_folder
from adequacy.search.symbolic import equivalence
from adequacy.taskdirs.load import load_task

pytest.importorskip("z3")
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]


def test_flawed_post_is_found_and_confirmed() -> None:
    td = bundled_folder("verus") / "binary_search_first"
    t = load_task(td)
    rep = equivalence(t, (td / "specs" / "flawed_post_too_weak.rs").read_text(),
                      (td / "specs" / "gold.rs").read_text(), budget=20)
    assert rep.verdict() == "different"
    (d,) = rep.counterexamples
    assert d.bucket.value == "post_sound" and d.left is True and d.right is False
    assert all(f.status == "counterexample" for f in rep.findings)


def test_rewrite_is_proved_with_its_scope() -> None:
    td = bundled_folder("verus") / "coprime_check"
    t = load_task(td)
    rw = ROOT / "benchmarks" / "symbolic_rewrites" / "verus" / "coprime_check" / "reordered.rs"
    rep = equivalence(t, rw.read_text(), (td / "specs" / "gold.rs").read_text(), budget=20)
    assert rep.verdict() == "equivalent"
    assert all(r.answer.claim() == "for every input" for r in rep.results)
