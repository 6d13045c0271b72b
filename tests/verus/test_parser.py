"""The Verus parser: precedence, Verus-only syntax, items, and error locations."""

from __future__ import annotations

import pytest

from adequacy.errors import SpecInvalid
from adequacy_verus.syntax import ast as A
from adequacy_verus.syntax.parser import parse_expression, parse_module


def test_implication_is_right_associative_and_looser_than_or() -> None:
    e = parse_expression("a || b ==> c ==> d")
    assert isinstance(e, A.Binary) and e.op == "==>"
    assert isinstance(e.l, A.Binary) and e.l.op == "||"
    assert isinstance(e.r, A.Binary) and e.r.op == "==>"


def test_chained_comparison() -> None:
    e = parse_expression("0 <= i < j < s.len()")
    assert isinstance(e, A.Chain) and e.ops == ["<=", "<", "<"]
    assert len(e.operands) == 4


def test_prefix_and_or_forms() -> None:
    e = parse_expression("&&& a ==> b\n&&& c || d")
    assert isinstance(e, A.Binary) and e.op == "&&"
    assert isinstance(e.l, A.Binary) and e.l.op == "==>"
    e2 = parse_expression("||| a &&& b\n||| c")
    assert isinstance(e2, A.Binary) and e2.op == "||"
    assert isinstance(e2.l, A.Binary) and e2.l.op == "&&"


def test_quantifier_body_extends_right_and_triggers_are_ignored() -> None:
    e = parse_expression("forall|i: int| #![auto] 0 <= i < n ==> #[trigger] s[i] > 0")
    assert isinstance(e, A.Quant) and e.kind == "forall"
    assert e.params[0][0] == "i" and e.params[0][1] is not None
    assert isinstance(e.body, A.Binary) and e.body.op == "==>"


def test_cast_binds_tighter_than_arithmetic_and_neg_literal() -> None:
    e = parse_expression("-7 / 2 + x as int")
    assert isinstance(e, A.Binary) and e.op == "+"
    assert isinstance(e.l, A.Binary) and e.l.op == "/"
    assert isinstance(e.l.l, A.Lit) and e.l.l.value == -7
    assert isinstance(e.r, A.Cast) and e.r.ty.name == "int"


def test_cast_to_primitive_then_less_than() -> None:
    e = parse_expression("i as int < n")
    assert isinstance(e, A.Binary) and e.op == "<" and isinstance(e.l, A.Cast)


def test_verus_specific_forms() -> None:
    assert isinstance(parse_expression("x is Some"), A.Is)
    m = parse_expression("x matches Some(y) && y > 0")
    assert isinstance(m, A.Binary) and isinstance(m.l, A.Matches)
    assert isinstance(parse_expression("a =~= b"), A.Binary)
    assert isinstance(parse_expression("o->0"), A.Arrow)
    assert isinstance(parse_expression("v@.len()"), A.MethodCall)
    mp = parse_expression("map![1 => 2, 3 => 4]")
    assert isinstance(mp, A.MacroCall) and len(mp.pairs) == 2
    c = parse_expression("s.map_values(|x: int| x + 1)")
    assert isinstance(c, A.MethodCall) and isinstance(c.args[0], A.Closure)
    g = parse_expression("Seq::<int>::empty()")
    assert isinstance(g, A.Call) and isinstance(g.func, A.Path)
    assert g.func.segs == ("Seq", "empty")


def test_match_if_let_block() -> None:
    e = parse_expression("match o { Some(x) if x > 0 => x, Some(_) | None => 0 }")
    assert isinstance(e, A.Match) and len(e.arms) == 2
    assert isinstance(e.arms[1].pat, A.POr)
    b = parse_expression("{ let (a, b) = p; if let Some(z) = o { a + z } else { b } }")
    assert isinstance(b, A.Block) and isinstance(b.tail, A.If) and b.tail.let_pat is not None


def test_module_items_and_exec_bodies_skipped() -> None:
    src = """use vstd::prelude::*;
fn main() { let x = 'a'; let r: &'static str = r#"raw"#; }
verus! {
pub struct P { pub x: int, pub y: Seq<Seq<u8>> }
pub enum E { A, B(int), C { v: int } }
pub open spec fn f(p: P) -> int recommends p.x > 0 decreases p.x { p.x }
impl P { spec fn g(&self) -> int { self.x } }
fn h(v: &Vec<i32>) -> (r: i32) requires v.len() > 0 ensures r == v[0] { v[0] }
}
"""
    m = parse_module(src, "m.rs")
    assert set(m.fns) == {"main", "f", "h"}
    assert m.fns["f"].mode == "spec" and m.fns["f"].openness == "open"
    assert m.fns["h"].mode == "exec" and m.fns["h"].body is None
    assert m.fns["h"].ret_name == "r" and len(m.fns["h"].ensures) == 1
    assert m.structs["P"].fields[1][1].name == "Seq"
    assert [v.kind for v in m.enums["E"].variants] == ["unit", "tuple", "struct"]
    assert m.impls[0].fns[0].has_self


def test_syntax_error_has_line() -> None:
    with pytest.raises(SpecInvalid) as ei:
        parse_module("verus! {\nspec fn f() -> bool {\n  1 + + \n}\n}", "bad.rs")
    assert ei.value.line == 4 or ei.value.line == 3
    assert ei.value.file == "bad.rs"


def test_unclosed_block_reports() -> None:
    with pytest.raises(SpecInvalid):
        parse_module("verus! { spec fn f() -> bool { true ", "bad.rs")
