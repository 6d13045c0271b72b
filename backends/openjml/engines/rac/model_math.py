"""Model method bodies with overflow-checked integer arithmetic, as rac compiles them.

A model method's body is JML, not the program: JML reads specifications with mathematical
integers by default, and Java code with "safe" math, where an overflow is an error. Under
neither reading does a model body wrap, as javac's translation of it did: rac took
``y * 2 / 2`` at ``Integer.MAX_VALUE`` to be -1 (and KeY, reading the body with
mathematical integers, ``MAX_VALUE``: the engines disagreed, one decided wrongly). So rac
compiles each ``+``, ``-``, ``*``, ``/``, unary ``-`` and ``Math.abs`` of a body with the
JDK's exact operations (``Math.addExact``...), chosen by Java's overload resolution on the
operands' own types; an overflow throws, and the case is unknown. Where no overflow
happens, wrapping, safe and mathematical arithmetic agree, so the value is every reading's.

Handled: bodies ``{ return E; }`` and ``{ if (C) { return A; } else { return B; } }`` (Java
``assert`` statements in them are checks of the body, not part of its value) over integral
and boolean parameters and results. Anything else keeps javac's reading (docs/jml.md says
which)."""

from __future__ import annotations

from adequacy.errors import SpecInvalid

from ...jml import ast as A
from ...jml.members import JavaMethod
from ...jml.model_bodies import body_value
from ...jml.parser import parse_expression

_TYPES = frozenset({"int", "long", "short", "byte", "char", "boolean"})
_EXACT = {"+": "Math.addExact", "-": "Math.subtractExact", "*": "Math.multiplyExact",
          "/": "adequacy.rac.R.divideExact"}
_PLAIN = frozenset({"%", "<", "<=", ">", ">=", "==", "!=", "&&", "||", "&", "|", "^"})
_BOXES = frozenset({"Integer", "Long", "Short", "Byte", "Character"})


class _Outside(Exception):
    """A construct this rewrite does not handle: the body keeps javac's reading."""


def checked_body(m: JavaMethod) -> str | None:
    """``m``'s body with exact arithmetic, or None where it is not of a handled shape."""
    if not m.has_body or m.return_type is None:
        return None
    if any(t.strip() not in _TYPES for t in [m.return_type, *(t for t, _ in m.params)]):
        return None
    shape = body_value(" ".join(m.source.split()))
    try:
        if isinstance(shape, tuple):
            c, a, b = (_java(_parse(x, m)) for x in shape)
            return f"{{ return ({c}) ? ({a}) : ({b}); }}"
        if shape is not None:
            return f"{{ return {_java(_parse(shape, m))}; }}"
    except _Outside:
        return None
    return None


def _parse(text: str, m: JavaMethod) -> A.Expr:
    try:
        return parse_expression(text, None, m.line)
    except SpecInvalid as e:
        raise _Outside(e.message) from None


def _java(e: A.Expr) -> str:
    if isinstance(e, A.Lit):
        if e.kind not in ("int", "long", "char", "bool"):
            raise _Outside(e.kind)
        return e.text
    if isinstance(e, A.Name):
        return e.id
    if isinstance(e, A.Field):
        if isinstance(e.obj, A.Name) and e.obj.id in _BOXES and e.name in ("MAX_VALUE",
                                                                             "MIN_VALUE"):
            return f"{e.obj.id}.{e.name}"
        raise _Outside("field")
    if isinstance(e, A.Call):
        args = ", ".join(_java(a) for a in e.args)
        if e.target is None:
            return f"{e.name}({args})"
        if isinstance(e.target, A.Name) and e.target.id == "Math" and e.name in ("max", "min"):
            return f"Math.{e.name}({args})"
        if isinstance(e.target, A.Name) and e.target.id == "Math" and e.name == "abs":
            return f"Math.absExact({args})"
        raise _Outside("call")
    if isinstance(e, A.Unary):
        x = _java(e.expr)
        if e.op == "-":
            return f"Math.negateExact({x})"
        if e.op in ("!", "~", "+"):
            return f"{e.op}({x})"
        raise _Outside(e.op)
    if isinstance(e, A.Binary):
        a, b = _java(e.left), _java(e.right)
        if e.op in _EXACT:
            return f"{_EXACT[e.op]}({a}, {b})"
        if e.op in _PLAIN:
            return f"({a} {e.op} {b})"
        raise _Outside(e.op)  # shifts: no exact form; JML's bigint shift is not Java's
    if isinstance(e, A.Cond):
        return f"(({_java(e.cond)}) ? ({_java(e.then)}) : ({_java(e.other)}))"
    if isinstance(e, A.Cast) and e.type.strip() == "long":
        return f"((long) {_java(e.expr)})"
    if isinstance(e, A.Cast) and e.type.strip() == "int":
        return f"Math.toIntExact({_java(e.expr)})"
    raise _Outside(type(e).__name__)
