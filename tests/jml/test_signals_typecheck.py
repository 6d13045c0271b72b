"""``signals`` predicates are name-resolved and type-checked like ``ensures`` (JML RM 9.9.4:
a boolean predicate over the pre-state, the exception variable and the post-state, with no
``\\result``), although no engine evaluates them. The clause is added to abs_value's gold on
its own line; the valid forms must stay valid."""

from __future__ import annotations

from pathlib import Path

import pytest

from adequacy.backends.openjml.jml.load import load
from adequacy.errors import SpecInvalid
from adequacy.tasks import load_task

ROOT = Path(__file__).resolve().parents[2] / "examples" / "jml" / "abs_value"
ANCHOR = "//@ ensures \\result >= 0;"


def _spec(clause: str) -> tuple[str, int]:
    gold = (ROOT / "specs" / "gold.java").read_text()
    assert gold.count(ANCHOR) == 1
    line = gold[:gold.index(ANCHOR)].count("\n") + 2
    return gold.replace(ANCHOR, f"{ANCHOR}\n    //@ {clause}"), line


@pytest.mark.parametrize("clause", [
    "signals (ArithmeticException e) x == Integer.MIN_VALUE;",
    "signals (ArithmeticException e) e != null && x < 0;",
    "signals (Exception) true;",
    "signals (Exception e);",  # the predicate may be omitted (JML RM 9.9.4)
    "signals_only ArithmeticException;",
    "signals (RuntimeException e) \\old(x) < 0 ? true : x == 0;",
])
def test_valid_signals_clause_is_accepted(clause: str) -> None:
    text, _line = _spec(clause)
    load(load_task(ROOT), text, "gold.java")


@pytest.mark.parametrize(("clause", "words"), [
    ("signals (ArithmeticException e) x;", "int cannot be converted to boolean"),  # RM 9.9.4
    ("signals (ArithmeticException e) y == 0;", "cannot find symbol: variable y"),  # JLS 6.5
    ("signals (ArithmeticException e) \\result == 0;", "\\result may only appear"),  # RM 12.4.1
    ("signals (ArithmeticException e) x == Integer.MIN_VALU;", "MIN_VALU"),  # JLS 15.11.1
    ("signals (ArithmeticException e) x < 0 ? 1 : 0;", "int cannot be converted to boolean"),
])
def test_ill_typed_signals_clause_is_invalid_at_its_line(clause: str, words: str) -> None:
    text, line = _spec(clause)
    with pytest.raises(SpecInvalid) as e:
        load(load_task(ROOT), text, "gold.java")
    assert (e.value.file, e.value.line) == ("gold.java", line)
    assert words in e.value.message
