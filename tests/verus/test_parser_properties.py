"""Property tests of the Verus expression parser on generated expressions (Hypothesis).

Two properties: an expression printed with every operand parenthesised parses back to the
same tree; and an arithmetic comparison printed with the fewest parentheses (Python's
``ast.unparse``, whose precedence for ``+ - *`` and unary minus is Rust's) parses to a tree
that computes what Python computes. A precedence or associativity slip in the parser fails
the second even where the first holds.
"""

from __future__ import annotations

import ast as py
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from adequacy_verus.syntax import ast as A
from adequacy_verus.syntax.parser import parse_expression

pytestmark = pytest.mark.property

VARS = ("x", "y", "z")
ENV = {"x": 7, "y": -3, "z": 12}

Tree = tuple[Any, ...]

LEAVES: st.SearchStrategy[Tree] = st.one_of(
    st.integers(min_value=0, max_value=10**6).map(lambda n: ("lit", n)),
    st.sampled_from(VARS).map(lambda v: ("var", v)))


def _arith(inner: st.SearchStrategy[Tree]) -> st.SearchStrategy[Tree]:
    return st.one_of(st.tuples(st.just("bin"), st.sampled_from(["+", "-", "*"]), inner, inner),
                     st.tuples(st.just("un"), st.just("-"), inner))


ARITH = st.recursive(LEAVES, _arith, max_leaves=8)
COMPARE = st.tuples(st.just("bin"), st.sampled_from(["<", "<=", "==", "!=", ">", ">="]),
                    ARITH, ARITH)


def _logic(inner: st.SearchStrategy[Tree]) -> st.SearchStrategy[Tree]:
    return st.one_of(st.tuples(st.just("bin"), st.sampled_from(["&&", "||", "==>"]), inner,
                               inner),
                     st.tuples(st.just("un"), st.just("!"), inner))


BOOL = st.recursive(COMPARE, _logic, max_leaves=5)


def parenthesised(t: Tree) -> str:
    if t[0] == "lit":
        return str(t[1])
    if t[0] == "var":
        return t[1]
    if t[0] == "un":
        return f"{t[1]}({parenthesised(t[2])})"
    return f"({parenthesised(t[2])}) {t[1]} ({parenthesised(t[3])})"


def tree_of(e: A.Expr) -> Tree:
    """The parse as a tree of the generator's shape."""
    if isinstance(e, A.Lit) and e.kind == "int":
        assert isinstance(e.value, int)
        return ("lit", e.value)
    if isinstance(e, A.Path) and len(e.segs) == 1:
        return ("var", e.segs[0])
    if isinstance(e, A.Unary):
        return ("un", e.op, tree_of(e.e))
    if isinstance(e, A.Binary):
        return ("bin", e.op, tree_of(e.l), tree_of(e.r))
    raise AssertionError(f"unexpected node {e!r}")


def value(t: Tree) -> Any:
    kind = t[0]
    if kind == "lit":
        return t[1]
    if kind == "var":
        return ENV[t[1]]
    if kind == "un":
        return -value(t[2]) if t[1] == "-" else not value(t[2])
    op, a, b = t[1], value(t[2]), value(t[3])
    return {"+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b, "<": lambda: a < b,
            "<=": lambda: a <= b, "==": lambda: a == b, "!=": lambda: a != b,
            ">": lambda: a > b, ">=": lambda: a >= b, "&&": lambda: a and b,
            "||": lambda: a or b, "==>": lambda: (not a) or b}[op]()


_PY_OPS: dict[str, Any] = {"+": py.Add, "-": py.Sub, "*": py.Mult}
_PY_CMP: dict[str, Any] = {"<": py.Lt, "<=": py.LtE, "==": py.Eq, "!=": py.NotEq, ">": py.Gt,
                           ">=": py.GtE}


def as_python(t: Tree) -> py.expr:
    if t[0] == "lit":
        return py.Constant(t[1])
    if t[0] == "var":
        return py.Name(t[1])
    if t[0] == "un":
        return py.UnaryOp(py.USub(), as_python(t[2]))
    if t[1] in _PY_CMP:
        return py.Compare(as_python(t[2]), [_PY_CMP[t[1]]()], [as_python(t[3])])
    return py.BinOp(as_python(t[2]), _PY_OPS[t[1]](), as_python(t[3]))


def _normal(t: Tree) -> Tree:
    """The tree with unary minus folded into literals, as the parser folds it (``-(-(5))``
    is the literal 5)."""
    if t[0] == "un":
        inner = _normal(t[2])
        if t[1] == "-" and inner[0] == "lit":
            return ("lit", -inner[1])
        return ("un", t[1], inner)
    if t[0] == "bin":
        return ("bin", t[1], _normal(t[2]), _normal(t[3]))
    return t


@given(BOOL)
def test_a_parenthesised_expression_parses_back_to_its_tree(t: Tree) -> None:
    parsed = tree_of(parse_expression(parenthesised(t)))
    assert parsed == _normal(t)
    assert value(parsed) == value(t)


@given(COMPARE)
def test_fewest_parentheses_parse_with_rust_precedence(t: Tree) -> None:
    text = py.unparse(py.fix_missing_locations(as_python(t)))
    parsed = tree_of(parse_expression(text))
    assert value(parsed) == eval(text, {}, dict(ENV))  # noqa: S307 - our own generated text
