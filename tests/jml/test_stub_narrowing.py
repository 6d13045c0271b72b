"""Arguments of the class's own methods narrowed for KeY (``stubs.render.Narrowing``): an
arithmetic argument is ``\\bigint`` in KeY's reading of JML, and no ``ok(\\bigint)`` exists,
so the call is cast to the parameter's type, with the range the stub must also prove (rac
says unknown outside it: ``R.toInt``). Names and literals already have the parameter's
type; an argument using a quantifier's variable cannot be guarded outside the quantifier,
and an overload of the same arity is Java's choice by static types: both left as written."""

from __future__ import annotations

from adequacy_openjml.jml.parser import parse_expression
from adequacy_openjml.stubs.render import Narrowing, render_jml


def _render(text: str, params: dict[tuple[str, int], tuple[str, ...]]) -> tuple[str, str]:
    nw = Narrowing(params)
    return render_jml(parse_expression(text), {"k": "__in_k"}, narrow=nw), nw.guard()


def test_an_arithmetic_argument_is_cast_and_guarded() -> None:
    got, guard = _render("ok(count - k) && ok(k) && ok(3)", {("ok", 1): ("int",)})
    assert got == "(ok(((int) (count - __in_k))) && (ok(__in_k) && ok(3)))"
    assert guard == "(Integer.MIN_VALUE <= (count - __in_k) && (count - __in_k) <= Integer.MAX_VALUE)"


def test_short_and_long_ranges() -> None:
    got, guard = _render("f(k + 1, k * 2)", {("f", 2): ("short", "long")})
    assert got == "f(((short) (__in_k + 1)), ((long) (__in_k * 2)))"
    assert guard == ("(-32768 <= (__in_k + 1) && (__in_k + 1) <= 32767) && "
                     "(Long.MIN_VALUE <= (__in_k * 2) && (__in_k * 2) <= Long.MAX_VALUE)")


def test_bound_variables_unknown_methods_and_other_types_are_left_alone() -> None:
    got, guard = _render("(\\forall int i; 0 <= i && i < k; ok(i + 1)) && g(k + 1) && h(k + 1)",
                         {("ok", 1): ("int",), ("h", 1): ("double",)})
    assert "((int)" not in got and "((double)" not in got
    assert guard == "true"
