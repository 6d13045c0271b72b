"""Quantifiers and ``choose``: derive each variable's finite range from the guard, then enumerate.

Verus quantifiers range over whole types; a concrete evaluation is exact only when the guard
confines every variable to a finite set. The guard is split into conjuncts; a conjunct
``lo <= x``, ``x < hi``, ``x == e`` or ``coll.contains(x)`` whose other side mentions only
variables already placed bounds ``x``. Variables are ordered so that each one's bounds mention
only earlier ones (``0 <= i < j < n`` places ``i`` via the derived bound ``i < n``); conjuncts
not consumed as exact bounds stay as per-instance filters. A variable that cannot be bounded
(and whose type is not small) makes the quantifier ``unknown``, never a guess.

Every produced value is filtered against the variable's type domain (``nat`` is ``>= 0``,
``u8`` is ``0..=255``, a ``char`` is a Unicode scalar value): ``exists|k: nat| k == a - 1``
with ``a == 0`` has no instance at all, although the guard alone would offer ``-1``. A cast
on the variable (``k as int == e``) is looked through only where it is injective on the
domain, and its conjunct is kept as a per-instance filter as well.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from adequacy.plugin import INT_WIDTHS

from ..syntax import ast as A
from .builtins import HASH, work
from .fastloop import Deopt, FastLoop, lower_quant
from .ordering import ordered
from .runtime import Scope, truth
from .values import Abort, MSet, Tup, Undef, show

MAX_TYPE_DOMAIN = 1 << 16
MAX_SPLIT = 1024
"""Most quantifiers a program's disjunctive guards may be split into; past it a quantifier
that needs a split is unbounded (unknown), not a compile-time blow-up."""
MAX_CHAR = 0x10FFFF
REL = {"<", "<=", ">", ">=", "=="}
FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "=="}


@dataclass
class Cand:
    var: str
    kind: str
    """lo | hi | eq | mem"""
    expr: A.Expr
    strict: bool
    conj: int
    """index of the conjunct it came from (-1: derived)"""
    mem: str = ""
    """for kind mem: 'seq' | 'set' | 'dom' (how to iterate)"""
    deps: set[str] = field(default_factory=set)
    cast: str = ""
    """cast looked through on the variable ('' | 'int' | 'nat' | 'view')"""


def conjuncts(e: A.Expr) -> list[A.Expr]:
    """Flatten ``&&`` and chained comparisons into simple conjuncts."""
    out: list[A.Expr] = []
    stack = [e]
    while stack:  # no recursion per conjunct: guards may be 10,000 terms long
        x = stack.pop()
        if isinstance(x, A.Binary) and x.op == "&&":
            stack += (x.r, x.l)
        elif isinstance(x, A.Chain):
            out += [A.Binary(x.line, op, x.operands[k], x.operands[k + 1])
                    for k, op in enumerate(x.ops)]
        else:
            out.append(x)
    return out


def free_names(e: object, out: set[str] | None = None) -> set[str]:
    """Single-segment path names in ``e`` (an over-approximation of its free variables)."""
    out = set() if out is None else out
    stack = [e]
    while stack:
        x = stack.pop()
        if isinstance(x, A.Path):
            if len(x.segs) == 1:
                out.add(x.segs[0])
            continue
        stack.extend(A.children(x))
    return out


Types = dict[str, "A.TypeRef | None"]


def type_class(ty: A.TypeRef | None) -> str:
    """'int' (int, nat, fixed width) | 'char' | 'bool' | 'untyped' | 'other'."""
    if ty is None:
        return "untyped"
    if ty.name in ("int", "nat") or ty.name in INT_WIDTHS:
        return "int"
    if ty.name in ("char", "bool"):
        return ty.name
    return "other"


def _cast_ok(ty: A.TypeRef | None, cast: str) -> bool:
    """Whether ``x as cast`` is injective on x's type, so a bound on it bounds x."""
    if cast == "view":
        return True
    cls = type_class(ty)
    if cls == "untyped":
        return True  # no type to check against; the kept conjunct filters each instance
    if cls == "char":
        return True  # `c as int` / `c as nat` is the scalar value, converted back by chr
    if cls != "int" or ty is None:
        return False
    if cast == "int":
        return True
    lo, _ = _type_bounds(ty)
    return lo is not None and lo >= 0  # `x as nat` is unspecified for negative x


def _var_of(e: A.Expr, names: set[str], types: Types | None = None
            ) -> tuple[str, str] | None:
    """``(variable, cast)`` when ``e`` is a bound variable, possibly behind lossless casts;
    ``cast`` is the numeric cast nearest the variable ('' when none)."""
    casts: list[str] = []
    while isinstance(e, A.Cast) and e.ty.name in ("int", "nat") or isinstance(e, A.View):
        casts.append(e.ty.name if isinstance(e, A.Cast) else "view")
        e = e.e
    if isinstance(e, A.Path) and len(e.segs) == 1 and e.segs[0] in names:
        v = e.segs[0]
        if types is not None and not all(_cast_ok(types.get(v), c) for c in casts):
            return None
        return v, next((c for c in reversed(casts) if c != "view"), "view" if casts else "")
    return None


def candidates(conjs: list[A.Expr], names: set[str], types: Types | None = None
               ) -> list[Cand]:
    types = types or {}
    out: list[Cand] = []
    for k, c in enumerate(conjs):
        if isinstance(c, A.Binary) and c.op in REL:
            for side, other, op in ((c.l, c.r, c.op), (c.r, c.l, FLIP[c.op])):
                vc = _var_of(side, names, types)
                if vc is None:
                    continue
                v, cast = vc
                deps = free_names(other) & names
                if v in deps:
                    continue
                if op == "==":
                    out.append(Cand(v, "eq", other, False, k, deps=deps, cast=cast))
                elif type_class(types.get(v)) not in ("int", "char", "untyped"):
                    continue  # an order bound on a bool, Seq, struct...: not an int range
                elif op in ("<", "<="):
                    out.append(Cand(v, "hi", other, op == "<", k, deps=deps, cast=cast))
                else:
                    out.append(Cand(v, "lo", other, op == ">", k, deps=deps, cast=cast))
        elif isinstance(c, A.MethodCall) and len(c.args) == 1:
            vc = _var_of(c.args[0], names, types)
            if vc is None:
                continue
            v, cast = vc
            coll: A.Expr | None = None
            how = ""
            if c.name in ("contains", "spec_has"):
                coll, how = c.recv, "coll"
                if isinstance(c.recv, A.MethodCall) and c.recv.name == "dom" and not c.recv.args:
                    coll, how = c.recv.recv, "dom"
            elif c.name == "contains_key":
                coll, how = c.recv, "dom"
            if coll is not None:
                deps = free_names(coll) & names
                if v not in deps:
                    out.append(Cand(v, "mem", coll, False, k, mem=how, deps=deps,
                                    cast=cast))
    return out


def _derive(cands: list[Cand], var: str, kind: str, placed: set[str],
            names: set[str], types: Types) -> list[Cand]:
    """Transitive bounds: ``v < w`` and ``w < e`` give ``v < e`` (a looser, derived bound)."""
    out: list[Cand] = []
    for c in cands:
        if c.var != var or c.kind not in (kind, "eq"):
            continue
        wc = _var_of(c.expr, names, types)
        if wc is None or wc[0] == var or wc[0] in placed:
            continue
        w = wc[0]
        for d in cands:
            if d.var == w and d.kind in (kind, "eq") and var not in d.deps \
                    and d.deps <= placed:
                out.append(Cand(var, kind, d.expr, c.strict or d.strict, -1, deps=set(d.deps)))
    return out


@dataclass
class Plan:
    order: list[str]
    ranges: dict[str, list[Cand]]
    consumed: set[int]
    unbounded: str | None = None


def plan(params: list[tuple[str, A.TypeRef | None]], conjs: list[A.Expr]) -> Plan:
    names = {n for n, _ in params}
    types = dict(params)
    cands = candidates(conjs, names, types)
    placed: set[str] = set()
    order: list[str] = []
    ranges: dict[str, list[Cand]] = {}
    consumed: set[int] = set()
    extra: list[Cand] = []
    remaining = [n for n, _ in params]
    rounds = 0
    while remaining:
        rounds += 1
        progress = False
        for v in remaining:
            usable = [c for c in cands + extra if c.var == v and c.deps <= placed]
            mems = [c for c in usable if c.kind == "mem"]
            eqs = [c for c in usable if c.kind == "eq"]
            los = [c for c in usable if c.kind == "lo"]
            his = [c for c in usable if c.kind == "hi"]
            ty = types.get(v)
            small = _small_type(ty)
            if eqs or mems or (los and his) or small is not None or (
                    (los or his) and ty is not None and _bounded_side(ty, bool(los), bool(his))):
                chosen: list[Cand]
                if eqs:
                    chosen = [eqs[0]] + los + his
                elif mems:
                    chosen = [mems[0]] + los + his + eqs
                else:
                    chosen = los + his
                ranges[v] = chosen
                for c in chosen:
                    if c.conj >= 0 and not c.cast:
                        consumed.add(c.conj)
                order.append(v)
                placed.add(v)
                remaining.remove(v)
                progress = True
                break
        if not progress:
            new: list[Cand] = []
            for v in remaining:
                for kind in ("lo", "hi"):
                    new += _derive(cands + extra, v, kind, placed, names, types)
            key = {(id(c.expr), c.var, c.kind) for c in extra}
            new = [c for c in new if (id(c.expr), c.var, c.kind) not in key]
            if not new or rounds > 50:
                return Plan(order, ranges, consumed, unbounded=remaining[0])
            extra += new
    return Plan(order, ranges, consumed)


def _small_type(ty: A.TypeRef | None) -> tuple[int, int] | None:
    if ty is None:
        return None
    if ty.name == "bool":
        return (0, 1)
    if ty.name in INT_WIDTHS:
        bits, signed = INT_WIDTHS[ty.name]
        if (1 << bits) <= MAX_TYPE_DOMAIN:
            return (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
    return None


def _type_bounds(ty: A.TypeRef | None) -> tuple[int | None, int | None]:
    if ty is None:
        return (None, None)
    if ty.name == "nat":
        return (0, None)
    if ty.name == "char":
        return (0, MAX_CHAR)
    if ty.name in INT_WIDTHS:
        bits, signed = INT_WIDTHS[ty.name]
        return ((-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed
                else (0, (1 << bits) - 1))
    return (None, None)


def _bounded_side(ty: A.TypeRef, has_lo: bool, has_hi: bool) -> bool:
    lo, hi = _type_bounds(ty)
    if has_hi and lo is not None:
        return True
    return has_lo and hi is not None and False  # an upper type bound alone is too wide


def _disjuncts(e: A.Expr) -> list[A.Expr]:
    out: list[A.Expr] = []
    stack = [e]
    while stack:
        x = stack.pop()
        if isinstance(x, A.Binary) and x.op == "||":
            stack += (x.r, x.l)
        else:
            out.append(x)
    return out


def _negated_guard(body: A.Expr | None) -> tuple[A.Expr, A.Expr] | None:
    """``!(g) || b`` as ``(g, b)``: the guide's desugaring of ``g ==> b`` (reference-
    spec-operators: ``forall|i| 0 <= i < n ==> f(i)`` is ``!(0 <= i && i < n) || f(i)``)."""
    if body is None:
        return None
    parts = _disjuncts(body)
    if len(parts) < 2 or not (isinstance(parts[0], A.Unary) and parts[0].op == "!"):
        return None
    rest = parts[1]
    for p in parts[2:]:
        rest = A.Binary(p.line, "||", rest, p)
    return parts[0].e, rest


def compile_quant(prog: Any, e: A.Quant, sc: Scope) -> Callable[[list[Any]], Any]:
    """Compile a quantifier (or ``choose``) of ``prog`` (the calling ``compiler.Program``,
    duck-typed: this module sits below it) in scope ``sc``."""

    inner = sc.child()
    slots = {n: inner.bind(n, t) for n, t in e.params}
    line = e.line
    kind = e.kind
    # split guard and body
    if kind == "forall":
        guard_parts: list[A.Expr] = []
        body: A.Expr | None = e.body
        while True:
            if isinstance(body, A.Binary) and body.op == "==>":
                guard_parts += conjuncts(body.l)
                body = body.r
                continue
            negated = _negated_guard(body)
            if negated is None:
                break
            guard, body = negated
            guard_parts += conjuncts(guard)
        conjs = guard_parts
    else:
        conjs = conjuncts(e.body)
        body = None
    pl = plan(e.params, conjs)
    if pl.unbounded is not None and kind != "choose":
        split = _split_disjunctive_guard(prog, e, conjs, body)
        if split is not None:
            return prog.expr(split, sc)
    if pl.unbounded is not None:
        what = "choose" if kind == "choose" else "quantifier"
        msg = (f"unbounded {what} at line {line}: cannot derive a finite range for "
               f"{pl.unbounded!r} from the guard")
        prog.unsupported.append((msg, line))

        def unbounded(fr: list[Any]) -> Any:
            raise Undef(msg)
        return unbounded
    residual = [c for k, c in enumerate(conjs) if k not in pl.consumed]
    res_code = [prog.expr(c, inner) for c in residual]
    body_code = prog.expr(body, inner) if body is not None else None
    types = dict(e.params)

    # range producers, per variable in order
    producers: list[tuple[int, Callable[[list[Any]], Any]]] = []
    for v in pl.order:
        producers.append((slots[v], _producer(prog, pl.ranges[v], types.get(v), inner, line)))

    def instance(fr: list[Any]) -> Any:
        """Value of one instance: forall -> guard ==> body, exists/choose -> guard && body."""
        undef: Undef | None = None
        for rc in res_code:
            try:
                g = rc(fr)
            except Undef as u:
                undef = undef or u
                continue
            if not truth(g, line):
                return kind == "forall"
        if kind == "forall":
            if body_code is None:
                return True
            try:
                b = body_code(fr)
            except Undef:
                if undef is not None:
                    raise undef from None
                raise
            if truth(b, line):
                return True
            if undef is not None:
                raise undef
            return False
        if undef is not None:
            raise undef
        return True

    nvars = len(producers)
    fl = None
    if nvars in (1, 2) and kind in ("forall", "exists") and all(
            _int_range(pl.ranges[v], types.get(v)) for v in pl.order):
        fl = lower_quant(prog, kind, tuple(p[0] for p in producers), residual, body, inner,
                         producers[1][1] if nvars == 2 else None)
    if fl is None:
        return _generic(prog, e, kind, line, producers, res_code, body_code, instance, slots)
    return _with_fast_loop(fl, prog, e, kind, line, producers, res_code, body_code, instance,
                           slots)


LOWER_AT = 256
"""A quantifier's fast loop is compiled when it first meets a range this long."""


def _with_fast_loop(fl: FastLoop, prog: Any, e: A.Quant, kind: str, line: int,
                    producers: list[tuple[int, Callable[[list[Any]], Any]]],
                    res_code: list[Callable[[list[Any]], Any]],
                    body_code: Callable[[list[Any]], Any] | None,
                    instance: Callable[[list[Any]], Any], slots: dict[str, int]
                    ) -> Callable[[list[Any]], Any]:
    """The fast loop where it applies, else (and after a ``Deopt``) the closures, which get
    the range already computed: its bounds are evaluated once either way."""
    slot0, prod0 = producers[0]
    nvars = len(producers)
    given: list[Any] = [None]

    def prod_given(fr: list[Any]) -> Any:
        # the generic code asks for the range first thing, before any spec code runs
        r = given[0]
        if r is None:
            return prod0(fr)
        given[0] = None
        return r
    generic = _generic(prog, e, kind, line, [(slot0, prod_given)] + producers[1:], res_code,
                       body_code, instance, slots)
    box: list[Any] = [None, False]
    """[the compiled loop or None, whether compiling it was tried]"""

    def quant_fast(fr: list[Any]) -> Any:
        rng = prod0(fr)
        f = box[0]
        if f is None and not box[1] and type(rng) is range and (
                rng.stop - rng.start) * (1 if nvars == 1 else 8) >= LOWER_AT:
            box[1] = True
            f = box[0] = fl.build()
        if f is not None and type(rng) is range:
            try:
                return f(fr, rng)
            except Deopt:
                pass
        given[0] = rng
        return generic(fr)
    return quant_fast


def _int_range(cands: list[Cand], ty: A.TypeRef | None) -> bool:
    """Whether the variable's producer is ``ints`` (a ``range``), which the fast loop takes."""
    if any(c.kind in ("eq", "mem") for c in cands):
        return False
    return type_class(ty) in ("int", "untyped")


def _generic(prog: Any, e: A.Quant, kind: str, line: int,
             producers: list[tuple[int, Callable[[list[Any]], Any]]],
             res_code: list[Callable[[list[Any]], Any]],
             body_code: Callable[[list[Any]], Any] | None,
             instance: Callable[[list[Any]], Any], slots: dict[str, int]
             ) -> Callable[[list[Any]], Any]:
    """The closures' evaluation: exact three-valued meaning, per instance."""
    budget_owner = prog
    nvars = len(producers)
    if kind == "forall" and nvars == 1 and not res_code and body_code is not None:
        slot0, prod0 = producers[0]
        bc = body_code

        def forall1(fr: list[Any]) -> Any:
            b = budget_owner.budget
            seen: Undef | None = None
            count = 0
            for x in prod0(fr):
                fr[slot0] = x
                count += 1
                if count & 4095 == 0:
                    b.tick(4096)
                try:
                    r = bc(fr)
                except Undef as u:
                    seen = seen or u
                    continue
                if r is False:
                    b.steps += count & 4095
                    return False
                if r is not True:
                    truth(r, line)
            b.tick(count & 4095)
            if seen is not None:
                raise Undef(f"forall at line {line} undecided: {seen.reason}")
            return True
        return forall1

    def enumerate_all(fr: list[Any]) -> Any:
        """Generic nested enumeration; yields decisions per instance."""
        b = budget_owner.budget
        seen: list[Undef] = []
        witnesses: list[Any] = []

        def rec(k: int) -> bool | None:
            """Return a decisive verdict to stop early, else None."""
            if k == nvars:
                b.steps += 1
                if b.steps & 1023 == 0:
                    b.tick(0)
                try:
                    r = instance(fr)
                except Undef as u:
                    if not seen:
                        seen.append(u)
                    return None
                if kind == "forall":
                    return False if r is False else None
                if r is True:
                    if kind == "exists":
                        return True
                    witnesses.append(fr[slots[e.params[0][0]]] if len(e.params) == 1 else
                                     tuple(fr[slots[n]] for n, _ in e.params))
                    if len(witnesses) > 1:
                        return False
                return None
            slot, prod = producers[k]
            for x in prod(fr):
                fr[slot] = x
                r2 = rec(k + 1)
                if r2 is not None:
                    return r2
            return None

        try:
            res = rec(0)
        except RecursionError:
            raise Abort("quantifier nesting too deep") from None
        if kind == "forall":
            if res is False:
                return False
            if seen:
                raise Undef(f"forall at line {line} undecided: {seen[0].reason}")
            return True
        if kind == "exists":
            if res is True:
                return True
            if seen:
                raise Undef(f"exists at line {line} undecided: {seen[0].reason}")
            return False
        # choose
        if seen:
            raise Undef(f"choose at line {line} undecided: {seen[0].reason}")
        if not witnesses:
            raise Undef(f"choose at line {line} has no witness (value unspecified)")
        if len(witnesses) > 1:
            raise Undef(f"choose at line {line} has several witnesses (value unspecified)")
        w = witnesses[0]
        return Tup(w) if isinstance(w, tuple) and len(e.params) > 1 else w

    return enumerate_all


_OUT = object()
"""A value offered by the guard that lies outside the variable's type: no instance."""


def _fitter(ty: A.TypeRef | None, cast: str, line: int) -> Callable[[Any], Any] | None:
    """Map a value offered by ``x == e`` / ``coll.contains(x)`` to a value of x's type, or
    ``_OUT`` when no value of the type matches; ``None`` when the type gives no check."""
    cls = type_class(ty)
    tname = ty.name if ty is not None else "?"
    if cls == "int":
        lo, hi = _type_bounds(ty)

        def fit_int(x: Any) -> Any:
            if type(x) is not int:
                raise Undef(f"quantifier variable of type {tname} offered {show(x)}", line)
            if (lo is not None and x < lo) or (hi is not None and x > hi):
                return _OUT
            return x
        return fit_int
    if cls == "char" and cast in ("int", "nat"):
        def fit_code(x: Any) -> Any:
            if type(x) is not int:
                raise Undef(f"quantifier variable of type char offered {show(x)}", line)
            if 0 <= x <= MAX_CHAR and not 0xD800 <= x <= 0xDFFF:
                return chr(x)
            return _OUT  # negative, beyond U+10FFFF or a surrogate: not a char
        return fit_code
    if cls in ("char", "bool"):
        want = str if cls == "char" else bool

        def fit_kind(x: Any) -> Any:
            if type(x) is not want:
                raise Undef(f"quantifier variable of type {tname} offered {show(x)}", line)
            return x
        return fit_kind
    return None


def _members(coll: Any, how: str, line: int) -> list[Any]:
    """Distinct elements (or keys, for ``dom``) of a collection value, in a stable order."""
    if isinstance(coll, (tuple, frozenset, dict, MSet)):
        work(len(coll.counts) if type(coll) is MSet else len(coll), HASH)
    if type(coll) is MSet:
        return ordered(coll.counts)
    if isinstance(coll, dict):
        return ordered(coll.keys())
    if type(coll) is frozenset:
        return ordered(coll)
    if isinstance(coll, tuple) and how != "dom":
        return list(dict.fromkeys(coll))
    raise Undef(f"cannot range over the elements of {show(coll)}", line)


def _producer(prog: Any, cands: list[Cand], ty: A.TypeRef | None, sc: Any,
              line: int) -> Callable[[list[Any]], Any]:
    mem = next((c for c in cands if c.kind == "mem"), None)
    eq = next((c for c in cands if c.kind == "eq"), None)
    los = [(prog.expr(c.expr, sc), c.strict) for c in cands if c.kind == "lo"]
    his = [(prog.expr(c.expr, sc), c.strict) for c in cands if c.kind == "hi"]
    tlo, thi = _type_bounds(ty)
    small = _small_type(ty)
    is_bool = ty is not None and ty.name == "bool"
    is_char = ty is not None and ty.name == "char"

    def as_int(v: Any) -> int:
        if type(v) is int:
            return v
        if type(v) is str and len(v) == 1:
            return ord(v)
        raise Undef(f"quantifier bound {show(v)} is not an integer", line)

    def bounds(fr: list[Any]) -> tuple[int | None, int | None]:
        lo, hi = tlo, thi
        if small is not None:
            lo, hi = small
        for c, strict in los:
            x = as_int(c(fr)) + (1 if strict else 0)
            lo = x if lo is None else max(lo, x)
        for c, strict in his:
            x = as_int(c(fr)) - (1 if strict else 0)
            hi = x if hi is None else min(hi, x)
        return lo, hi

    if eq is not None:
        ec = prog.expr(eq.expr, sc)
        fit = _fitter(ty, eq.cast, line)

        def one(fr: list[Any]) -> Any:
            v = ec(fr)
            if fit is not None:
                v = fit(v)
                if v is _OUT:
                    return ()
            if los or his:
                lo, hi = bounds(fr)
                iv = as_int(v)
                if (lo is not None and iv < lo) or (hi is not None and iv > hi):
                    return ()
            return (v,)
        return one
    if mem is not None:
        cc = prog.expr(mem.expr, sc)
        how = mem.mem
        mfit = _fitter(ty, mem.cast, line)

        def members(fr: list[Any]) -> Any:
            items = _members(cc(fr), how, line)
            if mfit is not None:
                items = [y for y in map(mfit, items) if y is not _OUT]
            if los or his:
                lo, hi = bounds(fr)
                items = [x for x in items if (lo is None or as_int(x) >= lo)
                         and (hi is None or as_int(x) <= hi)]
            return items
        return members
    if is_bool:
        return lambda fr: (False, True)

    def ints(fr: list[Any]) -> Any:
        lo, hi = bounds(fr)
        if lo is None or hi is None:
            raise Undef(f"unbounded quantifier at line {line}")
        if hi < lo:
            return ()
        if is_char:
            return (chr(i) for i in range(max(lo, 0), min(hi, MAX_CHAR) + 1)
                    if not 0xD800 <= i <= 0xDFFF)
        return range(lo, hi + 1)
    return ints


def _split_disjunctive_guard(prog: Any, e: A.Quant, conjs: list[A.Expr],
                             body: A.Expr | None) -> A.Expr | None:
    """``forall|x| (A || B) ==> P`` is ``(forall|x| A ==> P) && (forall|x| B ==> P)``;
    ``exists|x| (A || B) && P`` is ``(exists|x| A && P) || (exists|x| B && P)``."""
    for k, c in enumerate(conjs):
        if isinstance(c, A.Binary) and c.op == "||":
            alts = _disjuncts(c)
            # (A1 || A2) && (B1 || B2) && ... whose alternatives bound nothing would split
            # again and again (2^n quantifiers): the program's splits are capped
            used = getattr(prog, "split_count", 0) + len(alts)
            if used > MAX_SPLIT:
                return None
            prog.split_count = used
            parts = []
            for alt in alts:  # all alternatives at once: no recursion per one
                new = conjs[:k] + [alt] + conjs[k + 1:]
                guard = new[0]
                for x in new[1:]:
                    guard = A.Binary(e.line, "&&", guard, x)
                if e.kind == "forall":
                    inner: A.Expr = A.Binary(e.line, "==>", guard, body) if body else guard
                else:
                    inner = guard
                parts.append(A.Quant(e.line, e.kind, e.params, inner))
            out: A.Expr = parts[0]
            for q in parts[1:]:
                out = A.Binary(e.line, "&&" if e.kind == "forall" else "||", out, q)
            return out
    return None
