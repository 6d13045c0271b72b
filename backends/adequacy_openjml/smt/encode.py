"""JML spec expressions as Z3 terms, with the semantics rac implements (docs/jml.md).

Values carry their Java type (``int``, ``long``, ``short``, ``byte``, ``char``, ``boolean``,
``\\bigint``) because the spec's arithmetic mode needs it: in bigint mode (OpenJML's default for
specs) every integral operation is exact; in java mode ``+ - *`` and unary ``-`` wrap to the
promoted type; in safe mode they are undefined where the exact result leaves the type. `/`
and `%` truncate toward zero in every mode (`%` takes the dividend's sign), and a zero divisor
is undefined. A narrowing cast of an out-of-range value is undefined in bigint mode and keeps
the low bits in java mode. Definedness follows Java's short-circuits (`a && b` needs `b`
defined only where `a` is true), with rac's three-valued quantifiers. Pure helpers whose body
is one `return` (or `if (c) return a; else return b;`) are inlined with Java's wrapping
arithmetic (a helper runs as Java), a recursive one unfolded to a depth and the rest left
uninterpreted; anything else raises ``Unsupported``.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

import z3

from adequacy.plugin import (
    UNFOLD_DEPTH,
    BoolType,
    IntType,
    Null,
    Scalar,
    SeqType,
    Sym,
    Unfolder,
    Unsupported,
    smt_terms,
)

from ..jml import ast as A

__all__ = ["JE", "JmlEncoder"]

T = z3.BoolVal(True)
RANGES = {"int": 32, "long": 64, "short": 16, "byte": 8}
INTEGRAL = ("int", "long", "short", "byte", "char", "\\bigint")


@dataclass
class JE:
    """An encoded JML expression: value (a ``Sym``: a Scalar, or a Null for arrays), its Java
    type, and where it is defined."""

    v: Any
    jt: str
    d: Any = T


def in_range(jt: str, x: Any) -> Any:
    if jt == "char":
        return z3.And(x >= 0, x <= 0xFFFF)
    bits = RANGES.get(jt)
    if bits is None:
        return T
    return z3.And(x >= -(1 << (bits - 1)), x <= (1 << (bits - 1)) - 1)


def wrap(jt: str, x: Any) -> Any:
    if jt == "char":
        return x % 65536
    bits = RANGES[jt]
    m, h = 1 << bits, 1 << (bits - 1)
    return (x + h) % m - h


def tdiv(a: Any, b: Any) -> Any:
    """Java's `/`: toward zero."""
    q = z3.If(a >= 0, a, -a) / z3.If(b >= 0, b, -b)
    return z3.If((a >= 0) == (b >= 0), q, -q)


def _int(x: JE) -> Any:
    if x.jt not in INTEGRAL:
        raise Unsupported(f"expected an integral value, found {x.jt}")
    return x.v.term


def _bool(x: JE) -> Any:
    if x.jt != "boolean":
        raise Unsupported(f"expected a boolean, found {x.jt}")
    return x.v.term


def _promote(a: str, b: str, mode: str) -> str:
    if mode == "bigint" or "\\bigint" in (a, b):
        return "\\bigint"
    return "long" if "long" in (a, b) else "int"


def sc(t: Any, jt: str) -> Scalar:
    return Scalar(BoolType() if jt == "boolean" else IntType("int"), t)


class JmlEncoder:
    """One spec's expressions over an environment of parameter values."""

    def __init__(self, spec: Any, mode: str, tag: str, unfold: int = UNFOLD_DEPTH) -> None:
        self.spec = spec
        self.mode = mode
        self.tag = tag
        self.n = 0
        self.unfold = Unfolder(unfold)
        self.helpers = {m.name: m for m in spec.cls.methods if "pure" in m.modifiers
                        and m is not spec.method}

    def fresh(self, what: str) -> Any:
        self.n += 1
        return z3.Int(f"{self.tag}!{what}!{self.n}")

    # env: name -> JE (parameters, quantified variables); old: the pre-state env
    def expr(self, e: A.Expr, env: dict[str, JE], old: dict[str, JE]) -> JE:
        m = getattr(self, "e_" + type(e).__name__, None)
        if m is None:
            raise Unsupported(f"{type(e).__name__} (line {e.line})")
        return m(e, env, old)

    def e_Lit(self, e: A.Lit, env: dict[str, JE], old: dict[str, JE]) -> JE:
        if e.kind in ("int", "long"):
            return JE(sc(z3.IntVal(int(e.value)), e.kind), e.kind)  # type: ignore[call-overload]
        if e.kind == "bool":
            return JE(sc(z3.BoolVal(bool(e.value)), "boolean"), "boolean")
        if e.kind == "char":
            return JE(sc(z3.IntVal(ord(str(e.value))), "char"), "char")
        if e.kind == "null":
            return JE(None, "null")
        raise Unsupported(f"{e.kind} literal (line {e.line})")

    def e_Name(self, e: A.Name, env: dict[str, JE], old: dict[str, JE]) -> JE:
        if e.id in env:
            return env[e.id]
        raise Unsupported(f"name {e.id} (line {e.line})")

    def e_Result(self, e: A.Result, env: dict[str, JE], old: dict[str, JE]) -> JE:
        if "\\result" in env:
            return env["\\result"]
        raise Unsupported("\\result")

    def e_Old(self, e: A.Old, env: dict[str, JE], old: dict[str, JE]) -> JE:
        return self.expr(e.expr, {**old, **{k: v for k, v in env.items()
                                            if k not in old and k != "\\result"}}, old)

    def e_Field(self, e: A.Field, env: dict[str, JE], old: dict[str, JE]) -> JE:
        cls = (e.obj.name if isinstance(e.obj, A.TypeRef) else e.obj.id
               if isinstance(e.obj, A.Name) and e.obj.id not in env else None)
        if cls is not None:
            consts = {("Integer", "MAX_VALUE"): (2**31 - 1, "int"),
                      ("Integer", "MIN_VALUE"): (-2**31, "int"),
                      ("Long", "MAX_VALUE"): (2**63 - 1, "long"),
                      ("Long", "MIN_VALUE"): (-2**63, "long"),
                      ("Short", "MAX_VALUE"): (2**15 - 1, "short"),
                      ("Short", "MIN_VALUE"): (-2**15, "short"),
                      ("Byte", "MAX_VALUE"): (127, "byte"), ("Byte", "MIN_VALUE"): (-128, "byte")}
            got = consts.get((cls, e.name))
            if got is None:
                raise Unsupported(f"{cls}.{e.name} (line {e.line})")
            return JE(sc(z3.IntVal(got[0]), got[1]), got[1])
        o = self.expr(e.obj, env, old)
        if e.name == "length" and isinstance(o.v, Null) and o.jt.endswith("[]"):
            return JE(sc(z3.Length(o.v.val.term), "int"), "int", z3.And(o.d, z3.Not(o.v.null)))
        raise Unsupported(f"field {e.name} (line {e.line})")

    def e_Index(self, e: A.Index, env: dict[str, JE], old: dict[str, JE]) -> JE:
        a, i = self.expr(e.arr, env, old), self.expr(e.index, env, old)
        if not (isinstance(a.v, Null) and a.jt.endswith("[]")):
            raise Unsupported(f"indexing a {a.jt} (line {e.line})")
        k = _int(i)
        s = a.v.val.term
        et = a.jt[:-2]
        return JE(sc(s[k], et), et, z3.And(a.d, i.d, z3.Not(a.v.null), k >= 0,
                                            k < z3.Length(s)))

    def e_Unary(self, e: A.Unary, env: dict[str, JE], old: dict[str, JE]) -> JE:
        x = self.expr(e.expr, env, old)
        if e.op == "!":
            return JE(sc(z3.Not(_bool(x)), "boolean"), "boolean", x.d)
        if e.op == "-":
            jt = _promote(x.jt, x.jt, self.mode)
            return self.arith(jt, -_int(x), x.d)
        if e.op == "+":
            return x
        raise Unsupported(f"unary {e.op} (line {e.line})")

    def arith(self, jt: str, exact: Any, d: Any) -> JE:
        if jt == "\\bigint" or self.mode == "bigint":
            return JE(sc(exact, "\\bigint"), "\\bigint", d)
        if self.mode == "java":
            return JE(sc(z3.If(in_range(jt, exact), exact, wrap(jt, exact)), jt), jt, d)
        return JE(sc(exact, jt), jt, z3.And(d, in_range(jt, exact)))  # safe: overflow undefined

    def logic(self, op: str, a: JE, b: JE) -> JE:
        x, y = _bool(a), _bool(b)
        if op == "&&":
            return JE(sc(z3.And(x, y), "boolean"), "boolean", z3.And(a.d, z3.Or(z3.Not(x), b.d)))
        if op == "||":
            return JE(sc(z3.Or(x, y), "boolean"), "boolean", z3.And(a.d, z3.Or(x, b.d)))
        if op == "==>":
            return JE(sc(z3.Implies(x, y), "boolean"), "boolean",
                      z3.And(a.d, z3.Or(z3.Not(x), b.d)))
        if op == "<==":
            return JE(sc(z3.Implies(y, x), "boolean"), "boolean", z3.And(a.d, b.d))
        if op in ("<==>", "<=!=>"):
            v = x == y
            return JE(sc(v if op == "<==>" else z3.Not(v), "boolean"), "boolean",
                      z3.And(a.d, b.d))
        raise Unsupported(op)

    def e_Binary(self, e: A.Binary, env: dict[str, JE], old: dict[str, JE]) -> JE:
        op = e.op
        a = self.expr(e.left, env, old)
        b = self.expr(e.right, env, old)
        if op in ("&&", "||", "==>", "<==", "<==>", "<=!=>"):
            return self.logic(op, a, b)
        d = z3.And(a.d, b.d)
        if op in ("==", "!="):
            if a.jt == "null" or b.jt == "null":
                other = b if a.jt == "null" else a
                if other.jt == "null":
                    eq: Any = T
                elif isinstance(other.v, Null):
                    eq = other.v.null
                else:
                    raise Unsupported(f"comparing a {other.jt} with null (line {e.line})")
                return JE(sc(eq if op == "==" else z3.Not(eq), "boolean"), "boolean", d)
            if a.jt == "boolean" and b.jt == "boolean":
                eq = _bool(a) == _bool(b)
            elif a.jt in INTEGRAL and b.jt in INTEGRAL:
                eq = _int(a) == _int(b)
            else:
                raise Unsupported(f"== on {a.jt} and {b.jt} (object identity; line {e.line})")
            return JE(sc(eq if op == "==" else z3.Not(eq), "boolean"), "boolean", d)
        if op in ("<", "<=", ">", ">="):
            x, y = _int(a), _int(b)
            r = {"<": x < y, "<=": x <= y, ">": x > y, ">=": x >= y}[op]
            return JE(sc(r, "boolean"), "boolean", d)
        if op in ("+", "-", "*"):
            x, y = _int(a), _int(b)
            jt = _promote(a.jt, b.jt, self.mode)
            return self.arith(jt, {"+": x + y, "-": x - y, "*": x * y}[op], d)
        if op in ("/", "%"):
            x, y = _int(a), _int(b)
            jt = _promote(a.jt, b.jt, self.mode)
            q = tdiv(x, y)
            d = z3.And(d, y != 0)
            if op == "%":
                return JE(sc(x - y * q, jt), jt, d)
            return self.arith(jt, q, d)  # MIN / -1 leaves the type
        raise Unsupported(f"operator {op} (line {e.line})")

    def e_Chain(self, e: A.Chain, env: dict[str, JE], old: dict[str, JE]) -> JE:
        vals = [self.expr(x, env, old) for x in e.operands]
        acc: JE | None = None
        for op, a, b in zip(e.ops, vals, vals[1:], strict=False):
            x, y = _int(a), _int(b)
            r = {"<": x < y, "<=": x <= y, ">": x > y, ">=": x >= y}.get(op)
            if r is None:
                raise Unsupported(f"chained {op}")
            link = JE(sc(r, "boolean"), "boolean", z3.And(a.d, b.d))
            acc = link if acc is None else self.logic("&&", acc, link)
        assert acc is not None
        return acc

    def e_Cond(self, e: A.Cond, env: dict[str, JE], old: dict[str, JE]) -> JE:
        c = self.expr(e.cond, env, old)
        a, b = self.expr(e.then, env, old), self.expr(e.other, env, old)
        cv = _bool(c)
        if a.jt == "boolean" and b.jt == "boolean":
            jt = "boolean"
        elif a.jt in INTEGRAL and b.jt in INTEGRAL:
            jt = a.jt if a.jt == b.jt else _promote(a.jt, b.jt, "java")
            if self.mode != "bigint" and a.jt != b.jt:
                raise Unsupported("a conditional mixing integral types")
        else:
            raise Unsupported(f"a conditional of {a.jt} and {b.jt}")
        return JE(sc(z3.If(cv, a.v.term, b.v.term), jt), jt, z3.And(c.d, z3.If(cv, a.d, b.d)))

    def e_Cast(self, e: A.Cast, env: dict[str, JE], old: dict[str, JE]) -> JE:
        x = self.expr(e.expr, env, old)
        t = e.type.strip()
        if t == "\\bigint":
            return JE(sc(_int(x), "\\bigint"), "\\bigint", x.d)
        if t in RANGES or t == "char":
            v = _int(x)
            if self.mode == "java":
                return JE(sc(z3.If(in_range(t, v), v, wrap(t, v)), t), t, x.d)
            return JE(sc(v, t), t, z3.And(x.d, in_range(t, v)))
        raise Unsupported(f"cast to {t} (line {e.line})")

    def e_Quant(self, e: A.Quant, env: dict[str, JE], old: dict[str, JE]) -> JE:
        if e.type not in ("int", "long", "short", "byte", "char", "\\bigint"):
            raise Unsupported(f"quantifier over {e.type} (line {e.line})")
        if e.kind not in ("forall", "exists"):
            raise Unsupported(f"\\{e.kind} (line {e.line})")
        xs = [self.fresh(f"q_{v}") for v in e.vars]
        inner = dict(env)
        rng_type = []
        for v, x in zip(e.vars, xs, strict=True):
            inner[v] = JE(sc(x, e.type), e.type)
            rng_type.append(in_range(e.type, x))
        inner_old = {**old, **{v: inner[v] for v in e.vars}}
        r = self.expr(e.range, inner, inner_old) if e.range is not None else \
            JE(sc(T, "boolean"), "boolean")
        b = self.expr(e.body, inner, inner_old)
        g = z3.And(*rng_type, _bool(r))
        body = _bool(b)
        # the range is evaluated first; the body only where the range holds
        dg = r.d
        db = z3.Or(z3.Not(_bool(r)), b.d)
        dinst = z3.And(dg, db)
        tr = z3.And(*rng_type)
        if e.kind == "forall":
            v = z3.ForAll(xs, z3.Implies(g, body))
            d = z3.Or(z3.Exists(xs, z3.And(tr, dinst, g, z3.Not(body))),
                      z3.ForAll(xs, z3.Implies(tr, dinst)))
        else:
            v = z3.Exists(xs, z3.And(g, body))
            d = z3.Or(z3.Exists(xs, z3.And(tr, dinst, g, body)),
                      z3.ForAll(xs, z3.Implies(tr, dinst)))
        return JE(sc(v, "boolean"), "boolean", d)

    def e_Call(self, e: A.Call, env: dict[str, JE], old: dict[str, JE]) -> JE:
        if e.target is None:
            m = self.helpers.get(e.name)
            if m is None or not m.params and e.args or len(m.params) != len(e.args):
                raise Unsupported(f"call of {e.name} (line {e.line})")
            overloads = [x for x in self.spec.cls.methods if x.name == e.name]
            if len(overloads) != 1 or "static" not in m.modifiers:
                raise Unsupported(f"call of {e.name}: overloaded or not static")
            return self.inline(m, [self.expr(a, env, old) for a in e.args], e.line)
        if isinstance(e.target, A.TypeRef) and e.target.name == "Math":
            args = [self.expr(a, env, old) for a in e.args]
            if e.name in ("max", "min") and len(args) == 2:
                x, y = _int(args[0]), _int(args[1])
                jt = _promote(args[0].jt, args[1].jt, "java")
                v = z3.If(x >= y, x, y) if e.name == "max" else z3.If(x <= y, x, y)
                return JE(sc(v, jt), jt, z3.And(args[0].d, args[1].d))
        raise Unsupported(f"call of {e.name} (line {e.line})")

    def inline(self, m: Any, args: list[JE], line: int) -> JE:
        """A pure helper's body with the arguments' values, as Java runs it; a helper that
        calls itself is unfolded to the ``Unfolder``'s depth, the rest uninterpreted (never a
        recursive definition: nothing here proves it terminates)."""
        from ..jml.model_bodies import body_value
        from ..jml.parser import parse_expression
        shape = body_value(" ".join(m.source[m.source.find("{"):].split()))
        if shape is None:
            raise Unsupported(f"helper {m.name}: a body other than one return")
        env: dict[str, JE] = {}
        for (ty, name), a in zip(m.params, args, strict=True):
            ty = ty.strip()
            if ty == a.jt or (ty in RANGES and a.jt in RANGES and RANGES[a.jt] <= RANGES[ty]):
                env[name] = JE(a.v, ty, a.d)
            else:
                raise Unsupported(f"helper {m.name}: argument of type {a.jt} for {ty}")
        rt = (m.return_type or "").strip()
        key = f"{m.name}!{hashlib.sha256(m.source.encode()).hexdigest()[:16]}"
        argd = z3.And(*[a.d for a in args])
        if not self.unfold.may_unfold(key):
            if rt not in RANGES and rt not in ("char", "boolean"):
                raise Unsupported(f"helper {m.name}: a recursive helper returning {rt}")
            terms = [t for a in args for t in smt_terms.leaf_terms(a.v)]
            sort = z3.BoolSort() if rt == "boolean" else z3.IntSort()
            (v,), dv = self.unfold.remainder(key, terms, [sort])
            if rt != "boolean":
                dv = z3.And(dv, in_range(rt, v))
            return JE(sc(v, rt), rt, z3.And(argd, dv))
        saved, self.mode = self.mode, "java"  # a helper runs as Java
        try:
            with self.unfold.unfolding(key):
                if isinstance(shape, tuple):
                    c, x, y = (parse_expression(s) for s in shape)
                    r = self.e_Cond(A.Cond(line, c, x, y), env, env)
                else:
                    r = self.expr(parse_expression(shape), env, env)
        finally:
            self.mode = saved
        if r.jt != rt and not (r.jt in RANGES and rt in RANGES):
            raise Unsupported(f"helper {m.name}: result type")
        return JE(r.v, r.jt, z3.And(argd, r.d))


def param_value(java_type: str, s: Sym) -> JE:
    """A parameter's ``Sym`` as a JML value of its Java type."""
    t = java_type.strip()
    if t in RANGES or t in ("char", "boolean"):
        if not isinstance(s, Scalar):
            raise Unsupported(f"parameter of type {t}")
        return JE(s, t)
    if t.endswith("[]") and t[:-2] in RANGES | {"char": 0, "boolean": 0}:
        if isinstance(s, Null):
            return JE(s, t)
        if isinstance(s, Scalar) and isinstance(s.ty, SeqType):
            return JE(Null(s.ty, z3.BoolVal(False), s), t)
    raise Unsupported(f"parameter of type {t}")
