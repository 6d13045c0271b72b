"""Calls of the module's generic spec fns: a type parameter stands for one type (rustc's
inference), so the result and the later arguments have the type the first argument fixed.
Before, a generic parameter or result was ``?`` and ``first(s) == true`` on a ``Seq<i64>``
was accepted; rustc says E0308. Hand-worked: ``first<A>(s: Seq<A>) -> A`` on ``Seq<i64>``
is an ``i64``; where no argument fixes a parameter it stays unknown and nothing is reported."""

from __future__ import annotations

import pytest

from adequacy.errors import SpecInvalid
from adequacy_verus.syntax.parser import parse_module
from adequacy_verus.typecheck import check_module

PRELUDE = """use vstd::prelude::*;
verus! {
pub struct Input { pub s: Seq<i64>, pub n: u32 }
spec fn id<T>(x: T) -> T { x }
spec fn both<T>(a: T, b: T) -> bool { a == b }
spec fn first<A>(s: Seq<A>) -> A { s[0] }
spec fn has<T: PartialEq>(x: T, s: Seq<T>) -> bool { s.contains(x) }
spec fn pick<K, V>(m: Map<K, V>, k: K) -> V { m[k] }
"""

VALID = [
    "spec fn f(i: Input) -> bool { id(i.s) == i.s && id(i.n) > 0 }",
    "spec fn f(i: Input) -> bool { both(i.n, 3) && both(i.s, i.s.push(1)) }",
    "spec fn f(i: Input) -> bool { first(i.s) > 0 && first(i.s) + 1 > 0 }",
    "spec fn f(i: Input) -> bool { has(1i64, i.s) && has(first(i.s), i.s) }",
    "spec fn f(i: Input, m: Map<int, bool>) -> bool { pick(m, 3) && !pick(m, 4int) }",
    "spec fn f(i: Input) -> bool { id(id(i.s)).len() == i.s.len() }",
    "spec fn f(i: Input) -> bool { both(id(i.n), i.n) }",
]

INVALID = [
    ("spec fn f(i: Input) -> bool { first(i.s) == true }", "can't compare `i64` with `bool`"),
    ("spec fn f(i: Input) -> bool { both(i.s, i.n) }",
     "expected `Seq<i64>`, found `u32`"),
    ("spec fn f(i: Input) -> bool { has(true, i.s) }", "expected `Seq<bool>`, found `Seq<i64>`"),
    ("spec fn f(i: Input) -> bool { id(i.s) == 3 }", "can't compare `Seq<i64>`"),
    ("spec fn f(i: Input, m: Map<int, bool>) -> bool { pick(m, true) }",
     "expected `int`, found `bool`"),
    ("spec fn f(i: Input, m: Map<int, bool>) -> bool { pick(m, 3) + 1 > 0 }", "bool"),
]


def _check(body: str) -> None:
    check_module(parse_module(PRELUDE + body + "\n}\n", "t.rs"))


@pytest.mark.parametrize("body", VALID, ids=[str(k) for k in range(len(VALID))])
def test_generic_call_is_valid(body: str) -> None:
    _check(body)


@pytest.mark.parametrize(("body", "words"), INVALID, ids=[str(k) for k in range(len(INVALID))])
def test_generic_call_is_checked(body: str, words: str) -> None:
    with pytest.raises(SpecInvalid) as e:
        _check(body)
    assert words in e.value.message, e.value.message
    assert e.value.line == PRELUDE.count("\n") + 1
