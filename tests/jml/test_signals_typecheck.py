"""``signals`` predicates are name-resolved and type-checked like ``ensures`` (JML RM 9.9.4:
a boolean predicate over the pre-state, the exception variable and the post-state, with no
``\\result``), although no engine evaluates them. The clause is added to abs_value's gold on
its own line; the valid forms must stay valid."""

from __future__ import annotations

import pytest
from jml_support import invalid_at, load_gold_with

ANCHOR = "//@ ensures \\result >= 0;"


@pytest.mark.parametrize("clause", [
    "signals (ArithmeticException e) x == Integer.MIN_VALUE;",
    "signals (ArithmeticException e) e != null && x < 0;",
    "signals (Exception) true;",
    "signals (Exception e);",  # the predicate may be omitted (JML RM 9.9.4)
    "signals_only ArithmeticException;",
    "signals (RuntimeException e) \\old(x) < 0 ? true : x == 0;",
])
def test_valid_signals_clause_is_accepted(clause: str) -> None:
    load_gold_with(ANCHOR, f"//@ {clause}")


@pytest.mark.parametrize(("clause", "words"), [
    ("signals (ArithmeticException e) x;", "int cannot be converted to boolean"),  # RM 9.9.4
    ("signals (ArithmeticException e) y == 0;", "cannot find symbol: variable y"),  # JLS 6.5
    ("signals (ArithmeticException e) \\result == 0;", "\\result may only appear"),  # RM 12.4.1
    ("signals (ArithmeticException e) x == Integer.MIN_VALU;", "MIN_VALU"),  # JLS 15.11.1
    ("signals (ArithmeticException e) x < 0 ? 1 : 0;", "int cannot be converted to boolean"),
])
def test_ill_typed_signals_clause_is_invalid_at_its_line(clause: str, words: str) -> None:
    offset, message = invalid_at(ANCHOR, f"//@ {clause}")
    assert offset == 0 and words in message
