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
and boolean parameters and results, arrays of them (``a[i]``, ``a.length``) and Strings
(``s.length()``, ``s.charAt(i)``, never an operand of ``+``). A body of any other shape that
has an arithmetic operator or a cast would wrap where JML does not, so its method throws
``R.Undefined`` (every case that calls it is unknown); one with neither keeps javac's
reading, which is then every reading's (docs/jml.md)."""

from __future__ import annotations

import re
from collections.abc import Mapping

from adequacy.plugin import SpecInvalid

from ...jml import ast as A
from ...jml.members import JavaMethod
from ...jml.model_bodies import body_value
from ...jml.parser import parse_expression

_TYPES = frozenset({"int", "long", "short", "byte", "char", "boolean"})
_STRINGS = frozenset({"String", "java.lang.String"})
_PARAM_TYPES = _TYPES | {t + "[]" for t in _TYPES} | _STRINGS
_STRING_READS = frozenset({"length", "charAt"})
#: what may make javac's reading of a body differ from JML's: arithmetic (``+`` ``-`` ``*``
#: ``/``, their compound and ``++``/``--`` forms, unary minus) and casts
_ARITHMETIC = re.compile(r"[-+*/]|\(\s*(?:int|long|short|byte|char)\s*\)")
_EXACT = {"+": "Math.addExact", "-": "Math.subtractExact", "*": "Math.multiplyExact",
          "/": "adequacy.rac.R.divideExact"}
_PLAIN = frozenset({"%", "<", "<=", ">", ">=", "==", "!=", "&&", "||", "&", "|", "^"})
_BOXES = frozenset({"Integer", "Long", "Short", "Byte", "Character"})


class _Outside(Exception):
    """A construct this rewrite does not handle: the body keeps javac's reading."""


def checked_body(m: JavaMethod, fields: Mapping[str, str] | None = None,
                 returns: Mapping[str, str] | None = None) -> str | None:
    """``m``'s body with exact arithmetic; a body that throws ``R.Undefined`` where the body
    is of no handled shape yet may overflow or narrow; None (javac's reading) where it has
    no arithmetic at all. ``fields`` and ``returns``: the class's field types and its
    methods' result types by name, so that every operand's type is known to be one the
    exact operations take (an operand of another type, or of none we know, is outside)."""
    if not m.has_body or m.return_type is None:
        return None
    types = {**(fields or {}), **{n: t.strip() for t, n in m.params}}
    results = returns or {}
    shape = body_value(" ".join(m.source.split()))
    try:
        if m.return_type.strip() not in _TYPES or any(
                t.strip() not in _PARAM_TYPES for t, _n in m.params):
            raise _Outside("types")
        if isinstance(shape, tuple):
            c, a, b = (_java(_parse(x, m), types, results) for x in shape)
            return f"{{ return ({c}) ? ({a}) : ({b}); }}"
        if shape is not None:
            return f"{{ return {_java(_parse(shape, m), types, results)}; }}"
        raise _Outside("shape")
    except _Outside:
        body = m.source[m.source.find("{"):] if "{" in m.source else ""
        if not _ARITHMETIC.search(_code_only(body)):
            return None
        return ('{ throw new adequacy.rac.R.Undefined("model method ' + m.name
                + ': a body of this shape with arithmetic is not evaluated exactly"); }')


def _code_only(text: str) -> str:
    """``text`` without comments and string or char literals (whose characters are not
    operators)."""
    return re.sub(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'', " ", text,
                  flags=re.S)


def _parse(text: str, m: JavaMethod) -> A.Expr:
    try:
        return parse_expression(text, None, m.line)
    except SpecInvalid as e:
        raise _Outside(e.message) from None


def _java(e: A.Expr, types: Mapping[str, str], results: Mapping[str, str]) -> str:
    """Java text of ``e`` with exact arithmetic; ``types``: the names' declared types,
    ``results``: the class's methods' result types."""
    def go(x: A.Expr) -> str:
        return _java(x, types, results)

    if isinstance(e, A.Lit):
        if e.kind not in ("int", "long", "char", "bool"):
            raise _Outside(e.kind)
        return e.text
    if isinstance(e, A.Name):
        if types.get(e.id) not in _PARAM_TYPES:
            raise _Outside(f"{e.id}: a type the exact operations may not take")
        return e.id
    if isinstance(e, A.Field):
        if isinstance(e.obj, A.Name) and e.obj.id in _BOXES and e.name in ("MAX_VALUE",
                                                                             "MIN_VALUE"):
            return f"{e.obj.id}.{e.name}"
        if e.name == "length" and _type(e.obj, types).endswith("[]"):
            return f"{go(e.obj)}.length"
        raise _Outside("field")
    if isinstance(e, A.Index):
        if not _type(e.arr, types).endswith("[]"):
            raise _Outside("index")
        return f"{go(e.arr)}[{go(e.index)}]"
    if isinstance(e, A.Call):
        args = ", ".join(go(a) for a in e.args)
        if e.target is None:
            if results.get(e.name) not in _TYPES:
                raise _Outside(f"{e.name}: a result type the exact operations may not take")
            return f"{e.name}({args})"
        if e.name in _STRING_READS and _type(e.target, types) in _STRINGS:
            return f"{go(e.target)}.{e.name}({args})"
        if isinstance(e.target, A.Name) and e.target.id == "Math" and e.name in ("max", "min"):
            return f"Math.{e.name}({args})"
        if isinstance(e.target, A.Name) and e.target.id == "Math" and e.name == "abs":
            return f"Math.absExact({args})"
        raise _Outside("call")
    if isinstance(e, A.Unary):
        x = go(e.expr)
        if e.op == "-":
            return f"Math.negateExact({x})"
        if e.op in ("!", "~", "+"):
            return f"{e.op}({x})"
        raise _Outside(e.op)
    if isinstance(e, A.Binary):
        if any(_type(x, types) in _STRINGS for x in (e.left, e.right)):
            raise _Outside("a String operand")  # ``+`` would concatenate
        a, b = go(e.left), go(e.right)
        if e.op in _EXACT:
            return f"{_EXACT[e.op]}({a}, {b})"
        if e.op in _PLAIN:
            return f"({a} {e.op} {b})"
        raise _Outside(e.op)  # shifts: no exact form; JML's bigint shift is not Java's
    if isinstance(e, A.Cond):
        return f"(({go(e.cond)}) ? ({go(e.then)}) : ({go(e.other)}))"
    if isinstance(e, A.Cast) and e.type.strip() == "long":
        return f"((long) {go(e.expr)})"
    if isinstance(e, A.Cast) and e.type.strip() == "int":
        return f"Math.toIntExact({go(e.expr)})"
    raise _Outside(type(e).__name__)


def _type(e: A.Expr, types: Mapping[str, str]) -> str:
    """The declared type of a name, else ``?``: enough to tell arrays and Strings apart."""
    return types.get(e.id, "?") if isinstance(e, A.Name) else "?"
