"""The smt engine never contradicts rac on any bundled JML spec (--cross-check over both).

Found this way: the JML encoding once asserted, as an axiom, that a method keeps an array's
length; a ``post_sound`` case with a shorter array (reverse_in_place's ``shorter``) made the
facts contradictory, and from a contradiction the solver "proved" the postcondition: a decided
``true`` where rac, running the spec, says ``false``. Facts about which outputs a method can
produce are now only ever assumed while searching for outputs, never while deciding a case.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from adequacy.examples import bundled_folder
from adequacy.model.verdicts import Truth
from adequacy.scoring.runner import score_spec
from adequacy.taskdirs.load import load_task

pytest.importorskip("z3")
pytestmark = pytest.mark.slow

SPECS = [(td, sp) for td in sorted(bundled_folder("jml").iterdir())
         for sp in sorted((td / "specs").glob("*.java"))]


@pytest.mark.parametrize(("task_dir", "spec"), SPECS,
                         ids=[f"{t.name}/{s.name}" for t, s in SPECS])
def test_jml_examples_smt_agrees_with_rac(task_dir: Path, spec: Path) -> None:
    rep = score_spec(load_task(task_dir), spec.read_text(), str(spec), engines=["rac", "smt"],
                     cross_check=True)
    assert rep.status == "scored", rep.error
    assert rep.disagreements == []


def test_a_shorter_output_array_is_no_contradiction() -> None:
    td = bundled_folder("jml") / "reverse_in_place"
    t = load_task(td)
    rep = score_spec(t, (td / "specs" / "gold.java").read_text(), "gold.java",
                     engines=["smt"])
    (v,) = [v for v in rep.verdicts if v.case_id == "shorter"]
    assert v.value is not Truth.true  # the right word (rac's) is false: it is a wrong output
