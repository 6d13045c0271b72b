"""``invariant`` predicates are name-resolved and type-checked (JML RM 8.2: a boolean
predicate over the class's fields, without parameters or ``\\result``), although no engine
evaluates them. The invariant is added as the first member of abs_value's gold class."""

from __future__ import annotations

import pytest
from jml_support import invalid_at, load_gold_with

ANCHOR = "public class Solution {"


@pytest.mark.parametrize("inv", [
    "//@ invariant true;",
    "//@ public invariant this != null;",
    "//@ static invariant Integer.MAX_VALUE > 0;",
    "//@ invariant (\\forall int i; 0 <= i && i < 3; i >= 0);",
])
def test_valid_invariant_is_accepted(inv: str) -> None:
    load_gold_with(ANCHOR, inv)


@pytest.mark.parametrize(("inv", "words"), [
    ("//@ invariant 1;", "int cannot be converted to boolean"),  # JML RM 8.2
    ("//@ invariant x > 0;", "cannot find symbol: variable x"),  # a parameter is not in scope
    ("//@ invariant \\result == 0;", "\\result may only appear"),  # JML RM 12.4.1
    ("//@ invariant Integer.MAX_VALU > 0;", "MAX_VALU"),  # JLS 15.11.1
    ("//@ invariant Math.abs(1) ? true : false;", "int cannot be converted to boolean"),
])
def test_ill_typed_invariant_is_invalid_at_its_line(inv: str, words: str) -> None:
    offset, message = invalid_at(ANCHOR, inv)
    assert offset == 0 and words in message
