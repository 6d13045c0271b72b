"""A suffixed integer literal must fit its type: rustc's deny-by-default lint
``overflowing_literals`` ("literal out of range for `u8`"), which Verus keeps for suffixed
literals (only unsuffixed ones become spec integers, so ``x == 300`` on a ``u8`` is valid spec
code). Each case is worked from the type's range; the minus of ``-128i8`` belongs to the
literal, as in rustc's lint."""

from __future__ import annotations

import pytest

from adequacy.errors import SpecInvalid
from adequacy_verus.syntax.parser import parse_module
from adequacy_verus.typecheck import check_module

PRELUDE = "use vstd::prelude::*;\nverus! {\n"

VALID = [
    "spec fn f(x: u8) -> bool { x == 255u8 }",
    "spec fn f(x: u8) -> bool { x == 300 }",            # unsuffixed: a spec integer
    "spec fn f(x: u8) -> bool { x < 300int }",
    "spec fn f(x: i8) -> bool { x >= -128i8 && x <= 127i8 }",
    "spec fn f(x: u8) -> bool { x == 0xFFu8 }",
    "spec fn f(x: u32) -> bool { x <= 4294967295u32 }",
    "spec fn f(x: i64) -> bool { x >= -9223372036854775808i64 }",
    "spec fn f(x: u128) -> bool { x <= 340282366920938463463374607431768211455u128 }",
    "spec fn f(x: usize) -> bool { x <= 18446744073709551615usize }",
    "spec fn f(x: u16) -> bool { x == (300 as u16) }",
]

INVALID = [
    ("spec fn f(x: u8) -> bool { x == 300u8 }", "u8"),
    ("spec fn f(x: u8) -> bool { x == 256u8 }", "u8"),
    ("spec fn f(x: i8) -> bool { x == 128i8 }", "i8"),
    ("spec fn f(x: i8) -> bool { x > -129i8 }", "i8"),
    ("spec fn f(x: u8) -> bool { x == 0x1FFu8 }", "u8"),
    ("spec fn f(x: i8) -> bool { x == 0xFFi8 }", "i8"),
    ("spec fn f(x: u32) -> bool { x <= 4294967296u32 }", "u32"),
    ("spec fn f(x: i32) -> bool { x < 2147483648i32 }", "i32"),
    ("spec fn f(x: u64) -> bool { x <= 18446744073709551616u64 }", "u64"),
]


def _check(body: str) -> None:
    check_module(parse_module(PRELUDE + body + "\n}\n", "t.rs"))


@pytest.mark.parametrize("body", VALID, ids=[str(k) for k in range(len(VALID))])
def test_literal_in_range_is_valid(body: str) -> None:
    _check(body)


@pytest.mark.parametrize(("body", "ty"), INVALID, ids=[str(k) for k in range(len(INVALID))])
def test_literal_out_of_range_is_invalid(body: str, ty: str) -> None:
    with pytest.raises(SpecInvalid) as e:
        _check(body)
    assert f"literal out of range for `{ty}`" in e.value.message
    assert "overflowing_literals" in e.value.message
    assert e.value.line == 3
