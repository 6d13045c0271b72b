"""JML expression parsing: precedence and associativity as the JML reference manual defines."""

from __future__ import annotations

import pytest

from adequacy.errors import SpecInvalid
from adequacy_openjml.jml import ast as A
from adequacy_openjml.jml.parser import parse_expression


def show(e: A.Expr) -> str:
    """Fully parenthesised rendering, to compare tree shapes by eye."""
    if isinstance(e, A.Binary):
        return f"({show(e.left)} {e.op} {show(e.right)})"
    if isinstance(e, A.Name):
        return e.id
    if isinstance(e, A.Lit):
        return e.text
    if isinstance(e, A.Chain):
        out = show(e.operands[0])
        for op, x in zip(e.ops, e.operands[1:], strict=True):
            out += f" {op} {show(x)}"
        return f"[{out}]"
    if isinstance(e, A.Cond):
        return f"({show(e.cond)} ? {show(e.then)} : {show(e.other)})"
    if isinstance(e, A.Unary):
        return f"{e.op}{show(e.expr)}"
    if isinstance(e, A.Result):
        return "\\result"
    return type(e).__name__


@pytest.mark.parametrize("text, tree", [
    ("a ==> b ==> c", "(a ==> (b ==> c))"),
    ("a <== b <== c", "((a <== b) <== c)"),
    ("a <==> b <==> c", "((a <==> b) <==> c)"),
    ("a <==> b ==> c", "(a <==> (b ==> c))"),
    ("a <=!=> b || c", "(a <=!=> (b || c))"),
    ("a || b && c", "(a || (b && c))"),
    ("a ==> b || c", "(a ==> (b || c))"),
    ("a == b ==> c", "((a == b) ==> c)"),
    ("x + y * z", "(x + (y * z))"),
    ("x - y - z", "((x - y) - z)"),
    ("a < b <= c", "[a < b <= c]"),
    ("c ? x : y ==> z", "(c ? x : (y ==> z))"),
    ("!a && b", "(!a && b)"),
    ("-2147483648", "-2147483648"),
])
def test_precedence(text: str, tree: str) -> None:
    assert show(parse_expression(text)) == tree


def test_quantifier_parts() -> None:
    e = parse_expression(r"(\forall int i, j; 0 <= i && i < j && j < n; a[i] <= a[j])")
    assert isinstance(e, A.Quant)
    assert (e.kind, e.type, e.vars) == ("forall", "int", ("i", "j"))
    assert e.range is not None
    e2 = parse_expression(r"(\exists int i; i >= 0 && i < n && a[i] == x)")
    assert isinstance(e2, A.Quant) and e2.range is None


def test_generalized_quantifiers() -> None:
    for q in ("sum", "product", "num_of", "max", "min"):
        e = parse_expression(rf"(\{q} int i; 0 <= i < n; a[i])")
        assert isinstance(e, A.Quant) and e.kind == q


def test_casts_and_parentheses() -> None:
    assert isinstance(parse_expression("(int) x"), A.Cast)
    assert isinstance(parse_expression("(char) (c - 32)"), A.Cast)
    assert isinstance(parse_expression("(String) s"), A.Cast)
    assert isinstance(parse_expression("(x) + 1"), A.Binary)
    assert isinstance(parse_expression("(x) - 1"), A.Binary)


def test_old_result_nonnull() -> None:
    e = parse_expression(r"\result == \old(a[0]) && \nonnullelements(b)")
    kinds = {type(n).__name__ for n in A.walk(e)}
    assert {"Result", "Old", "Special", "Index"} <= kinds


@pytest.mark.parametrize("text, message", [
    ("a ==>", "expression expected"),
    ("x = 1", "assignment"),
    ("i++", "side effect"),
    (r"\forall int i; 0 <= i;", "range but no body"),
    ("(a + b", "closing"),
    ("a b", "unexpected"),
])
def test_errors_have_lines(text: str, message: str) -> None:
    with pytest.raises(SpecInvalid) as ei:
        parse_expression(text, file="S.java", line=7)
    assert message in ei.value.message
    assert ei.value.file == "S.java" and ei.value.line == 7
