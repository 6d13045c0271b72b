"""``match`` exhaustiveness through nested patterns (rustc E0004, which Verus keeps).

Before ``typecheck.exhaustive`` only the top level was decided, so ``Some(Color::Red)`` counted
as covering every ``Some``. Each case is worked by hand from rustc's rule (the reference,
"Patterns": a match must be irrefutable as a whole; arms with guards do not count); the
missing value is the witness rustc prints. Valid neighbours stay valid; where the checker
cannot decide (ranges, generics) it accepts.
"""

from __future__ import annotations

import pytest

from adequacy.errors import SpecInvalid
from adequacy_verus.syntax.parser import parse_module
from adequacy_verus.typecheck import check_module

PRELUDE = """use vstd::prelude::*;
verus! {
pub enum Color { Red, Green(u8), Blue { level: u16 } }
pub enum Shape { Dot, Line(Color, Color), Tagged { c: Color, on: bool } }
pub struct P { pub a: bool, pub b: Option<Color> }
pub enum W<T> { Empty, One(T) }
"""

VALID = [
    "spec fn f(o: Option<Color>) -> int { match o { Some(Color::Red) => 1, "
    "Some(Color::Green(_)) => 2, Some(Color::Blue { .. }) => 3, None => 0 } }",
    "spec fn f(o: Option<Color>) -> int { match o { Some(Color::Red) => 1, Some(_) => 2, "
    "None => 0 } }",
    "spec fn f(o: Option<Option<bool>>) -> int { match o { Some(Some(true)) => 1, "
    "Some(Some(false)) => 2, Some(None) => 3, None => 0 } }",
    "spec fn f(s: Shape) -> int { match s { Shape::Dot => 0, Shape::Line(Color::Red, _) => 1, "
    "Shape::Line(_, _) => 2, Shape::Tagged { on: true, .. } => 3, Shape::Tagged { c, on: "
    "false } => 4 } }",
    "spec fn f(p: (bool, bool)) -> int { match p { (true, _) => 1, (false, true) => 2, "
    "(false, false) => 3 } }",
    "spec fn f(p: P) -> int { match p { P { a: true, .. } => 1, P { a: false, b: None } => 2, "
    "P { a: false, b: Some(_) } => 3 } }",
    "spec fn f(o: Option<Color>) -> int { match o { Some(Color::Red) | None => 1, "
    "Some(Color::Green(_) | Color::Blue { .. }) => 2 } }",
    "spec fn f(o: Option<u8>) -> int { match o { Some(0) => 1, Some(x) => 2, None => 0 } }",
    "spec fn f(o: Option<u8>) -> int { match o { Some(0..=255) => 1, None => 0 } }",  # ranges
    "spec fn f(w: W<bool>) -> int { match w { W::One(true) => 1, W::One(false) => 2, "
    "W::Empty => 0 } }",
    "spec fn f(o: Option<Color>) -> int { match o { x @ Some(Color::Red) => 1, "
    "Some(y) => 2, None => 0 } }",
]

INVALID = [
    ("spec fn f(o: Option<Color>) -> int { match o { Some(Color::Red) => 1, "
     "Some(Color::Green(_)) => 2, None => 0 } }", "Some(Color::Blue { level: _ })"),
    ("spec fn f(o: Option<Option<bool>>) -> int { match o { Some(Some(true)) => 1, "
     "Some(None) => 3, None => 0 } }", "Some(Some(false))"),
    ("spec fn f(s: Shape) -> int { match s { Shape::Dot => 0, Shape::Line(Color::Red, _) => "
     "1, Shape::Tagged { .. } => 3 } }", "Shape::Line(Color::Green(_), _)"),
    ("spec fn f(p: (bool, bool)) -> int { match p { (true, _) => 1, (false, true) => 2 } }",
     "(false, false)"),
    ("spec fn f(p: P) -> int { match p { P { a: true, .. } => 1, P { a: false, b: None } => "
     "2 } }", "P { a: false, b: Some(_) }"),
    ("spec fn f(o: Option<u8>) -> int { match o { Some(0) => 1, None => 0 } }", "Some(_)"),
    ("spec fn f(o: Option<Color>) -> int { match o { Some(Color::Red) => 1, Some(x) if true "
     "=> 2, None => 0 } }", "Some(Color::Green(_))"),  # a guarded arm covers nothing
]


def _check(body: str) -> None:
    check_module(parse_module(PRELUDE + body + "\n}\n", "t.rs"))


@pytest.mark.parametrize("body", VALID, ids=[str(k) for k in range(len(VALID))])
def test_exhaustive_nested_match_is_valid(body: str) -> None:
    _check(body)


@pytest.mark.parametrize(("body", "witness"), INVALID, ids=[str(k) for k in range(len(INVALID))])
def test_missing_nested_value_is_reported(body: str, witness: str) -> None:
    with pytest.raises(SpecInvalid) as e:
        _check(body)
    assert "E0004" in e.value.message and f"`{witness}` not covered" in e.value.message, \
        e.value.message
    assert e.value.line == PRELUDE.count("\n") + 1
