"""``invariant`` predicates are name-resolved and type-checked (JML RM 8.2: a boolean
predicate over the class's fields, without parameters or ``\\result``), although no engine
evaluates them. The invariant is added as the first member of abs_value's gold class."""

from __future__ import annotations

from pathlib import Path

import pytest

from adequacy.backends.openjml.jml.load import load
from adequacy.errors import SpecInvalid
from adequacy.tasks import load_task

ROOT = Path(__file__).resolve().parents[2] / "examples" / "jml" / "abs_value"
ANCHOR = "public class Solution {"


def _spec(inv: str) -> tuple[str, int]:
    gold = (ROOT / "specs" / "gold.java").read_text()
    assert gold.count(ANCHOR) == 1
    line = gold[:gold.index(ANCHOR)].count("\n") + 2
    return gold.replace(ANCHOR, f"{ANCHOR}\n    {inv}"), line


@pytest.mark.parametrize("inv", [
    "//@ invariant true;",
    "//@ public invariant this != null;",
    "//@ static invariant Integer.MAX_VALUE > 0;",
    "//@ invariant (\\forall int i; 0 <= i && i < 3; i >= 0);",
])
def test_valid_invariant_is_accepted(inv: str) -> None:
    text, _line = _spec(inv)
    load(load_task(ROOT), text, "gold.java")


@pytest.mark.parametrize(("inv", "words"), [
    ("//@ invariant 1;", "int cannot be converted to boolean"),  # JML RM 8.2
    ("//@ invariant x > 0;", "cannot find symbol: variable x"),  # a parameter is not in scope
    ("//@ invariant \\result == 0;", "\\result may only appear"),  # JML RM 12.4.1
    ("//@ invariant Integer.MAX_VALU > 0;", "MAX_VALU"),  # JLS 15.11.1
    ("//@ invariant Math.abs(1) ? true : false;", "int cannot be converted to boolean"),
])
def test_ill_typed_invariant_is_invalid_at_its_line(inv: str, words: str) -> None:
    text, line = _spec(inv)
    with pytest.raises(SpecInvalid) as e:
        load(load_task(ROOT), text, "gold.java")
    assert (e.value.file, e.value.line) == ("gold.java", line)
    assert words in e.value.message
