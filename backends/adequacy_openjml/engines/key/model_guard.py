"""A model method's body as KeY reads it, defined only where Java arithmetic agrees with it.

KeY reads a model method's body as specification, with mathematical integers: ``y * 2 / 2``
at ``Integer.MAX_VALUE`` is ``MAX_VALUE``. OpenJML translates the same body in its code mode
(safe math: the overflow is an error), and rac computes it with exact operations and says
unknown there (``engines/rac/model_math.py``). Where no operation of the body leaves its
Java type's range, the two readings give the same value; elsewhere JML does not say which
value the call has. So the body KeY loads is

    { return G ? (T) (V) : <free>(args); }

where ``G`` says that every parameter lies in its declared type's range and every
``+ - * /``, unary minus, ``Math.abs`` and narrowing cast of the body (on the branch that is
evaluated) stays in the range of its Java type, ``V`` is the body's value, and ``<free>`` is a
model method of the same signature with no body: a value KeY knows nothing about. A stub
whose formula depends on the call is then provable neither way outside ``G`` (unknown), and
inside ``G`` exactly as before. A body KeY cannot read (statements, loops) or whose operations
we do not bound (shifts, bitwise operators on integers, floating point, quantifiers) gets no
definition at all: every call is free, which is unknown, never wrong.

The Java type of an operation follows binary numeric promotion (JLS 5.6.2): ``long`` when an
operand is ``long``, else ``int``. An operand whose type is not known here counts as ``int``:
that range is the smaller one, so the guard can only be stricter than Java's (more unknowns),
never looser."""

from __future__ import annotations

from collections.abc import Mapping

from adequacy.plugin import SpecInvalid

from ...jml import ast as A
from ...jml.parser import parse_expression
from ...stubs.render import render_jml

RANGES = {"int": ("Integer.MIN_VALUE", "Integer.MAX_VALUE"),
          "long": ("Long.MIN_VALUE", "Long.MAX_VALUE"),
          "short": ("-32768", "32767"), "byte": ("-128", "127"), "char": ("0", "65535")}
_INTEGRAL = frozenset(RANGES)
WIDENED = frozenset({"int", "long", "short", "byte"})
"""Integral parameter types KeY reads as ``\\bigint`` in a model method (``adapt``)."""
_ARITH = frozenset({"+", "-", "*", "/"})
_COMPARE = frozenset({"<", "<=", ">", ">=", "==", "!="})
_LOGIC = frozenset({"&&", "||", "==>", "<==", "<==>", "<=!=>"})
_BOXES = {"Integer": "int", "Long": "long", "Short": "short", "Byte": "byte",
          "Character": "char"}

FREE_PREFIX = "__adequacy_free_"
"""Prefix of the body-less twin of a model method (no spec or program names start so)."""


class Unbounded(Exception):
    """An operation whose Java value the guard does not bound: the body stays undefined."""


def free_name(name: str) -> str:
    return FREE_PREFIX + name


def _promote(*types: str) -> str:
    return "long" if "long" in types else "int"


class _Guard:
    def __init__(self, vars_: Mapping[str, str], returns: Mapping[str, str]) -> None:
        self.vars = vars_
        self.returns = returns

    def type_of(self, e: A.Expr) -> str:
        """The Java type of ``e`` as far as the guard needs it: an integral type, ``boolean``,
        an array type, or ``?`` (counted as ``int`` in arithmetic)."""
        if isinstance(e, A.Lit):
            return {"int": "int", "long": "long", "char": "char", "bool": "boolean"}.get(
                e.kind, e.kind)
        if isinstance(e, A.Name):
            return self.vars.get(e.id, "?")
        if isinstance(e, A.Index):
            t = self.type_of(e.arr)
            return t[:-2] if t.endswith("[]") else "?"
        if isinstance(e, A.Field):
            if e.name == "length" and self.type_of(e.obj).endswith("[]"):
                return "int"
            if isinstance(e.obj, (A.Name, A.TypeRef)):
                box = e.obj.id if isinstance(e.obj, A.Name) else e.obj.name
                if box in _BOXES and e.name in ("MAX_VALUE", "MIN_VALUE"):
                    return _BOXES[box]
            return "?"
        if isinstance(e, A.Call):
            if _is_math(e, "abs", "max", "min") and e.args:
                return _promote(*(self.type_of(a) for a in e.args))
            return self.returns.get(e.name, "?") if e.target is None else "?"
        if isinstance(e, A.Cast):
            return e.type.strip()
        if isinstance(e, A.Unary):
            return "boolean" if e.op == "!" else _promote(self.type_of(e.expr))
        if isinstance(e, A.Binary):
            if e.op in _COMPARE or e.op in _LOGIC:
                return "boolean"
            if e.op in ("&", "|", "^") and self.type_of(e.left) == "boolean":
                return "boolean"
            return _promote(self.type_of(e.left), self.type_of(e.right))
        if isinstance(e, A.Chain):
            return "boolean"
        if isinstance(e, A.Cond):
            a, b = self.type_of(e.then), self.type_of(e.other)
            return a if a == b else _promote(a, b)
        return "?"

    def conds(self, e: A.Expr) -> list[str]:
        """Conditions under which every operation of ``e`` that is evaluated stays in range
        (JML text, conjoined by the caller)."""
        if isinstance(e, (A.Lit, A.Name)):
            if isinstance(e, A.Lit) and e.kind in ("float", "double", "string"):
                raise Unbounded(e.kind)
            return []
        if isinstance(e, A.Field):
            return self.conds(e.obj) if not isinstance(e.obj, A.TypeRef) else []
        if isinstance(e, A.Index):
            return self.conds(e.arr) + self.conds(e.index)
        if isinstance(e, A.Call):
            out = [c for a in e.args for c in self.conds(a)]
            if e.target is not None and not _is_math(e, "abs", "max", "min"):
                raise Unbounded(f"call of {e.name} on an object")
            if _is_math(e, "abs"):
                t = self.type_of(e)
                out.append(f"{render_jml(e.args[0])} != {RANGES[t][0]}")
            return out
        if isinstance(e, A.Unary):
            out = self.conds(e.expr)
            if e.op == "-":
                out.append(_in(self.type_of(e), render_jml(e)))
            elif e.op not in ("!", "+"):
                raise Unbounded(e.op)
            return out
        if isinstance(e, A.Binary):
            left, right = self.conds(e.left), self.conds(e.right)
            lt = render_jml(e.left)
            if e.op in ("&&", "==>"):
                return left + ([f"(!({lt}) || ({_all(right)}))"] if right else [])
            if e.op == "||":
                return left + ([f"(({lt}) || ({_all(right)}))"] if right else [])
            if e.op in _ARITH:
                return left + right + [_in(self.type_of(e), render_jml(e))]
            if e.op in _COMPARE or e.op == "%" or e.op in ("<==>", "<=!=>") or (
                    e.op in ("&", "|", "^") and self.type_of(e) == "boolean"):
                return left + right
            raise Unbounded(e.op)  # shifts, bitwise operators on integers
        if isinstance(e, A.Chain):
            return [c for x in e.operands for c in self.conds(x)]
        if isinstance(e, A.Cond):
            first = self.conds(e.cond)
            then, other = self.conds(e.then), self.conds(e.other)
            if then or other:
                first.append(f"(({render_jml(e.cond)}) ? ({_all(then)}) : ({_all(other)}))")
            return first
        if isinstance(e, A.Cast):
            out = self.conds(e.expr)
            to = e.type.strip()
            if to not in _INTEGRAL:
                raise Unbounded(f"cast to {to}")
            if to != "long":
                out.append(_in(to, render_jml(e.expr)))
            return out
        raise Unbounded(type(e).__name__)


def _is_math(e: A.Call, *names: str) -> bool:
    t = e.target
    return e.name in names and (isinstance(t, A.Name) and t.id == "Math"
                                or isinstance(t, A.TypeRef) and t.name == "Math")


def _in(java_type: str, text: str) -> str:
    lo, hi = RANGES.get(java_type, RANGES["int"])
    return f"({lo} <= {text} && {text} <= {hi})"


def _all(conds: list[str]) -> str:
    return " && ".join(dict.fromkeys(conds)) or "true"


def guarded_body(value: str | tuple[str, str, str], params: list[tuple[str, str]],
                 result_type: str, name: str, line: int,
                 returns: Mapping[str, str]) -> str:
    """The ``{ return ...; }`` KeY loads for a body of value ``value`` (an expression, or
    the ``(C, A, B)`` of an if-else body); ``Unbounded`` where the guard cannot be built.
    ``params`` are the declared (type, name) pairs, ``returns`` the result types of the
    class's methods by name (where one declaration has it)."""
    try:
        if isinstance(value, tuple):
            c, a, b = (parse_expression(x, None, line) for x in value)
            expr: A.Expr = A.Cond(line, c, a, b)
        else:
            expr = parse_expression(value, None, line)
    except SpecInvalid as e:
        raise Unbounded(e.message) from None
    g = _Guard({n: t.strip() for t, n in params}, returns)
    # the parameters KeY reads as \bigint (``adapt.model_edits``) must hold values of their
    # declared type, as a Java call's arguments do
    conds = [_in(t.strip(), n) for t, n in params if t.strip() in WIDENED]
    conds += g.conds(expr)
    rt = result_type.strip()
    v = render_jml(expr)
    if rt in _INTEGRAL:
        v = f"({rt}) ({v})"
    if not conds:
        return f"{{ return {v}; }}"
    args = ", ".join(n for _t, n in params)
    return f"{{ return ({_all(conds)}) ? ({v}) : {free_name(name)}({args}); }}"
