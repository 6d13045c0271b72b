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
    Pred,
    Scalar,
    SeqType,
    StringType,
    Sym,
    Unfolder,
    Unsupported,
    smt_terms,
)

from ..jml import ast as A

__all__ = ["JE", "JmlEncoder", "kleene_and", "kleene_or"]

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


def _seq(n: Null) -> Any:
    """The sequence term of an array or String reference."""
    if not isinstance(n.val, Scalar):
        raise Unsupported("an array of compound values")
    return n.val.term


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
        self.exact_when: list[Any] = []
        """Where the encoding is exact beyond the unfolding (Java's UTF-16 view of strings)."""
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
            return JE(sc(z3.Length(_seq(o.v)), "int"), "int", z3.And(o.d, z3.Not(o.v.null)))
        raise Unsupported(f"field {e.name} (line {e.line})")

    def e_Index(self, e: A.Index, env: dict[str, JE], old: dict[str, JE]) -> JE:
        a, i = self.expr(e.arr, env, old), self.expr(e.index, env, old)
        if not (isinstance(a.v, Null) and a.jt.endswith("[]")):
            raise Unsupported(f"indexing a {a.jt} (line {e.line})")
        k = _int(i)
        s = _seq(a.v)
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
            return self.comprehension(e, env, old)
        got = self.expand(e, env, old)
        if got is not None:
            return got
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

    def expand(self, e: A.Quant, env: dict[str, JE], old: dict[str, JE]) -> JE | None:
        """A ``\\forall``/``\\exists`` of one variable whose guard starts with comparisons
        bounding it by values known as numbers here (a case's input, fixed), as the finite
        conjunction or disjunction of the instances between the bounds. Outside them the
        guard's first comparisons are false and defined, and Java's ``&&`` evaluates nothing
        after them, so those instances change neither value nor definedness. None where it
        does not apply."""
        if len(e.vars) != 1 or e.type not in INTEGRAL or e.type == "\\bigint":
            return None
        (var,) = e.vars
        if e.range is not None:
            guard = e.range
        elif (e.kind == "forall" and isinstance(e.body, A.Binary) and e.body.op == "==>"):
            guard = e.body.left
        elif e.kind == "exists":
            guard = e.body
        else:
            return None
        lows: list[int] = []
        highs: list[int] = []
        for c in _leading_comparisons(guard, var):
            op, other = c
            n = self._number(other, env, old)
            if n is None:
                break
            if op in (">", ">=", "=="):
                lows.append(n + (1 if op == ">" else 0))
            if op in ("<", "<=", "=="):
                highs.append(n - (1 if op == "<" else 0))
        tlo, thi = _type_span(e.type)
        lo, hi = max([*lows, tlo]), min([*highs, thi])
        if not lows or not highs or hi - lo + 1 > EXPAND_LIMIT:
            return None
        vals: list[Any] = []
        defs: list[Any] = []
        for k in range(lo, hi + 1):
            x = JE(sc(z3.IntVal(k), e.type), e.type)
            inner, inner_old = {**env, var: x}, {**old, var: x}
            r = (self.expr(e.range, inner, inner_old) if e.range is not None
                 else JE(sc(T, "boolean"), "boolean"))
            b = self.expr(e.body, inner, inner_old)
            g, body = _bool(r), _bool(b)
            dinst = z3.And(r.d, z3.Or(z3.Not(g), b.d))
            if e.kind == "forall":
                vals.append(z3.Implies(g, body))
                defs.append((dinst, z3.And(dinst, g, z3.Not(body))))
            else:
                vals.append(z3.And(g, body))
                defs.append((dinst, z3.And(dinst, g, body)))
        if e.kind == "forall":
            v = z3.And(*vals) if vals else T
        else:
            v = z3.Or(*vals) if vals else z3.BoolVal(False)
        d = z3.Or(z3.Or(*[w for _, w in defs]), z3.And(*[di for di, _ in defs])) \
            if defs else T
        return JE(sc(v, "boolean"), "boolean", d)

    def _number(self, x: A.Expr, env: dict[str, JE], old: dict[str, JE]) -> int | None:
        """``x``'s value when it is a defined integer known here (else None)."""
        try:
            r = self.expr(x, env, old)
        except Unsupported:
            return None
        if r.jt not in INTEGRAL:
            return None
        v, d = z3.simplify(r.v.term), z3.simplify(r.d)
        return v.as_long() if z3.is_int_value(v) and z3.is_true(d) else None

    def comprehension(self, e: A.Quant, env: dict[str, JE], old: dict[str, JE]) -> JE:
        """``\\sum``, ``\\product``, ``\\num_of``, ``\\max``, ``\\min`` over one integral
        variable, as rac computes them (docs/jml.md): the range's bounds taken from its
        conjuncts (rac's own rule), every value from the lower bound up evaluated in order (the
        range predicate first, the body where it holds), folded left to right; an empty range
        is 0 / 1 / 0, and undefined for ``\\max``/``\\min``; outside bigint mode a partial
        result leaving the body's type (``long`` for ``\\num_of``) is undefined, as rac leaves
        it. The fold is unfolded value by value (``Unfolder``): a range longer than the
        unfolding depth rests on the uninterpreted remainder, so what depends on it is unknown."""
        from ..engines.rac.translate import _bounds
        if len(e.vars) != 1 or e.type not in INTEGRAL:
            raise Unsupported(f"\\{e.kind} over several variables or a {e.type} "
                              f"(line {e.line})")
        (var,) = e.vars
        bounds = _bounds(e, e.type).get(var)
        if bounds is None:
            raise Unsupported(f"\\{e.kind} whose range bounds {var} on one side only "
                              f"(line {e.line}): rac leaves it unknown")

        def bound(parts: list[tuple[A.Expr, int]], pick: Any) -> tuple[Any, Any]:
            vals = [self.expr(x, env, old) for x, _ in parts]
            terms = [_int(v) + adj for v, (_, adj) in zip(vals, parts, strict=True)]
            out = terms[0]
            for t in terms[1:]:
                out = pick(out, t)
            return out, z3.And(*[v.d for v in vals])

        lo, dlo = bound(bounds[0], lambda x, y: z3.If(x >= y, x, y))
        hi, dhi = bound(bounds[1], lambda x, y: z3.If(x <= y, x, y))
        kind = e.kind
        java = self.mode != "bigint"
        rjt = "long" if kind == "num_of" else None
        key = "cmp!" + hashlib.sha256(f"{self.mode}\x1f{e!r}".encode()).hexdigest()[:16]
        free = self._free_terms(e, env, old)

        def at(j: Any) -> tuple[Any, Any, Any, Any, str]:
            x = JE(sc(j, e.type), e.type)
            inner = {**env, var: x}
            inner_old = {**old, var: x}
            r = (self.expr(e.range, inner, inner_old) if e.range is not None
                 else JE(sc(T, "boolean"), "boolean"))
            body = self.expr(e.body, inner, inner_old)
            if kind == "num_of":
                return _bool(r), r.d, z3.If(_bool(body), 1, 0), body.d, "long"
            return _bool(r), r.d, _int(body), body.d, body.jt

        def step(j: Any, has: Any, acc: Any) -> tuple[Any, Any, Any]:
            """(has a value, the folded value, defined) from ``j`` on, given the fold so far."""
            nonlocal rjt
            if not self.unfold.may_unfold(key):
                (h, v), d = self.unfold.remainder(key, [j, hi, has, acc, *free],
                                                  [z3.BoolSort(), z3.IntSort()])
                return h, v, d
            with self.unfold.unfolding(key):
                rv, rd, bv, bd, bjt = at(j)
                if rjt is None:
                    rjt = bjt
                if kind in ("sum", "num_of"):
                    nxt = z3.If(rv, acc + bv, acc)
                elif kind == "product":
                    nxt = z3.If(rv, acc * bv, acc)
                else:
                    better = (bv > acc) if kind == "max" else (bv < acc)
                    nxt = z3.If(rv, z3.If(z3.Or(z3.Not(has), better), bv, acc), acc)
                nhas = z3.Or(has, rv)
                ok = z3.And(rd, z3.Or(z3.Not(rv), bd))
                if java and kind in ("sum", "product", "num_of"):
                    if rjt not in RANGES:
                        raise Unsupported(f"\\{kind} of a {rjt} outside bigint math "
                                          f"(line {e.line})")
                    ok = z3.And(ok, in_range(rjt, nxt))
                h2, v2, d2 = step(j + 1, nhas, nxt)
            stop = j > hi
            return (z3.If(stop, has, h2), z3.If(stop, acc, v2),
                    z3.If(stop, T, z3.And(ok, d2)))

        start = {"sum": 0, "num_of": 0, "product": 1, "max": 0, "min": 0}[kind]
        has, val, d = step(lo, z3.BoolVal(False), z3.IntVal(start))
        d = z3.And(dlo, dhi, d)
        if kind in ("max", "min"):
            d = z3.And(d, has)  # over an empty range: left open by the manual
        if java and rjt is None:
            raise Unsupported(f"\\{kind} whose body type is not known (line {e.line})")
        jt = rjt if java and rjt is not None else "\\bigint"
        return JE(sc(val, jt), jt, d)

    def _free_terms(self, e: A.Expr, env: dict[str, JE], old: dict[str, JE]) -> list[Any]:
        """The Z3 terms of every value ``e`` can read (the names it mentions, in both states,
        and ``\\result``): what a remainder standing for it must be a function of."""
        names = sorted({n.id for n in A.walk(e) if isinstance(n, A.Name)})
        out: list[Any] = []
        for n in names:
            for src in (env, old):
                v = src.get(n)
                if v is not None and v.v is not None:
                    out += smt_terms.leaf_terms(v.v)
        if any(isinstance(n, A.Result) for n in A.walk(e)) and "\\result" in env:
            out += smt_terms.leaf_terms(env["\\result"].v)
        return out

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
        if e.target is not None and not isinstance(e.target, A.TypeRef):
            recv = self.expr(e.target, env, old)
            if recv.jt == "String" and isinstance(recv.v, Null):
                return self.string_method(recv, e, [self.expr(a, env, old) for a in e.args])
        raise Unsupported(f"call of {e.name} (line {e.line})")

    def string_method(self, recv: JE, e: A.Call, args: list[JE]) -> JE:
        """``length()``, ``charAt(i)``, ``isEmpty()``, ``equals(t)`` of a String, as Java
        computes them: in UTF-16 code units. A task's string is a sequence of Unicode scalar
        values; where one lies outside the Basic Multilingual Plane, Java's length and chars
        are not the sequence's, and are left uninterpreted there (``self.exact``: searches
        look only at strings inside the plane; proofs hold for any value). A null receiver
        throws: undefined."""
        ref = recv.v
        q = _seq(ref)
        d = z3.And(recv.d, z3.Not(ref.null), *[a.d for a in args])
        k = z3.Int(f"{self.tag}!bmp!{self.n}")
        self.n += 1
        bmp = z3.ForAll([k], z3.Implies(z3.And(k >= 0, k < z3.Length(q)), q[k] < 0x10000))
        self.exact_when.append(bmp)
        jlen = z3.If(bmp, z3.Length(q),
                     z3.Function("jml!utf16_length", q.sort(), z3.IntSort())(q))
        n = e.name
        if n == "length" and not args:
            return JE(sc(jlen, "int"), "int", d)
        if n == "isEmpty" and not args:
            return JE(sc(jlen == 0, "boolean"), "boolean", d)
        if n == "charAt" and len(args) == 1:
            i = _int(args[0])
            at = z3.Function("jml!utf16_at", q.sort(), z3.IntSort(), z3.IntSort())
            return JE(sc(z3.If(bmp, q[i], at(q, i)), "char"), "char",
                      z3.And(d, i >= 0, i < jlen))
        if n == "equals" and len(args) == 1:
            o = args[0]
            if o.jt == "null":
                return JE(sc(z3.BoolVal(False), "boolean"), "boolean", d)
            if o.jt != "String" or not isinstance(o.v, Null):
                raise Unsupported(f"String.equals of a {o.jt} (line {e.line})")
            same = z3.And(z3.Not(o.v.null), q == _seq(o.v))
            return JE(sc(same, "boolean"), "boolean", d)
        raise Unsupported(f"String.{n} (line {e.line})")

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


EXPAND_LIMIT = 256
"""Most instances a quantifier over known bounds is expanded into."""


def _type_span(jt: str) -> tuple[int, int]:
    """The values of an integral Java type."""
    if jt == "char":
        return 0, 0xFFFF
    bits = RANGES[jt]
    return -(1 << (bits - 1)), (1 << (bits - 1)) - 1


def _leading_comparisons(guard: A.Expr, var: str) -> list[tuple[str, A.Expr]]:
    """``(op, other)`` for each comparison ``var op other`` the guard starts with (its first
    ``&&`` operands, in Java's evaluation order), up to the first operand that is not one."""
    flat: list[A.Expr] = []
    stack = [guard]
    while stack:
        x = stack.pop()
        if isinstance(x, A.Binary) and x.op == "&&":
            stack += [x.right, x.left]
        elif isinstance(x, A.Chain):
            flat += [A.Binary(x.line, op, x.operands[k], x.operands[k + 1])
                     for k, op in enumerate(x.ops)]
        else:
            flat.append(x)
    flip = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "=="}
    out: list[tuple[str, A.Expr]] = []
    for c in flat:
        if not (isinstance(c, A.Binary) and c.op in flip):
            break
        if isinstance(c.left, A.Name) and c.left.id == var and not _mentions(c.right, var):
            out.append((c.op, c.right))
        elif isinstance(c.right, A.Name) and c.right.id == var and not _mentions(c.left, var):
            out.append((flip[c.op], c.left))
        else:
            break
    return out


def _mentions(e: A.Expr, var: str) -> bool:
    return any(isinstance(n, A.Name) and n.id == var for n in A.walk(e))


def param_value(java_type: str, s: Sym) -> JE:
    """A parameter's ``Sym`` as a JML value of its Java type."""
    t = java_type.strip()
    if t in RANGES or t in ("char", "boolean"):
        if not isinstance(s, Scalar):
            raise Unsupported(f"parameter of type {t}")
        return JE(s, t)
    if t == "String":
        if isinstance(s, Null) and isinstance(s.val, Scalar) and isinstance(s.val.ty,
                                                                            StringType):
            return JE(s, t)
        if isinstance(s, Scalar) and isinstance(s.ty, StringType):
            return JE(Null(s.ty, z3.BoolVal(False), s), t)
    if t.endswith("[]") and t[:-2] in RANGES | {"char": 0, "boolean": 0}:
        if isinstance(s, Null):
            return JE(s, t)
        if isinstance(s, Scalar) and isinstance(s.ty, SeqType):
            return JE(Null(s.ty, z3.BoolVal(False), s), t)
    raise Unsupported(f"parameter of type {t}")


def kleene_or(parts: list[tuple[Any, Any]]) -> Pred:
    """Three-valued ``||`` of (value, defined) pairs: defined when some defined part holds or
    every part is defined."""
    v = z3.Or(*[p for p, _ in parts]) if parts else z3.BoolVal(False)
    d = z3.Or(z3.Or(*[z3.And(dp, p) for p, dp in parts]) if parts else z3.BoolVal(False),
              z3.And(*[dp for _, dp in parts]) if parts else z3.BoolVal(True))
    return Pred(v, d)


def kleene_and(parts: list[tuple[Any, Any]]) -> Pred:
    """Three-valued ``&&`` of (value, defined) pairs: defined when some defined part fails or
    every part is defined."""
    v = z3.And(*[p for p, _ in parts]) if parts else z3.BoolVal(True)
    d = z3.Or(z3.Or(*[z3.And(dp, z3.Not(p)) for p, dp in parts]) if parts
              else z3.BoolVal(False), z3.And(*[dp for _, dp in parts]) if parts
              else z3.BoolVal(True))
    return Pred(v, d)
