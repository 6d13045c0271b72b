"""The Verus type checker: valid spec code stays valid, and the rules hold one by one.

Valid forms are taken from vstd's signatures (seq.rs, seq_lib.rs, set.rs, map.rs,
multiset.rs, view.rs, slice.rs) and the Verus guide; each invalid form cites rustc's error.
"""

from __future__ import annotations

import pytest

from adequacy.errors import SpecInvalid
from adequacy_verus.interp.compiler import Program
from adequacy_verus.syntax.parser import parse_module
from adequacy_verus.typecheck import check_module

PRELUDE = """use vstd::prelude::*;
verus! {
pub struct Input { pub s: Seq<i64>, pub m: Map<u32, i64>, pub t: Set<int>, pub n: u32 }
pub enum Color { Red, Green(u8), Blue { level: u16 } }
spec fn helper(x: int, y: int) -> int { x + y }
"""


def _check(body: str) -> None:
    check_module(parse_module(PRELUDE + body + "\n}\n", "t.rs"))


VALID = [
    # vstd methods with their real signatures; closures take the expected spec_fn's types
    "spec fn f(i: Input) -> bool { i.s.map(|k: int, x: i64| x + 1).len() == i.s.len() }",
    "spec fn f(i: Input) -> bool { i.s.map_values(|x| x * 2) =~= i.s }",
    "spec fn f(i: Input) -> bool { i.s.filter(|x: i64| x > 0).len() <= i.s.len() }",
    "spec fn f(i: Input) -> int { i.s.fold_left(0, |acc: int, x: i64| acc + x) }",
    "spec fn f(i: Input) -> bool { i.s.to_multiset().count(3) == 1 }",
    "spec fn f(i: Input) -> bool { i.s.subrange(0, 1).add(i.s.take(2)).contains(5) }",
    "spec fn f(i: Input) -> bool { i.s + i.s == i.s.push(1) }",
    "spec fn f(i: Input) -> bool { i.m.dom().contains(3) && i.m[3u32] > 0 }",
    "spec fn f(i: Input) -> bool { i.t.union(i.t) <= i.t && (i.t + i.t).len() >= 0 }",
    "spec fn f(i: Input) -> bool { Seq::<int>::empty().len() == 0 && Set::<int>::empty()"
    ".is_empty() }",
    "spec fn f(i: Input) -> bool { seq![1, 2, 3].len() == 3 && set![1int].len() == 1 }",
    # integers: spec arithmetic widens; casts; literal inference
    "spec fn f(i: Input) -> bool { i.n + 1 > i.n && (i.n as int) - 1 < i.n as nat }",
    "spec fn f(i: Input) -> int { helper(i.n as int, 2) * i.s[0] }",
    "spec fn f(i: Input) -> bool { forall|k: int| 0 <= k < i.s.len() ==> i.s[k] >= 0 }",
    "spec fn f(i: Input) -> bool { exists|a: int, b: int| a < b && i.t.contains(a) }",
    "spec fn f(i: Input) -> int { choose|k: int| i.t.contains(k) }",
    # enums, patterns, exhaustiveness
    "spec fn f(c: Color) -> bool { match c { Color::Red => true, Color::Green(x) => x > 0, "
    "Color::Blue { level } => level < 3 } }",
    "spec fn f(c: Color) -> bool { match c { Color::Red => true, _ => false } }",
    "spec fn f(c: Color) -> bool { c is Red || c matches Color::Green(_) }",
    "spec fn f(c: Color) -> bool { match c { other => true } }",
    "spec fn f(c: Color) -> bool { match c { Nope => true } }",  # a binding, as in rustc
    "spec fn f(o: Option<int>) -> int { match o { Some(x) => x, None => 0 } }",
    "spec fn f(o: Option<int>) -> bool { o.is_some() && o.unwrap() > 0 }",
    "spec fn f(b: bool) -> int { match b { true => 1, false => 0 } }",
    "spec fn f(n: u8) -> int { match n { 0 => 1, _ => 2 } }",
    "spec fn f(c: Color) -> Color { if c is Red { Color::Green(1) } else { Color::Blue { "
    "level: 2 } } }",
    # blocks, lets, tuples, views of exec types
    "spec fn f(i: Input) -> bool { let (a, b) = (1int, i.n); a + b > 0 }",
    "spec fn f(v: Vec<u8>) -> bool { v@.len() == v.len() && v@[0] == v[0] }",
    "spec fn f(x: &[u8]) -> bool { x@.len() > 0 && x@[0] == 1 }",
    "spec fn f(s: String) -> bool { s@.len() > 0 }",
    "spec fn f(s: SpecString) -> bool { s.len() > 0 && s[0] == 'a' }",
    # generics and unknown types are not checked
    "spec fn f<T>(x: T) -> bool { x.whatever() }",
    # an exec fn's clauses: old(), the named result
    "fn g(a: &mut Vec<i32>) -> (r: usize) requires old(a).len() > 0 "
    "ensures r < a.len(), a@ == old(a)@ { 0 }",
]


@pytest.mark.parametrize("body", VALID)
def test_valid_spec_code_type_checks(body: str) -> None:
    _check(body)


INVALID = [
    ("spec fn f(i: Input) -> bool { i.s.size() == 0 }", "E0599"),  # seq.rs has no size
    ("spec fn f(i: Input) -> bool { i.m.contains(3) }", "E0599"),  # Map: contains_key
    ("spec fn f(i: Input) -> bool { i.t.index_of(3) == 0 }", "E0599"),
    ("spec fn f(i: Input) -> bool { i.s.map(|x: i64| x + 1).len() == 0 }", "E0593"),
    ("spec fn f(i: Input) -> bool { i.s.push() == i.s }", "E0061"),
    ("spec fn f(i: Input) -> bool { helper(1) == 0 }", "E0061"),
    ("spec fn f(i: Input) -> bool { helper(1, 2) }", "E0308"),
    ("spec fn f(i: Input) -> int { i.s.len() > 0 }", "E0308"),
    ("spec fn f(i: Input) -> bool { i.s == 0 }", "E0308"),
    ("spec fn f(i: Input) -> bool { i.m[true] == 0 }", "E0308"),
    ("spec fn f(i: Input) -> bool { i.t[0] }", "E0608"),
    ("spec fn f(i: Input) -> bool { i.x == 0 }", "E0609"),
    ("spec fn f(i: Input) -> bool { i.n.len == 0 }", "E0610"),
    ("spec fn f(i: Input) -> bool { i.s@.len() == 0 }", "E0599"),  # view.rs: no View for Seq
    ("spec fn f(c: Color) -> bool { match c { Color::Red => true, Color::Green(x) => true } }",
     "E0004"),
    ("spec fn f(c: Color) -> bool { match c { Color::Red => true, Color::Purple => false, "
     "_ => true } }", "E0599"),
    ("spec fn f(c: Color) -> bool { match c { Color::Green(a, b) => true, _ => false } }",
     "E0023"),
    ("spec fn f(c: Color) -> bool { c is Purple }", "E0599"),
    ("spec fn f(c: Color) -> Color { Color::Blue { level: 1, hue: 2 } }", "E0560"),
    ("spec fn f(c: Color) -> Color { Color::Blue { } }", "E0063"),
    ("spec fn f(b: bool) -> int { match b { true => 1 } }", "E0004"),
    ("spec fn f(n: u8) -> int { match n { 0 => 1, 1 => 2 } }", "E0004"),
    ("spec fn f(i: Input) -> bool { forall|k: int| k + 1 }", "E0308"),
    ("spec fn f(i: Input) -> bool { if i.n { true } else { false } }", "E0308"),
    ("spec fn f(i: Input) -> bool { (if i.n > 0 { 1int } else { true }) == 1 }", "E0308"),
    ("spec fn f(i: Input) -> bool { undefined_fn(i) }", "E0425"),
    ("spec fn f(i: Input) -> bool { j.n > 0 }", "E0425"),
    ("spec fn f(i: Input) -> bool { (i.s as int) > 0 }", "E0605"),
    ("spec fn f(i: Input) -> bool { !i.s }", "E0600"),
    ("spec fn f(i: Input) -> bool { i.s - i.s == i.s }", "E0369"),
]


@pytest.mark.parametrize("body,code", INVALID)
def test_ill_typed_spec_code_is_invalid(body: str, code: str) -> None:
    with pytest.raises(SpecInvalid) as ei:
        _check(body)
    assert f"[{code}]" in ei.value.message
    assert ei.value.line == PRELUDE.count("\n") + 1
    assert ei.value.file == "t.rs"


@pytest.mark.slow
def test_long_chains_are_no_recursion() -> None:
    """The parser charges no depth for `+` chains and `else if` chains (MAX_NESTING's
    docstring): the checker must not recurse per link either."""
    chain = " + ".join(["i.n"] * 5000)
    _check(f"spec fn f(i: Input) -> bool {{ {chain} > 0 }}")
    ifs = " else ".join(f"if i.n == {k} {{ {k}int }}" for k in range(3000))
    _check(f"spec fn f(i: Input) -> int {{ {ifs} else {{ 0 }} }}")
    with pytest.raises(SpecInvalid, match="E0369"):
        _check(f"spec fn f(i: Input) -> bool {{ {chain} + i.s > 0 }}")


def test_interp_views_a_slice_as_its_seq() -> None:
    """`x@` on `x: &[u8]` is refused by interp ("Seq has no View"); vstd's slice.rs
    gives `[T]` the view `Seq<T>`, so `x@.len()` is the slice's length."""
    mod = parse_module("verus! { fn f(x: &[u8]) -> (r: bool) ensures r == (x@.len() == 2), "
                       "x@[1] == 7 { true } }", "t.rs")
    check_module(mod)
    fn = mod.fns["f"]
    prog = Program(mod)
    names = [(p.name, p.ty) for p in fn.params] + [(fn.ret_name or "r", fn.ret_type)]
    first = prog.compile_expr(fn.ensures[0], names)
    second = prog.compile_expr(fn.ensures[1], names)
    assert first((3, 7), True) is True
    assert first((3, 7, 9), True) is False
    assert second((3, 7), True) is True
    assert second((3, 8), True) is False
