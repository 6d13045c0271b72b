"""Only the JML front end calls a spec invalid.

The front end (``jml/``) must not need any engine: name resolution moved out of rac's
translator into ``jml/resolve.py``, so a spec rac cannot translate is rac's gap (its cases
``unknown``), not a rejection that would also cost key and openjml their verdicts.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from adequacy.errors import SpecInvalid
from adequacy.examples import bundled_folder
from adequacy.extensions.backend import Limits
from adequacy.model.verdicts import Truth
from adequacy.scoring.runner import score_spec
from adequacy.taskdirs.load import load_task
from adequacy_openjml.engines.rac import engine as rac_engine
from adequacy_openjml.jml.load import load

EXAMPLES = bundled_folder("jml")


def test_front_end_imports_no_engine() -> None:
    code = ("import sys, adequacy_openjml.jml.load\n"
            "bad = [m for m in sys.modules if '.openjml.engines' in m or '.openjml.stubs' in m]\n"
            "assert not bad, bad\n")
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize(("clause", "message"), [
    ("ensures \\result == y;", "cannot find symbol: variable y"),
    ("requires \\result > 0;", "\\result may only appear in ensures"),
    ("ensures \\old(\\result) == 0;", "\\result inside \\old"),
    ("ensures \\result == Math;", "class name Math used as a value"),
    ("ensures \\result == this.x;", "cannot find symbol: variable x in Solution"),
    ("ensures this != null;", "'this' in the spec of a static method"),
    ("ensures \\result == nosuch(x);", "cannot find symbol: method nosuch(int)"),
])
def test_language_errors_are_the_front_ends(clause: str, message: str) -> None:
    task = load_task(EXAMPLES / "abs_value")
    text = (EXAMPLES / "abs_value" / "specs" / "gold.java").read_text()
    text = text.replace("    public static int", f"    //@ {clause}\n    public static int", 1)
    with pytest.raises(SpecInvalid) as e:
        load(task, text, "S.java")
    assert message in e.value.message and e.value.engine is None and e.value.line


def test_rac_translation_gap_is_unknown_not_invalid(monkeypatch: pytest.MonkeyPatch) -> None:
    """A clause rac cannot translate (simulated: the translator refuses) leaves rac's cases
    unknown with the spec's line; the spec is still scored."""
    task = load_task(EXAMPLES / "abs_value")
    text = (EXAMPLES / "abs_value" / "specs" / "gold.java").read_text()

    def refuse(*_args: object) -> object:
        raise SpecInvalid("cannot translate this clause", file="S.java", line=3)

    monkeypatch.setattr(rac_engine, "build_unit", refuse)
    rep = score_spec(task, text, "S.java", engines=["rac"], limits=Limits(), cache=None)
    assert rep.status == "scored" and rep.invalid is None
    assert rep.verdicts and all(v.value is Truth.unknown for v in rep.verdicts)
    assert all("outside rac's fragment" in v.reason and "spec line 3" in v.reason
               for v in rep.verdicts)
