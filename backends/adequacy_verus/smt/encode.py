"""Verus spec expressions as Z3 terms, with Verus's spec semantics (docs/symbolic.md).

Every integer is mathematical (`int`); `/` and `%` are Euclidean, as Z3's `div`/`mod` on Int
are; a cast to a fixed width truncates; `as nat` of a negative value is an unspecified nat.
Sequences are Z3 sequences: `s[i]` out of range is Z3's unspecified `seq.nth`, as it is
Verus's unspecified `seq_index`. Each expression is encoded as a value and a definedness
condition that follows interp's three-valued rules (an index out of range, a division by zero,
an unspecified cast or choice is undefined; `false && U` is false; a quantifier is false when a
defined instance is false, true when every instance is defined and true), so a model found
inside both specs' definedness is one the concrete engines can decide.

Non-recursive spec fns are inlined; recursive ones are unfolded to a depth and the rest left
uninterpreted (``Unfolder``: never a recursive definition, whose termination nothing here
proves). Anything else this module does not know raises ``Unsupported``: the question becomes
unknown, never a guess.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import z3

from adequacy.plugin import (
    UNFOLD_DEPTH,
    BoolType,
    IntType,
    MultisetType,
    Null,
    Opt,
    Rec,
    Scalar,
    SeqType,
    SetType,
    StringType,
    Sym,
    Unfolder,
    Unsupported,
    smt_terms,
)

from ..attributes import uninterpreted
from ..syntax import ast as A

__all__ = ["Encoder", "E"]

WIDTHS = {"u8": (8, False), "u16": (16, False), "u32": (32, False), "u64": (64, False),
          "u128": (128, False), "usize": (64, False), "i8": (8, True), "i16": (16, True),
          "i32": (32, True), "i64": (64, True), "i128": (128, True), "isize": (64, True)}
INT = IntType("int")
BOOL = BoolType()
T = z3.BoolVal(True)
MAX_INLINE = 64
"""Deepest chain of non-recursive spec fn calls inlined into one another."""


@dataclass
class E:
    """An encoded expression: its value and where it is defined."""

    v: Any
    d: Any = T


class _NoneVal(Sym):
    """``None`` before its type is known (compared or matched against an ``Option``)."""


@dataclass
class _Coll(Sym):
    """A set (``arr``: element -> member) or multiset (element -> count) as a Z3 array, with
    its size where known."""

    kind: str
    arr: Any
    length: Any = None


def _set_of(q: Any) -> Any:
    k = z3.FreshInt("k")
    return z3.Lambda([k], z3.Contains(q, z3.Unit(k)))


def _multiset_of(q: Any) -> Any:
    """Element -> count of ``q``: defined without any fold, as the count of each element is
    the length of ``q`` filtered to it, pinned down by a quantifier over its positions (no
    recursion: each count is a unique number)."""
    m = z3.FreshConst(z3.ArraySort(z3.IntSort(), z3.IntSort()), "m")
    x = z3.FreshInt("x")
    return z3.SeqFoldLeft(z3.Lambda([m, x], z3.Store(m, x, m[x] + 1)),
                          z3.K(z3.IntSort(), z3.IntVal(0)), q)


def _digest(e: A.Expr) -> str:
    import hashlib
    return hashlib.sha256(repr(e).encode()).hexdigest()[:16]


def _consts(t: Any) -> list[Any]:
    """The uninterpreted constants a Z3 term mentions (what a remainder standing for part
    of it must be a function of)."""
    out: list[Any] = []
    seen: set[int] = set()
    stack = [t]
    while stack:
        x = stack.pop()
        if x.get_id() in seen:
            continue
        seen.add(x.get_id())
        if z3.is_const(x) and x.decl().kind() == z3.Z3_OP_UNINTERPRETED:
            out.append(x)
        elif z3.is_quantifier(x):
            stack.append(x.body())
        elif z3.is_app(x):
            stack.extend(x.children())
    return out


def _is_coll(x: Sym) -> bool:
    return isinstance(x, _Coll) or (isinstance(x, Scalar)
                                     and isinstance(x.ty, (SetType, MultisetType)))


def _coll(x: Sym) -> _Coll:
    """A set or multiset value as an array: a task's own (a sorted sequence) converted."""
    if isinstance(x, _Coll):
        return x
    if isinstance(x, Scalar) and isinstance(x.ty, SetType) and z3.is_seq(x.term):
        return _Coll(x.ty, "set", _set_of(x.term), z3.Length(x.term))
    if isinstance(x, Scalar) and isinstance(x.ty, MultisetType) and z3.is_seq(x.term):
        return _Coll(x.ty, "multiset", _multiset_of(x.term), z3.Length(x.term))
    raise Unsupported("expected a set or a multiset")


def _b(x: Sym) -> Any:
    if isinstance(x, Scalar) and z3.is_bool(x.term):
        return x.term
    raise Unsupported("expected a bool")


def _i(x: Sym) -> Any:
    if isinstance(x, Scalar) and z3.is_int(x.term):
        return x.term
    raise Unsupported("expected an integer")


def _s(x: Sym) -> Any:
    if isinstance(x, Scalar) and z3.is_seq(x.term):
        return x.term
    raise Unsupported("expected a sequence")


def sc(t: Any) -> Scalar:
    return Scalar(BOOL if z3.is_bool(t) else INT if z3.is_int(t) else SeqType(INT), t)


def type_range(name: str, x: Any) -> Any:
    """What a value of the Verus primitive type ``name`` satisfies."""
    if name in WIDTHS:
        bits, signed = WIDTHS[name]
        lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
        return z3.And(x >= lo, x <= hi)
    if name == "nat":
        return x >= 0
    if name == "char":
        return smt_terms.char_ok(x)
    return T


def truncate(name: str, x: Any) -> Any:
    """``x`` cast to the width ``name`` (the low bits). One wrap either way is written without
    ``mod`` (a value one step out of range, as ``(n - 1) as usize`` at ``n == 0`` is), which
    the solver decides at once, where a chain of ``mod``s in an unfolded recursion made it
    give up; further out, ``mod``."""
    bits, signed = WIDTHS[name]
    m = 1 << bits
    lo = -(1 << (bits - 1)) if signed else 0
    hi = lo + m - 1
    far = ((x - lo) % m) + lo
    return z3.If(z3.And(x >= lo - m, x < lo), x + m,
                 z3.If(z3.And(x > hi, x <= hi + m), x - m, far))


def sort_of_ref(t: A.TypeRef | None) -> Any:
    if t is None:
        raise Unsupported("an unannotated binder")
    n = t.name
    if n in WIDTHS or n in ("int", "nat", "char"):
        return z3.IntSort()
    if n == "bool":
        return z3.BoolSort()
    if n in ("Seq", "Vec") and t.args:
        return z3.SeqSort(sort_of_ref(t.args[0]))
    if n == "SpecString":
        return z3.SeqSort(z3.IntSort())
    raise Unsupported(f"type {t} in a binder or recursive fn")


@dataclass
class Scope:
    vars: dict[str, Sym] = field(default_factory=dict)
    parent: Scope | None = None

    def get(self, name: str) -> Sym | None:
        s: Scope | None = self
        while s is not None:
            if name in s.vars:
                return s.vars[name]
            s = s.parent
        return None

    def child(self, **kv: Sym) -> Scope:
        return Scope(dict(kv), self)


class Encoder:
    """One spec module's expressions as terms; ``tag`` keeps its declarations apart."""

    def __init__(self, module: A.SpecModule, tag: str, unfold: int = UNFOLD_DEPTH) -> None:
        self.m = module
        self.tag = tag
        self.fns = {f.name: f for f in module.all_fns() if f.mode == "spec"}
        self.structs = module.structs
        self.axioms: list[Any] = []
        self.unfold = Unfolder(unfold)
        self._calls: dict[tuple[str, tuple[int, ...]], E] = {}
        """Recursive calls already encoded, by helper and argument terms."""
        self._rec_memo: dict[str, bool] = {}
        self._hash_memo: dict[str, str] = {}
        self.depth = 0
        self.bound = 0
        """Quantifier nesting: an unspecified choice under a binder is not encoded."""
        self.n = 0
        import hashlib
        text = "\x1f".join(i.text for i in module.items)
        self.module_hash = hashlib.sha256(text.encode()).hexdigest()[:16]

    def fresh(self, what: str, sort: Any) -> Any:
        self.n += 1
        return z3.Const(f"{self.tag}!{what}!{self.n}", sort)

    # ------------------------------------------------------------------ entry points
    def predicate(self, fn_name: str, args: list[Sym]) -> E:
        fn = self.fns.get(fn_name)
        if fn is None or fn.body is None:
            raise Unsupported(f"no spec fn {fn_name}")
        if uninterpreted(fn):
            raise Unsupported(f"spec fn {fn_name} is #[verifier::external_body]: Verus ignores "
                              "its body")
        sc_ = Scope({p.name: a for p, a in zip(fn.params, args, strict=True)})
        r = self.expr(fn.body, sc_)
        return E(_b(r.v), r.d)

    # ------------------------------------------------------------------ expressions
    def expr(self, e: A.Expr, s: Scope) -> Any:
        m = getattr(self, "e_" + type(e).__name__, None)
        if m is None:
            raise Unsupported(f"{type(e).__name__} expressions (line {e.line})")
        return m(e, s)

    def bexpr(self, e: A.Expr, s: Scope) -> tuple[Any, Any]:
        r = self.expr(e, s)
        return _b(r.v), r.d

    def iexpr(self, e: A.Expr, s: Scope) -> tuple[Any, Any]:
        r = self.expr(e, s)
        return _i(r.v), r.d

    def e_Lit(self, e: A.Lit, s: Scope) -> E:
        if e.kind == "int":
            return E(sc(z3.IntVal(int(e.value))))  # type: ignore[call-overload]
        if e.kind == "bool":
            return E(sc(z3.BoolVal(bool(e.value))))
        if e.kind == "char":
            return E(sc(z3.IntVal(ord(str(e.value)))))
        raise Unsupported(f"{e.kind} literal (line {e.line})")

    def e_Path(self, e: A.Path, s: Scope) -> E:
        if len(e.segs) == 1:
            v = s.get(e.segs[0])
            if v is not None:
                return E(v)
            if e.segs[0] == "None":
                return E(_NoneVal(INT))
            fn = self.fns.get(e.segs[0])
            if fn is not None and not fn.params:
                return self.call(fn, [], e.line)
        if len(e.segs) == 2 and e.segs[0] in WIDTHS and e.segs[1] in ("MAX", "MIN"):
            bits, signed = WIDTHS[e.segs[0]]
            lo, hi = ((-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed
                      else (0, (1 << bits) - 1))
            return E(sc(z3.IntVal(hi if e.segs[1] == "MAX" else lo)))
        if e.segs[-1] == "None" and e.segs[:-1] in (("Option",),):
            return E(_NoneVal(INT))
        raise Unsupported(f"name {'::'.join(e.segs)} (line {e.line})")

    def e_Unary(self, e: A.Unary, s: Scope) -> E:
        if e.op == "!":
            v, d = self.bexpr(e.e, s)
            return E(sc(z3.Not(v)), d)
        if e.op == "-":
            v, d = self.iexpr(e.e, s)
            return E(sc(-v), d)
        if e.op in ("&", "*"):
            return self.expr(e.e, s)
        raise Unsupported(f"unary {e.op} (line {e.line})")

    def _logic(self, op: str, a: tuple[Any, Any], b: tuple[Any, Any]) -> E:
        (x, dx), (y, dy) = a, b
        if op in ("&&", "&&&"):
            return E(sc(z3.And(x, y)), z3.Or(z3.And(dx, z3.Not(x)), z3.And(dy, z3.Not(y)),
                                            z3.And(dx, dy)))
        if op in ("||", "|||"):
            return E(sc(z3.Or(x, y)), z3.Or(z3.And(dx, x), z3.And(dy, y), z3.And(dx, dy)))
        if op == "==>":
            return E(sc(z3.Implies(x, y)), z3.Or(z3.And(dx, z3.Not(x)), z3.And(dy, y),
                                                z3.And(dx, dy)))
        if op == "<==":
            return self._logic("==>", b, a)
        if op == "<==>":
            return E(sc(x == y), z3.And(dx, dy))
        raise Unsupported(op)

    def e_Binary(self, e: A.Binary, s: Scope) -> E:
        op = e.op
        if op in ("&&", "&&&", "||", "|||", "==>", "<==", "<==>"):
            # long chains of one operator are encoded without recursion per link
            spine: list[A.Expr] = []
            node: A.Expr = e
            while isinstance(node, A.Binary) and node.op == op and op != "==>":
                spine.append(node.r)
                node = node.l
            if op == "==>":
                return self._logic(op, self.bexpr(e.l, s), self.bexpr(e.r, s))
            acc = self.bexpr(node, s)
            for r in reversed(spine):
                got = self._logic(op, acc, self.bexpr(r, s))
                acc = (got.v.term, got.d)
            return E(sc(acc[0]), acc[1])
        lhs, rhs = self.expr(e.l, s), self.expr(e.r, s)
        d = z3.And(lhs.d, rhs.d)
        if op in ("==", "!=", "=~=", "=~~=", "===", "!=="):
            eq = self.equal(lhs.v, rhs.v, e.line)
            return E(sc(eq if op not in ("!=", "!==") else z3.Not(eq)), d)
        if op in ("<", "<=", ">", ">="):
            a, b = _i(lhs.v), _i(rhs.v)
            return E(sc({"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]), d)
        if op in ("+", "-", "*") and isinstance(lhs.v, Scalar) and z3.is_int(lhs.v.term):
            a, b = _i(lhs.v), _i(rhs.v)
            return E(sc({"+": a + b, "-": a - b, "*": a * b}[op]), d)
        if op == "+" and isinstance(lhs.v, Scalar) and z3.is_seq(lhs.v.term):
            return E(sc(z3.Concat(_s(lhs.v), _s(rhs.v))), d)
        if op in ("/", "%"):
            a, b = _i(lhs.v), _i(rhs.v)
            return E(sc(a / b if op == "/" else a % b), z3.And(d, b != 0))
        raise Unsupported(f"operator {op} (line {e.line})")

    def equal(self, a: Sym, b: Sym, line: int) -> Any:
        if isinstance(a, _NoneVal) and isinstance(b, Opt):
            return z3.Not(b.some)
        if isinstance(b, _NoneVal) and isinstance(a, Opt):
            return z3.Not(a.some)
        if isinstance(a, _NoneVal) and isinstance(b, _NoneVal):
            return T
        if _is_coll(a) or _is_coll(b):
            x, y = _coll(a), _coll(b)
            if x.kind != y.kind:
                raise Unsupported(f"comparing a {x.kind} with a {y.kind} (line {line})")
            return x.arr == y.arr
        if isinstance(a, Scalar) and isinstance(b, Scalar):
            if a.term.sort() != b.term.sort():
                raise Unsupported(f"comparing {a.term.sort()} with {b.term.sort()} (line {line})")
            return a.term == b.term
        return smt_terms.sym_eq(a, b)

    def e_Chain(self, e: A.Chain, s: Scope) -> E:
        vals = [self.iexpr(x, s) for x in e.operands]
        acc: tuple[Any, Any] | None = None
        for op, (a, da), (b, db) in zip(e.ops, vals, vals[1:], strict=False):
            link = {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b, "==": a == b,
                    "!=": a != b}.get(op)
            if link is None:
                raise Unsupported(f"chained {op} (line {e.line})")
            cur = (link, z3.And(da, db))
            acc = cur if acc is None else (lambda g: (g.v.term, g.d))(
                self._logic("&&", acc, cur))
        assert acc is not None
        return E(sc(acc[0]), acc[1])

    def e_Cast(self, e: A.Cast, s: Scope) -> E:
        r = self.expr(e.e, s)
        n = e.ty.name
        if n == "int":
            return E(sc(_i(r.v)), r.d)
        x = _i(r.v)
        if n == "nat":
            un = z3.Function(f"{self.tag}!as_nat", z3.IntSort(), z3.IntSort())
            self.axioms.append(z3.ForAll([y := z3.Int(f"{self.tag}!nat_y")], un(y) >= 0))
            return E(sc(z3.If(x >= 0, x, un(x))), z3.And(r.d, x >= 0))
        if n in WIDTHS:
            return E(sc(z3.If(type_range(n, x), x, truncate(n, x))), r.d)
        if n == "char":
            un = z3.Function(f"{self.tag}!as_char", z3.IntSort(), z3.IntSort())
            return E(sc(z3.If(smt_terms.char_ok(x), x, un(x))), z3.And(r.d, smt_terms.char_ok(x)))
        raise Unsupported(f"cast to {e.ty} (line {e.line})")

    def e_Index(self, e: A.Index, s: Scope) -> E:
        r, i = self.expr(e.e, s), self.expr(e.idx, s)
        seq, k = _s(r.v), _i(i.v)
        return E(sc(seq[k]), z3.And(r.d, i.d, k >= 0, k < z3.Length(seq)))

    def e_View(self, e: A.View, s: Scope) -> E:
        return self.expr(e.e, s)

    def e_Field(self, e: A.Field, s: Scope) -> E:
        r = self.expr(e.e, s)
        if isinstance(r.v, Rec) and e.name in r.v.fields:
            return E(r.v.fields[e.name], r.d)
        # a task value that may be null (an `array`): Verus sees only the value
        if isinstance(r.v, Null) and isinstance(r.v.val, Rec) and e.name in r.v.val.fields:
            return E(r.v.val.fields[e.name], r.d)
        raise Unsupported(f"field {e.name} (line {e.line})")

    def e_MethodCall(self, e: A.MethodCall, s: Scope) -> E:
        if any(isinstance(a, A.Closure) for a in e.args):
            return self.closure_call(e, s)
        r = self.expr(e.recv, s)
        args = [self.expr(a, s) for a in e.args]
        d = z3.And(r.d, *[a.d for a in args])
        n = e.name
        if isinstance(r.v, _Coll) or (isinstance(r.v, Scalar)
                                      and isinstance(r.v.ty, (SetType, MultisetType))):
            return self.collection_method(_coll(r.v), n, args, d, e.line)
        if isinstance(r.v, Scalar) and z3.is_seq(r.v.term) and not args and n in (
                "to_set", "to_multiset"):
            q = r.v.term
            if q.sort() != z3.SeqSort(z3.IntSort()):
                raise Unsupported(f"{n} of a sequence of {q.sort()} (line {e.line})")
            return E(_Coll(INT, "set" if n == "to_set" else "multiset", _set_of(q)
                           if n == "to_set" else _multiset_of(q),
                           None if n == "to_set" else z3.Length(q)), d)
        if isinstance(r.v, Opt):
            if n == "is_some" and not args:
                return E(sc(r.v.some), d)
            if n == "is_none" and not args:
                return E(sc(z3.Not(r.v.some)), d)
            if n in ("unwrap", "get_Some_0") and not args:
                return E(r.v.val, z3.And(d, r.v.some))
            raise Unsupported(f"Option::{n} (line {e.line})")
        if isinstance(r.v, Scalar) and z3.is_seq(r.v.term):
            q = r.v.term
            ln = z3.Length(q)
            if n == "len" and not args:
                return E(sc(ln), d)
            if n == "spec_index" and len(args) == 1:
                k = _i(args[0].v)
                return E(sc(q[k]), z3.And(d, k >= 0, k < ln))
            if n == "subrange" and len(args) == 2:
                lo, hi = _i(args[0].v), _i(args[1].v)
                return E(sc(z3.Extract(q, lo, hi - lo)),
                         z3.And(d, lo >= 0, lo <= hi, hi <= ln))
            if n == "take" and len(args) == 1:
                k = _i(args[0].v)
                return E(sc(z3.Extract(q, 0, k)), z3.And(d, k >= 0, k <= ln))
            if n == "skip" and len(args) == 1:
                k = _i(args[0].v)
                return E(sc(z3.Extract(q, k, ln - k)), z3.And(d, k >= 0, k <= ln))
            if n in ("push",) and len(args) == 1:
                x = args[0].v
                if not isinstance(x, Scalar):
                    raise Unsupported("a sequence of compound values")
                return E(sc(z3.Concat(q, z3.Unit(x.term))), d)
            if n in ("add", "concat") and len(args) == 1:
                return E(sc(z3.Concat(q, _s(args[0].v))), d)
            if n == "first" and not args:
                return E(sc(q[0]), z3.And(d, ln > 0))
            if n == "last" and not args:
                return E(sc(q[ln - 1]), z3.And(d, ln > 0))
            if n == "drop_last" and not args:
                return E(sc(z3.Extract(q, 0, ln - 1)), z3.And(d, ln > 0))
            if n == "drop_first" and not args:
                return E(sc(z3.Extract(q, 1, ln - 1)), z3.And(d, ln > 0))
            if n == "contains" and len(args) == 1:
                x = args[0].v
                if not isinstance(x, Scalar):
                    raise Unsupported("contains of a compound value")
                return E(sc(z3.Contains(q, z3.Unit(x.term))), d)
            if n == "update" and len(args) == 2:
                k, x = _i(args[0].v), args[1].v
                if not isinstance(x, Scalar):
                    raise Unsupported("a sequence of compound values")
                return E(sc(z3.Concat(z3.Extract(q, 0, k), z3.Unit(x.term),
                                      z3.Extract(q, k + 1, ln - k - 1))),
                         z3.And(d, k >= 0, k < ln))
            if n == "remove" and len(args) == 1:
                k = _i(args[0].v)
                return E(sc(z3.Concat(z3.Extract(q, 0, k), z3.Extract(q, k + 1, ln - k - 1))),
                         z3.And(d, k >= 0, k < ln))
            if n in ("is_prefix_of",) and len(args) == 1:
                return E(sc(z3.PrefixOf(q, _s(args[0].v))), d)
            if n in ("is_suffix_of",) and len(args) == 1:
                return E(sc(z3.SuffixOf(q, _s(args[0].v))), d)
            raise Unsupported(f"Seq::{n} (line {e.line})")
        fn = self.fns.get(n)
        if fn is not None and fn.has_self:
            return self.call(fn, [r, *args], e.line)
        raise Unsupported(f"method {n} (line {e.line})")

    # ------------------------------------------------------------------ sets, multisets
    def collection_method(self, c: _Coll, n: str, args: list[E], d: Any, line: int) -> E:
        """A set's or multiset's method as Z3 arrays (a set: element -> member; a multiset:
        element -> count); ``len`` only where the size is known (a task's value, or a
        sequence's ``to_multiset``): a set's cardinality is not encoded."""
        def elem(x: E) -> Any:
            return _i(x.v)

        def other(x: E) -> _Coll:
            o = _coll(x.v)
            if o.kind != c.kind:
                raise Unsupported(f"a {c.kind} with a {o.kind} (line {line})")
            return o

        if n == "len" and not args:
            if c.length is None:
                raise Unsupported(f"the size of a computed {c.kind} (line {line})")
            return E(sc(c.length), d)
        if c.kind == "set":
            if n == "contains" and len(args) == 1:
                return E(sc(z3.Select(c.arr, elem(args[0]))), d)
            if n == "is_empty" and not args:
                k = z3.FreshInt("k")
                return E(sc(z3.ForAll([k], z3.Not(z3.Select(c.arr, k)))), d)
            if n == "insert" and len(args) == 1:
                return E(_Coll(INT, "set", z3.Store(c.arr, elem(args[0]), True)), d)
            if n == "remove" and len(args) == 1:
                return E(_Coll(INT, "set", z3.Store(c.arr, elem(args[0]), False)), d)
            if n in ("union", "spec_add") and len(args) == 1:
                return E(_Coll(INT, "set", z3.SetUnion(c.arr, other(args[0]).arr)), d)
            if n == "intersect" and len(args) == 1:
                return E(_Coll(INT, "set", z3.SetIntersect(c.arr, other(args[0]).arr)), d)
            if n in ("difference", "spec_sub") and len(args) == 1:
                return E(_Coll(INT, "set", z3.SetDifference(c.arr, other(args[0]).arr)), d)
            if n == "subset_of" and len(args) == 1:
                return E(sc(z3.IsSubset(c.arr, other(args[0]).arr)), d)
            if n == "disjoint" and len(args) == 1:
                k = z3.FreshInt("k")
                return E(sc(z3.ForAll([k], z3.Not(z3.And(z3.Select(c.arr, k), z3.Select(
                    other(args[0]).arr, k))))), d)
            raise Unsupported(f"Set::{n} (line {line})")
        if n == "count" and len(args) == 1:
            return E(sc(z3.Select(c.arr, elem(args[0]))), d)
        if n == "contains" and len(args) == 1:
            return E(sc(z3.Select(c.arr, elem(args[0])) > 0), d)
        raise Unsupported(f"Multiset::{n} (line {line})")

    # ------------------------------------------------------------------ closures
    def closure(self, c: A.Expr, sorts: list[Any], s: Scope, line: int) -> tuple[list[Any], E]:
        """A closure's parameters (fresh constants of ``sorts``) and its body over them."""
        if not isinstance(c, A.Closure):
            raise Unsupported(f"a function value that is not a closure (line {line})")
        if len(c.params) != len(sorts):
            raise Unsupported(f"a closure of {len(c.params)} parameters where {len(sorts)} "
                              f"are passed (line {line})")
        xs: list[Any] = []
        binds: dict[str, Sym] = {}
        for (pat, _ty), so in zip(c.params, sorts, strict=True):
            if not (isinstance(pat, A.PBind) and pat.sub is None):
                raise Unsupported(f"a closure parameter pattern (line {line})")
            x = self.fresh(f"cl_{pat.name}", so)
            xs.append(x)
            binds[pat.name] = sc(x)
        self.bound += 1  # an unspecified choice inside depends on the parameters
        try:
            body = self.expr(c.body, s.child(**binds))
        finally:
            self.bound -= 1
        if not isinstance(body.v, Scalar):
            raise Unsupported(f"a closure returning a compound value (line {line})")
        return xs, body

    def seq_fold(self, key: str, q: Any, init: Any, params: list[Any], step: Any,
                 step_d: Any) -> tuple[Any, Any]:
        """``q`` folded from the left with ``step`` over ``params`` = (the value so far, the
        element), from ``init``: each element's step unfolded in turn (``Unfolder``), so the
        result is exact for sequences up to the unfolding depth and rests on the
        uninterpreted remainder beyond; defined where every step is."""
        acc, x = params
        free: list[Any] = []
        for c in _consts(step) + _consts(step_d):
            if not any(c.eq(p) for p in params) and not any(c.eq(f) for f in free):
                free.append(c)

        def go(j: Any, cur: Any) -> tuple[Any, Any]:
            if not self.unfold.may_unfold(key):
                (v,), d = self.unfold.remainder(key, [q, j, cur, *free], [cur.sort()])
                return v, d
            with self.unfold.unfolding(key):
                nxt = z3.substitute(step, (acc, cur), (x, q[j]))
                dn = z3.substitute(step_d, (acc, cur), (x, q[j]))
                rest, drest = go(j + 1, nxt)
            stop = j >= z3.Length(q)
            return z3.If(stop, cur, rest), z3.If(stop, T, z3.And(dn, drest))

        return go(z3.IntVal(0), init)

    def closure_call(self, e: A.MethodCall, s: Scope) -> E:
        """``filter``, ``map_values``, ``map``, ``fold_left`` of a sequence, with Z3's own
        sequence folds and maps (defined by Z3, not by an axiom of ours). Each element is
        given to the closure once, so the result is defined where the closure is on every
        element; ``fold_left``'s closure must be defined everywhere (its definedness along
        the fold is not encoded)."""
        r = self.expr(e.recv, s)
        q = _s(r.v)
        es = q.sort().basis()
        n = e.name
        k = z3.FreshInt("k")
        inside = z3.And(k >= 0, k < z3.Length(q))

        def every(xs: list[Any], body: E, at: list[Any]) -> Any:
            return z3.ForAll([k], z3.Implies(inside, z3.substitute(
                body.d, *zip(xs, at, strict=True))))

        if n == "filter" and len(e.args) == 1:
            (x,), p = self.closure(e.args[0], [es], s, e.line)
            key = f"filter!{_digest(e)}"
            acc = self.fresh("acc", q.sort())
            v, dv = self.seq_fold(key, q, z3.Empty(q.sort()), [acc, x], z3.If(
                _b(p.v), z3.Concat(acc, z3.Unit(x)), acc), p.d)
            return E(sc(v), z3.And(r.d, dv))
        if n == "map_values" and len(e.args) == 1:
            (x,), f = self.closure(e.args[0], [es], s, e.line)
            return E(sc(z3.SeqMap(z3.Lambda([x], f.v.term), q)),
                     z3.And(r.d, every([x], f, [q[k]])))
        if n == "map" and len(e.args) == 1:
            (i, x), f = self.closure(e.args[0], [z3.IntSort(), es], s, e.line)
            return E(sc(z3.SeqMapI(z3.Lambda([i, x], f.v.term), z3.IntVal(0), q)),
                     z3.And(r.d, every([i, x], f, [k, q[k]])))
        if n == "fold_left" and len(e.args) == 2:
            init = self.expr(e.args[0], s)
            if not isinstance(init.v, Scalar):
                raise Unsupported(f"fold_left of a compound value (line {e.line})")
            (acc, x), f = self.closure(e.args[1], [init.v.term.sort(), es], s, e.line)
            if f.v.term.sort() != init.v.term.sort():
                raise Unsupported(f"fold_left changing the value's sort (line {e.line})")
            v, dv = self.seq_fold(f"fold!{_digest(e)}", q, init.v.term, [acc, x], f.v.term,
                                  f.d)
            return E(sc(v), z3.And(r.d, init.d, dv))
        raise Unsupported(f"Seq::{n} with a closure (line {e.line})")

    def e_Call(self, e: A.Call, s: Scope) -> E:
        if not isinstance(e.func, A.Path):
            raise Unsupported(f"call of a computed function (line {e.line})")
        segs = e.func.segs
        args = [self.expr(a, s) for a in e.args]
        if segs[-1] == "Some" and len(args) == 1:
            return E(Opt(INT, T, args[0].v), args[0].d)
        if segs in (("Seq", "empty"),) and not args:
            return E(sc(z3.Empty(z3.SeqSort(z3.IntSort()))))
        fn = self.fns.get(segs[-1]) if len(segs) == 1 else None
        if fn is None:
            raise Unsupported(f"call of {'::'.join(segs)} (line {e.line})")
        return self.call(fn, [a.v for a in args], e.line, z3.And(*[a.d for a in args]))

    def call(self, fn: A.FnItem, args: list[Sym], line: int, d: Any = T) -> E:
        if fn.body is None or uninterpreted(fn) or fn.generics:
            raise Unsupported(f"spec fn {fn.name} without a body Verus reads "
                              "(none, or #[verifier::external_body]) or with generics")
        if self._recursive(fn):
            return self.call_rec(fn, args, line, d)
        if self.depth >= MAX_INLINE:
            raise Unsupported("spec fn calls nested too deeply")
        self.depth += 1
        try:
            r = self.expr(fn.body, Scope({p.name: a for p, a in zip(fn.params, args,
                                                                      strict=True)}))
        finally:
            self.depth -= 1
        return E(r.v, z3.And(d, r.d))

    def forget_calls(self) -> None:
        """Start a predicate afresh: no call encoded for another one is reused."""
        self._calls.clear()

    def named(self, a: Sym) -> Sym:
        """An integer argument of an unfolded call as a fresh constant equal to it (a
        definition: always satisfiable, so nothing is assumed), so the next level's terms
        name it instead of repeating its whole expression; not under a binder, where the
        argument depends on the bound variable."""
        if self.bound or not (isinstance(a, Scalar) and z3.is_int(a.term)):
            return a
        t = z3.simplify(a.term)
        if z3.is_int_value(t) or z3.is_const(t):
            return Scalar(a.ty, t)
        import hashlib
        # named by its text: the same argument in two specs (a shared helper) is one constant
        c = z3.Int("arg!" + hashlib.sha256(t.sexpr().encode()).hexdigest()[:16])
        self.axioms.append(c == t)
        return Scalar(a.ty, c)

    def _recursive(self, fn: A.FnItem) -> bool:
        """Whether ``fn`` reaches itself through the spec fns it calls."""
        if fn.name in self._rec_memo:
            return self._rec_memo[fn.name]
        self._rec_memo[fn.name] = got = self._reaches_itself(fn)
        return got

    def _reaches_itself(self, fn: A.FnItem) -> bool:
        seen: set[str] = set()
        todo = [fn.name]
        while todo:
            f = self.fns.get(todo.pop())
            if f is None or f.body is None or uninterpreted(f):
                continue
            for c in _called(f.body):
                if c == fn.name:
                    return True
                if c not in seen:
                    seen.add(c)
                    todo.append(c)
        return False

    def fn_hash(self, fn: A.FnItem) -> str:
        if fn.name in self._hash_memo:
            return self._hash_memo[fn.name]
        self._hash_memo[fn.name] = h = self._fn_hash(fn)
        return h

    def _fn_hash(self, fn: A.FnItem) -> str:
        import hashlib
        seen = {fn.name}
        todo = [fn]
        texts = []
        while todo:
            f = todo.pop()
            texts.append(f.text)
            for c in sorted(_called(f.body) if f.body is not None else ()):
                g = self.fns.get(c)
                if g is not None and c not in seen:
                    seen.add(c)
                    todo.append(g)
        return hashlib.sha256("\x1f".join(sorted(texts)).encode()).hexdigest()[:16]

    def call_rec(self, fn: A.FnItem, args: list[Sym], line: int, d: Any) -> E:
        """A recursive spec fn: its body inlined up to the unfolding's depth, past it the
        remainder (``Unfolder``): never a recursive definition, whose termination nothing
        here proves (a non-terminating one would let the solver prove anything)."""
        key = f"{fn.name}!{self.fn_hash(fn)}"
        args = [self.named(a) for a in args]
        try:
            memo = (key, tuple(t.get_id() for a in args for t in smt_terms.leaf_terms(a)))
        except Unsupported:
            memo = None
        if memo is not None and memo in self._calls:
            # the same call again (both branches of a step call it on the same arguments):
            # one encoding, so an unfolding grows with its depth, not 2^depth
            r = self._calls[memo]
            return E(r.v, z3.And(d, r.d))
        if self.unfold.may_unfold(key):
            assert fn.body is not None
            with self.unfold.unfolding(key):
                r = self.expr(fn.body, Scope({p.name: a for p, a in zip(fn.params, args,
                                                                          strict=True)}))
            if memo is not None and not self.bound:
                self._calls[memo] = r
            return E(r.v, z3.And(d, r.d))
        terms = [t for a in args for t in smt_terms.leaf_terms(a)]
        ty = fn.ret_type
        sort = sort_of_ref(ty)
        (v,), dv = self.unfold.remainder(key, terms, [sort])
        if z3.is_bool(v):
            out: Sym = Scalar(BOOL, v)
        elif z3.is_int(v):
            out = Scalar(INT, v)
            assert ty is not None
            dv = z3.And(dv, type_range(ty.name, v))
        else:
            out = sc(v)
        return E(out, z3.And(d, dv))

    def e_If(self, e: A.If, s: Scope) -> E:
        if e.let_pat is not None:
            r = self.expr(e.cond, s)
            cond, binds = self.pattern(e.let_pat, r.v)
            th = self.expr(e.then, s.child(**binds))
            el = self.expr(e.els, s) if e.els is not None else E(sc(T))
            return self.ite(cond, r.d, th, el, e.line)
        c, dc = self.bexpr(e.cond, s)
        if e.els is None:
            raise Unsupported(f"if without else (line {e.line})")
        # a condition known here (a case's values are literals) takes its branch alone: the
        # same value and definedness, and an unfolded recursion stops at its base case
        known, kd = z3.simplify(c), z3.simplify(dc)
        if z3.is_true(kd) and (z3.is_true(known) or z3.is_false(known)):
            return self.expr(e.then if z3.is_true(known) else e.els, s)
        th = self.expr(e.then, s)
        el = self.expr(e.els, s)
        return self.ite(c, dc, th, el, e.line)

    def ite(self, c: Any, dc: Any, th: E, el: E, line: int) -> E:
        return E(self.merge(c, th.v, el.v, line), z3.And(dc, z3.If(c, th.d, el.d)))

    def merge(self, c: Any, a: Sym, b: Sym, line: int) -> Sym:
        if isinstance(a, Scalar) and isinstance(b, Scalar):
            if a.term.sort() != b.term.sort():
                raise Unsupported(f"branches of different sorts (line {line})")
            return Scalar(a.ty, z3.If(c, a.term, b.term))
        if isinstance(a, _NoneVal) and isinstance(b, Opt):
            return Opt(b.ty, z3.And(z3.Not(c), b.some), b.val)
        if isinstance(b, _NoneVal) and isinstance(a, Opt):
            return Opt(a.ty, z3.And(c, a.some), a.val)
        if isinstance(a, Opt) and isinstance(b, Opt):
            return Opt(a.ty, z3.If(c, a.some, b.some), self.merge(c, a.val, b.val, line))
        if isinstance(a, Rec) and isinstance(b, Rec) and a.fields.keys() == b.fields.keys():
            return Rec(a.ty, {k: self.merge(c, a.fields[k], b.fields[k], line)
                              for k in a.fields})
        raise Unsupported(f"branches of different shapes (line {line})")

    def pattern(self, p: A.Pat, v: Sym) -> tuple[Any, dict[str, Sym]]:
        """(when ``p`` matches ``v``, the names it binds)."""
        if isinstance(p, A.PWild):
            return T, {}
        if isinstance(p, A.PBind) and p.sub is None:
            if p.name == "None" and isinstance(v, Opt):
                return z3.Not(v.some), {}
            return T, {p.name: v}
        if isinstance(p, A.PLit):
            if isinstance(v, Scalar) and z3.is_bool(v.term) and isinstance(p.value, bool):
                return v.term == p.value, {}
            if isinstance(v, Scalar) and z3.is_int(v.term) and isinstance(p.value, int):
                return v.term == p.value, {}
            raise Unsupported("a literal pattern of this type")
        if isinstance(p, A.PVariant) and isinstance(v, Opt):
            name = p.path[-1]
            if name == "None" and not p.elems and not p.fields:
                return z3.Not(v.some), {}
            if name == "Some" and p.elems and len(p.elems) == 1:
                c, b = self.pattern(p.elems[0], v.val)
                return z3.And(v.some, c), b
        if isinstance(p, A.POr):
            conds = []
            for alt in p.alts:
                c, b = self.pattern(alt, v)
                if b:
                    raise Unsupported("an or-pattern that binds")
                conds.append(c)
            return z3.Or(*conds), {}
        raise Unsupported(f"pattern {type(p).__name__} (line {p.line})")

    def e_Match(self, e: A.Match, s: Scope) -> E:
        r = self.expr(e.scrut, s)
        arms: list[tuple[Any, E]] = []
        for arm in e.arms:
            c, binds = self.pattern(arm.pat, r.v)
            sub = s.child(**binds)
            if arm.guard is not None:
                g, dg = self.bexpr(arm.guard, sub)
                if not z3.is_true(z3.simplify(dg)):
                    raise Unsupported(f"a match guard that may be undefined (line {arm.line})")
                c = z3.And(c, g)
            arms.append((c, self.expr(arm.body, sub)))
        if not arms:
            raise Unsupported("an empty match")
        # the match is exhaustive (the front end checks it): the last arm needs no condition
        acc = arms[-1][1]
        for c, body in reversed(arms[:-1]):
            acc = E(self.merge(c, body.v, acc.v, e.line), z3.If(c, body.d, acc.d))
        return E(acc.v, z3.And(r.d, acc.d))

    def e_Block(self, e: A.Block, s: Scope) -> E:
        cur = s
        d = T
        for st in e.stmts:
            if isinstance(st, A.Let):
                if st.init is None:
                    raise Unsupported("let without a value")
                r = self.expr(st.init, cur)
                c, binds = self.pattern(st.pat, r.v)
                if not z3.is_true(c):
                    raise Unsupported("a refutable let pattern")
                d = z3.And(d, r.d)
                cur = cur.child(**binds)
            # expression statements (assert) do not change the value
        if e.tail is None:
            raise Unsupported("a block without a value")
        r = self.expr(e.tail, cur)
        return E(r.v, z3.And(d, r.d))

    def e_Quant(self, e: A.Quant, s: Scope) -> E:
        if e.kind in ("forall", "exists"):
            got = self.expand(e, s)
            if got is not None:
                return got
        xs = []
        ranges = []
        binds: dict[str, Sym] = {}
        for name, ty in e.params:
            if ty is None or not (ty.name in WIDTHS or ty.name in ("int", "nat", "char")):
                raise Unsupported(f"quantifier over {ty} (line {e.line})")
            x = self.fresh(f"q_{name}", z3.IntSort())
            xs.append(x)
            ranges.append(type_range(ty.name, x))
            binds[name] = sc(x)
        sub = s.child(**binds)
        self.bound += 1
        try:
            body = self.expr(e.body, sub)
        finally:
            self.bound -= 1
        rng = z3.And(*ranges)
        if e.kind == "choose":
            if self.bound or len(xs) != 1:
                raise Unsupported(f"choose under a binder or of several values (line {e.line})")
            p, dp = _b(body.v), body.d
            c = self.fresh("choose", z3.IntSort())
            pc = z3.substitute(p, (xs[0], c))
            self.axioms.append(z3.Implies(z3.Exists(xs, z3.And(rng, p)),
                                          z3.And(z3.substitute(rng, (xs[0], c)), pc)))
            y = self.fresh("q_other", z3.IntSort())
            py = z3.substitute(z3.And(rng, p, dp), (xs[0], y))
            unique = z3.And(z3.substitute(z3.And(rng, dp), (xs[0], c)), pc,
                            z3.ForAll([y], z3.Implies(py, y == c)),
                            z3.ForAll(xs, z3.Implies(rng, dp)))
            return E(sc(c), unique)
        p, dp = _b(body.v), body.d
        if e.kind == "forall":
            v = z3.ForAll(xs, z3.Implies(rng, p))
            d = z3.Or(z3.Exists(xs, z3.And(rng, dp, z3.Not(p))),
                      z3.ForAll(xs, z3.Implies(rng, dp)))
            return E(sc(v), d)
        if e.kind == "exists":
            v = z3.Exists(xs, z3.And(rng, p))
            d = z3.Or(z3.Exists(xs, z3.And(rng, dp, p)), z3.ForAll(xs, z3.Implies(rng, dp)))
            return E(sc(v), d)
        raise Unsupported(f"{e.kind} (line {e.line})")

    def expand(self, e: A.Quant, s: Scope) -> E | None:
        """A quantifier whose binders the guard bounds by values the encoding knows as
        numbers (a case's input, fixed), as the finite conjunction (``forall``) or
        disjunction (``exists``) of its instances, with the same three-valued rules: outside
        the bounds the guard is false and defined, so those instances cannot change the
        value or the definedness. Solvers decide such formulas at once, where the quantified
        form over a concrete sequence can time out. None where it does not apply."""
        names = [n for n, _ in e.params]
        types = [t for _, t in e.params]
        if any(t is None or not (t.name in WIDTHS or t.name in ("int", "nat")) for t in types):
            return None
        source = e.body.l if (e.kind == "forall" and isinstance(e.body, A.Binary)
                              and e.body.op == "==>") else e.body
        if e.kind == "exists" and not (isinstance(e.body, A.Binary) and e.body.op in ("&&",
                                                                                     "&&&")
                                       or isinstance(e.body, A.Chain)):
            return None
        ranges: list[range] = []
        for name, ty in zip(names, types, strict=True):
            lo, hi = _guard_bounds(source, name, set(names))
            assert ty is not None
            tlo, thi = _type_bounds(ty.name)
            los = [v for v in (self._number(x, s, adj) for x, adj in lo) if v is not None]
            his = [v for v in (self._number(x, s, adj) for x, adj in hi) if v is not None]
            if tlo is not None:
                los.append(tlo)
            if thi is not None:
                his.append(thi)
            if not los or not his:
                return None
            lo_v, hi_v = max(los), min(his)
            if hi_v - lo_v + 1 > EXPAND_LIMIT:
                return None
            ranges.append(range(lo_v, max(lo_v, hi_v + 1)))
        count = 1
        for r in ranges:
            count *= len(r)
        if count > EXPAND_LIMIT:
            return None
        vals: list[Any] = []
        defs: list[Any] = []
        for point in _product(ranges):
            sub = s.child(**{n: sc(z3.IntVal(v)) for n, v in zip(names, point, strict=True)})
            self.bound += 1
            try:
                r = self.expr(e.body, sub)
            finally:
                self.bound -= 1
            vals.append(_b(r.v))
            defs.append(r.d)
        if e.kind == "forall":
            v = z3.And(*vals) if vals else T
            d = z3.Or(z3.Or(*[z3.And(dk, z3.Not(vk)) for vk, dk in zip(vals, defs,
                                                                       strict=True)]),
                      z3.And(*defs)) if vals else T
        else:
            v = z3.Or(*vals) if vals else z3.BoolVal(False)
            d = z3.Or(z3.Or(*[z3.And(dk, vk) for vk, dk in zip(vals, defs, strict=True)]),
                      z3.And(*defs)) if vals else T
        return E(sc(v), d)

    def _number(self, x: A.Expr, s: Scope, adj: int) -> int | None:
        """``x + adj`` when it is a defined number here (else None)."""
        try:
            r = self.expr(x, s)
        except Unsupported:
            return None
        if not (isinstance(r.v, Scalar) and z3.is_int(r.v.term)):
            return None
        v, d = z3.simplify(r.v.term), z3.simplify(r.d)
        if not (z3.is_int_value(v) and z3.is_true(d)):
            return None
        return v.as_long() + adj

    def e_MacroCall(self, e: A.MacroCall, s: Scope) -> E:
        if e.name != "seq":
            raise Unsupported(f"{e.name}! (line {e.line})")
        items = [self.expr(a, s) for a in e.args]
        if not items:
            raise Unsupported("an empty seq! literal (element type unknown)")
        terms = []
        for it in items:
            if not isinstance(it.v, Scalar):
                raise Unsupported("a sequence of compound values")
            terms.append(it.v.term)
        units = [z3.Unit(t) for t in terms]
        return E(sc(units[0] if len(units) == 1 else z3.Concat(*units)),
                 z3.And(*[i.d for i in items]))

    def e_Tuple(self, e: A.Tuple, s: Scope) -> E:
        if len(e.elems) == 1:
            return self.expr(e.elems[0], s)
        raise Unsupported(f"tuple expressions (line {e.line})")


EXPAND_LIMIT = 256
"""Most instances a quantifier over known bounds is expanded into."""


def _type_bounds(name: str) -> tuple[int | None, int | None]:
    if name in WIDTHS:
        bits, signed = WIDTHS[name]
        return ((-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1))
    return (0, None) if name == "nat" else (None, None)


def _conjuncts(e: A.Expr) -> list[tuple[str, A.Expr, A.Expr]]:
    """The comparisons ``(op, left, right)`` a guard is a conjunction of."""
    if isinstance(e, A.Binary) and e.op in ("&&", "&&&"):
        return _conjuncts(e.l) + _conjuncts(e.r)
    if isinstance(e, A.Chain):
        return [(op, e.operands[k], e.operands[k + 1]) for k, op in enumerate(e.ops)]
    if isinstance(e, A.Binary) and e.op in ("<", "<=", ">", ">=", "=="):
        return [(e.op, e.l, e.r)]
    return []


def _guard_bounds(guard: A.Expr, name: str, binders: set[str]
                  ) -> tuple[list[tuple[A.Expr, int]], list[tuple[A.Expr, int]]]:
    """Inclusive lower and upper bounds of ``name`` the guard's conjuncts state, each an
    expression free of the quantifier's binders and an adjustment."""
    lo: list[tuple[A.Expr, int]] = []
    hi: list[tuple[A.Expr, int]] = []
    flip = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "=="}
    for op, left, right in _conjuncts(guard):
        for v, o, other in ((left, op, right), (right, flip[op], left)):
            if not (isinstance(v, A.Path) and v.segs == (name,)):
                continue
            if _called(other) & binders:
                continue
            if o in (">", ">=", "=="):
                lo.append((other, 1 if o == ">" else 0))
            if o in ("<", "<=", "=="):
                hi.append((other, -1 if o == "<" else 0))
    return lo, hi


def _product(ranges: list[range]) -> list[tuple[int, ...]]:
    out: list[tuple[int, ...]] = [()]
    for r in ranges:
        out = [p + (v,) for p in out for v in r]
    return out


def _called(body: A.Expr) -> set[str]:
    out: set[str] = set()
    stack: list[Any] = [body]
    while stack:
        x = stack.pop()
        if isinstance(x, A.Call) and isinstance(x.func, A.Path) and len(x.func.segs) == 1:
            out.add(x.func.segs[0])
        if isinstance(x, A.MethodCall):
            out.add(x.name)
        if isinstance(x, A.Path) and len(x.segs) == 1:
            out.add(x.segs[0])
        stack.extend(A.children(x))
    return out


_UNUSED = (Null, StringType)
