"""A quantifier over one or two integer ranges, lowered to plain Python loops (the fast path).

The closure tree costs several Python calls per element (index, field, cast, comparison...),
about 15x a hand-written loop. For the common shape of spec quantifiers (``forall|i| lo <= i
< hi ==> s[i - 1] <= s[i]``, ``exists|j| ... && s[j] == t``) this module writes the loop out
as Python source and compiles it once per quantifier, so an element costs what it would cost
in a hand-written function, plus a type check per element read from a sequence (none for a
Seq ``from_json`` already checked). Integers and chars are handled; everything else stays on
the closures.

Exactness is kept by *deoptimising* rather than by re-implementing the semantics: the
lowered code handles only the case where every value is what the fast code expects (integers,
in-range indices, in-range casts, a tuple where a Seq is read); anything else (an
out-of-range index, a bool where an int was expected, a negative ``as nat``...) raises
``Deopt``, and the quantifier is evaluated again from the start by the generic closures,
which give Verus's exact three-valued meaning. Deopt can cost at most one more evaluation
of the same quantifier, never a different verdict.

Loop-invariant reads (a variable of the enclosing function, its fields) are evaluated once
before the loop, and only when the range is not empty (the generic path would not read them
either); index bounds and casts of ``i + c`` in unconditionally evaluated positions are
checked once for the range's two ends instead of per element. Steps are paid per chunk of
4096 instances before the chunk runs (``Budget.tick``: clock and memory looked at too), so
the step limit stops a runaway quantifier at the same bound as the generic path, to within
one chunk.

The generated source contains only names this module makes up, operators from a fixed
table and integer literals of at most 64 bits: no text of the spec (field names, strings)
reaches it; those stay inside the hoisted closures the generic compiler built.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NoReturn

from adequacy.plugin import INT_WIDTHS

from ..syntax import ast as A
from .runtime import Code, Scope
from .values import Undef, known_int_seq

CHUNK = 4096
"""Instances paid for (and the clock looked at) at once."""
MAX_NODES = 200
"""Larger bodies stay on the generic path (bounds the lowering's recursion, the generated
source's size and its parenthesis nesting, which CPython's parser caps at 200)."""
MAX_DEPTH = 40


class Deopt(Exception):
    """The fast code met a value it does not handle: evaluate generically instead."""


def _deopt() -> NoReturn:
    raise Deopt


_CMP = {"<": "<", "<=": "<=", ">": ">", ">=": ">=", "==": "==", "!=": "!=",
        "===": "==", "!==": "!="}


@dataclass
class Low:
    """A lowered integer expression: its source, and, when it is ``v + off`` for the loop
    variable ``v`` (or a constant), what lets checks on it be hoisted."""

    src: str
    off: int | None = None
    const: int | None = None
    var: int = 0
    """which loop variable ``off`` is relative to (0: outer, 1: inner)"""


@dataclass
class _Lowering:
    prog: Any
    sc: Scope
    var_slots: tuple[int, ...]
    """frame slots of the loop variables, outer first (locals v0, v1 in the loop)"""
    hoists: list[Code] = field(default_factory=list)
    keys: dict[tuple[Any, ...], int] = field(default_factory=dict)
    guards: dict[int, set[str]] = field(default_factory=dict)
    checks: tuple[list[str], list[str]] = field(default_factory=lambda: ([], []))
    """per loop variable: tests of its range ends (lo0/hi0, lo1/hi1) made once per range"""
    ntmp: int = 0
    nodes: int = 0
    trusted: bool = False
    """Lower element reads of Seqs as ints without a type check (the loop variant run when
    ``values.known_int_seq`` vouches for every such Seq)."""
    int_elems: set[int] = field(default_factory=set)
    """Hoisted Seqs whose elements are read as ints."""

    def tmp(self) -> str:
        self.ntmp += 1
        return f"t{self.ntmp}"

    def visit(self, depth: int) -> bool:
        self.nodes += 1
        return self.nodes <= MAX_NODES and depth <= MAX_DEPTH

    # ---------------------------------------------------------------- invariants
    def inv_key(self, e: A.Expr) -> tuple[Any, ...] | None:
        """A key for a loop-invariant read (a local other than the loop variable, a field
        chain over one), or None. Such reads cost nothing and cannot fail in a way the
        generic path would not also meet (a non-struct is deoptimised)."""
        if isinstance(e, A.Path) and len(e.segs) == 1:
            r = self.sc.lookup(e.segs[0])
            if r is None or r[0] in self.var_slots:
                return None
            return ("p", r[0])
        if isinstance(e, A.Field) and not e.name.isdigit():
            k = self.inv_key(e.e)
            return None if k is None else ("f", k, e.name)
        if isinstance(e, A.View):
            return self.inv_key(e.e)
        if isinstance(e, A.Lit) and e.kind == "char" and type(e.value) is str:
            return ("c", e.value)  # a constant, kept out of the generated source
        return None

    def snapshot(self) -> tuple[Any, ...]:
        return (len(self.hoists), dict(self.keys), {k: set(g) for k, g in self.guards.items()},
                (list(self.checks[0]), list(self.checks[1])), set(self.int_elems))

    def restore(self, snap: tuple[Any, ...]) -> None:
        """Undo a failed attempt (an operand tried as an integer, then as a char)."""
        n, self.keys, self.guards, checks, self.int_elems = snap
        del self.hoists[n:]
        self.checks = checks

    def hoist(self, e: A.Expr, guard: str) -> int | None:
        key = self.inv_key(e)
        if key is None:
            return None
        k = self.keys.get(key)
        if k is None:
            k = len(self.hoists)
            self.keys[key] = k
            self.hoists.append(self.prog.expr(e, self.sc))
            self.guards[k] = set()
        self.guards[k].add(guard)
        return k

    def user_method(self, name: str) -> bool:
        return bool(self.prog.methods.get(name))

    # ---------------------------------------------------------------- integers
    def int_(self, e: A.Expr, cond: bool, depth: int) -> Low | None:
        """``e`` as an integer expression; ``cond``: whether it is evaluated only under a
        condition (then nothing about it may be checked ahead of the loop)."""
        if not self.visit(depth):
            return None
        d = depth + 1
        if isinstance(e, A.Lit):
            v = e.value
            if e.kind == "int" and type(v) is int and v.bit_length() <= 64:
                return Low(f"({v!r})", const=v)
            return None
        if isinstance(e, A.Path) and len(e.segs) == 1:
            r = self.sc.lookup(e.segs[0])
            if r is not None and r[0] in self.var_slots:
                vi = self.var_slots.index(r[0])
                return Low(f"v{vi}", off=0, var=vi)
            k = self.hoist(e, "int")
            return None if k is None else Low(f"h{k}")
        if isinstance(e, A.Field):
            k = self.hoist(e, "int")
            return None if k is None else Low(f"h{k}")
        if isinstance(e, A.Binary) and e.op in ("+", "-"):
            lv = self.int_(e.l, cond, d)
            rv = self.int_(e.r, cond, d)
            if lv is None or rv is None:
                return None
            out = Low(f"({lv.src} {e.op} {rv.src})")
            if lv.off is not None and rv.const is not None:
                out.off = lv.off + rv.const if e.op == "+" else lv.off - rv.const
                out.var = lv.var
            elif e.op == "+" and lv.const is not None and rv.off is not None:
                out.off = rv.off + lv.const
                out.var = rv.var
            elif lv.const is not None and rv.const is not None:
                out.const = lv.const + rv.const if e.op == "+" else lv.const - rv.const
            return out
        if isinstance(e, A.Binary) and e.op in ("/", "%"):
            lv = self.int_(e.l, cond, d)
            rv = self.int_(e.r, cond, d)
            if lv is None or rv is None or rv.const is None or rv.const <= 0:
                return None
            # Euclidean division and remainder by a positive divisor are floor's (guide:
            # spec-arithmetic.md); other divisors stay generic
            return Low(f"({lv.src} {'//' if e.op == '/' else '%'} {rv.const!r})")
        if isinstance(e, A.Cast):
            return self.cast(e, cond, d)
        if isinstance(e, A.MethodCall) and e.name == "len" and not e.args \
                and not self.user_method("len"):
            k = self.hoist(e.recv, "seq")
            return None if k is None else Low(f"n{k}")
        got = self.index(e, cond, d)
        if got is not None:
            elem, k = got
            self.int_elems.add(k)
            if self.trusted:
                return Low(elem)
            t = self.tmp()
            return Low(f"({t} if _type({t} := {elem}) is _int else _D())")
        return None

    def cast(self, e: A.Cast, cond: bool, depth: int) -> Low | None:
        x = self.int_(e.e, cond, depth)
        name = e.ty.name
        if x is None:
            return None
        if name == "int":
            return x  # the identity on an integer (reference-as.md)
        lo: int
        hi: int | None
        if name == "nat":
            lo, hi = 0, None
        elif name in INT_WIDTHS:
            bits, signed = INT_WIDTHS[name]
            lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (
                0, (1 << bits) - 1)
        else:
            return None
        # in the type's range the cast is the identity; outside it (nat: unspecified,
        # fixed width: truncation) the generic path decides
        if x.off is not None and not cond:
            ck, n = self.checks[x.var], x.var
            ck.append(f"{lo} <= lo{n} + ({x.off})")
            if hi is not None:
                ck.append(f"hi{n} + ({x.off}) <= {hi}")
            return x
        t = self.tmp()
        test = f"{lo} <= ({t} := {x.src})" + (f" <= {hi}" if hi is not None else "")
        return Low(f"({t} if {test} else _D())")

    def index(self, e: A.Expr, cond: bool, depth: int) -> tuple[str, int] | None:
        """``s[k]`` / ``s.spec_index(k)`` on a loop-invariant Seq: the element, unchecked."""
        if isinstance(e, A.Index):
            seq, idx = e.e, e.idx
        elif isinstance(e, A.MethodCall) and e.name in ("spec_index", "index") \
                and len(e.args) == 1 and not self.user_method(e.name):
            seq, idx = e.recv, e.args[0]
        else:
            return None
        k = self.hoist(seq, "seq")
        if k is None:
            return None
        i = self.int_(idx, cond, depth)
        if i is None:
            return None
        if i.off is not None and not cond:
            ck, n = self.checks[i.var], i.var
            ck.append(f"0 <= lo{n} + ({i.off})")
            ck.append(f"hi{n} + ({i.off}) < n{k}")
            return f"h{k}[{i.src}]", k
        t = self.tmp()
        return f"(h{k}[{t}] if 0 <= ({t} := {i.src}) < n{k} else _D())", k

    # ---------------------------------------------------------------- chars
    def char_(self, e: A.Expr, cond: bool, depth: int) -> str | None:
        """``e`` as a char (a one-character ``str``): a char literal, an invariant read, or
        an element of a loop-invariant Seq (checked to be a ``str`` per element)."""
        if not self.visit(depth):
            return None
        if isinstance(e, (A.Lit, A.Path, A.Field)):
            k = self.hoist(e, "char")
            return None if k is None else f"h{k}"
        got = self.index(e, cond, depth + 1)
        if got is None:
            return None
        t = self.tmp()
        return f"({t} if _type({t} := {got[0]}) is _str else _D())"

    def evident_char(self, e: A.Expr) -> bool:
        """Whether the written types say ``e`` is a char (a guess only steers which fast
        code is tried: its per-value checks hand a wrong guess back to the closures)."""
        if isinstance(e, A.Lit):
            return e.kind == "char"
        if isinstance(e, (A.Index, A.MethodCall)):
            seq = e.e if isinstance(e, A.Index) else e.recv
            ref = self.prog.static_type_ref(seq, self.sc)
            return ref is not None and (ref.name == "SpecString" or (
                ref.name == "Seq" and bool(ref.args) and ref.args[0].name == "char"))
        return isinstance(e, (A.Path, A.Field)) and self.prog.static_type(e, self.sc) == "char"

    def compare(self, l_: A.Expr, r_: A.Expr, cond: bool, depth: int
                ) -> tuple[str, str] | None:
        """Both operands as integers, else both as chars (compared as Verus compares
        them: by scalar value, which is Python's order on one-character strings)."""
        if self.evident_char(l_) or self.evident_char(r_):
            lc = self.char_(l_, cond, depth)
            rc = self.char_(r_, cond, depth) if lc is not None else None
            return None if lc is None or rc is None else (lc, rc)
        snap = self.snapshot()
        lv = self.int_(l_, cond, depth)
        rv = self.int_(r_, cond, depth) if lv is not None else None
        if lv is not None and rv is not None:
            return lv.src, rv.src
        self.restore(snap)
        lc = self.char_(l_, cond, depth)
        rc = self.char_(r_, cond, depth) if lc is not None else None
        if lc is None or rc is None:
            return None
        return lc, rc

    # ---------------------------------------------------------------- booleans
    def bool_(self, e: A.Expr, cond: bool, depth: int) -> str | None:
        if not self.visit(depth):
            return None
        d = depth + 1
        if isinstance(e, A.Lit):
            return ("True" if e.value else "False") if e.kind == "bool" and type(
                e.value) is bool else None
        if isinstance(e, A.Binary) and e.op in _CMP:
            pair = self.compare(e.l, e.r, cond, d)
            return None if pair is None else f"({pair[0]} {_CMP[e.op]} {pair[1]})"
        if isinstance(e, A.Chain):
            if not all(o in _CMP and o not in ("==", "!=", "===", "!==") for o in e.ops):
                return None
            parts: list[str] = []
            for k, x in enumerate(e.operands):
                lx = self.int_(x, cond or k >= 2, d)
                if lx is None:
                    return None
                parts.append(lx.src)
            src = parts[0]
            for op, p in zip(e.ops, parts[1:], strict=True):
                src += f" {_CMP[op]} {p}"
            return f"({src})"
        if isinstance(e, A.Binary) and e.op in ("&&", "||"):
            leaves: list[A.Expr] = []
            stack: list[A.Expr] = [e]
            while stack:
                x = stack.pop()
                if isinstance(x, A.Binary) and x.op == e.op:
                    stack += (x.r, x.l)
                else:
                    leaves.append(x)
            if any(isinstance(x, A.Matches) for x in leaves):
                return None
            srcs = []
            for k, x in enumerate(leaves):
                s = self.bool_(x, cond or k > 0, d)
                if s is None:
                    return None
                srcs.append(s)
            return "(" + (" and " if e.op == "&&" else " or ").join(srcs) + ")"
        if isinstance(e, A.Binary) and e.op == "==>":
            if isinstance(e.l, A.Matches):
                return None
            a = self.bool_(e.l, cond, d)
            b = self.bool_(e.r, True, d)
            return None if a is None or b is None else f"((not {a}) or {b})"
        if isinstance(e, A.Unary) and e.op == "!":
            a = self.bool_(e.e, cond, d)
            return None if a is None else f"(not {a})"
        if isinstance(e, (A.Path, A.Field)):
            r = self.sc.lookup(e.segs[0]) if isinstance(e, A.Path) and len(e.segs) == 1 \
                else None
            if r is not None and r[0] in self.var_slots:
                return None  # the loop variables are integers here
            hk = self.hoist(e, "bool")
            return None if hk is None else f"h{hk}"
        got = self.index(e, cond, d)
        if got is not None:
            t = self.tmp()
            return f"({t} if _type({t} := {got[0]}) is _bool else _D())"
        return None


_MAKERS: dict[str, Callable[..., Any]] = {}


class FastLoop:
    """A lowered quantifier's source and loop-invariant reads; compiled on first use
    (``build``), since ``compile`` costs about half a millisecond and pays off only on
    ranges of some hundreds of instances."""

    def __init__(self, prog: Any, src: str, hoists: list[Code], inner: Code | None) -> None:
        self.prog = prog
        self.src = src
        self.hoists = tuple(hoists)
        self.inner = inner
        """the inner variable's range producer (two variables), called per outer value"""

    def build(self) -> Callable[[list[Any], range], Any] | None:
        """``fast(frame, range)``: the quantifier's value over ``range``, or ``Deopt``."""
        make = _MAKERS.get(self.src)
        if make is None:
            try:
                ns: dict[str, Any] = {}
                exec(compile(self.src, "<interp fast loop>", "exec"), ns)  # noqa: S102 - our text
            except (SyntaxError, RecursionError, MemoryError, ValueError):
                return None
            make = ns["_make"]
            if len(_MAKERS) > 1024:
                _MAKERS.clear()
            _MAKERS[self.src] = make
        return make(self.prog, _deopt, Deopt, Undef, self.hoists,
                    known_int_seq, self.inner)


def lower_quant(prog: Any, kind: str, var_slots: tuple[int, ...], residual: list[A.Expr],
                body: A.Expr | None, sc: Scope, inner: Code | None = None
                ) -> FastLoop | None:
    """The fast loop for ``forall``/``exists`` over one or two integer variables (in frame
    slots ``var_slots``, outer first; ``inner``: the second one's range producer), or None
    when the guard's residual conjuncts or the body fall outside what the fast code
    handles. The loop raises ``Deopt`` where the closures must decide."""
    if kind not in ("forall", "exists") or len(var_slots) not in (1, 2) or (
            len(var_slots) == 2) != (inner is not None):
        return None
    lw = _Lowering(prog, sc, var_slots)
    test = _test(lw, kind, residual, body)
    if test is None:
        return None
    if any(len(gs) > 1 for gs in lw.guards.values()):
        return None  # one read used as two kinds (an int and a Seq): a type error, generic
    trusted_test = None
    if lw.int_elems:
        tw = _Lowering(prog, sc, var_slots, trusted=True)
        trusted_test = _test(tw, kind, residual, body)
    return FastLoop(prog, _source(lw, test, trusted_test, kind), lw.hoists, inner)


def _test(lw: _Lowering, kind: str, residual: list[A.Expr], body: A.Expr | None
          ) -> str | None:
    """The loop's test: true on an instance that decides the quantifier."""
    conds: list[str] = []
    for k, r in enumerate(residual):
        s = lw.bool_(r, k > 0, 0)
        if s is None:
            return None
        conds.append(s)
    if kind == "forall":
        if body is None:
            return None
        bsrc = lw.bool_(body, bool(residual), 0)
        if bsrc is None:
            return None
        return " and ".join(conds + [f"not {bsrc}"])
    return " and ".join(conds) or "True"


def _chunked(var: int, indent: str, on_hit: str) -> list[str]:
    """The loop over ``lo{var}..=hi{var}``, paying one step per instance per chunk, before
    the chunk runs."""
    return [indent + x for x in (
        f"start = lo{var}; stop = hi{var} + 1",
        "while start < stop:",
        f"    end = start + {CHUNK}",
        "    if end > stop: end = stop",
        "    b.tick(end - start)",
        f"    for v{var} in _range(start, end):",
        "        if TEST: " + on_hit,
        "    start = end",
    )]


def _checks(lw: _Lowering, var: int) -> str | None:
    ck = lw.checks[var]
    return f"if not ({' and '.join(dict.fromkeys(ck))}): raise _Deopt" if ck else None


def _source(lw: _Lowering, test: str, trusted_test: str | None, kind: str) -> str:
    on_hit, vacuous = ("return False", "True") if kind == "forall" else ("return True", "False")
    lines = [
        "def _make(_owner, _D, _Deopt, _Undef, _H, _known, _inner):",
        "    _type = type; _int = int; _bool = bool; _tuple = tuple; _range = range; _str = str",
        "    def fast(fr, rng):",
        "        lo0 = rng.start; hi0 = rng.stop - 1",
        f"        if hi0 < lo0: return {vacuous}",
    ]
    if lw.hoists:
        lines.append("        try:")
        lines += [f"            h{k} = _H[{k}](fr)" for k in range(len(lw.hoists))]
        lines += ["        except _Undef:", "            raise _Deopt from None"]
    for k, gs in lw.guards.items():
        want = {"int": "_int", "seq": "_tuple", "bool": "_bool", "char": "_str"}
        g = next(iter(gs))
        lines.append(f"        if _type(h{k}) is not {want[g]}: raise _Deopt")
        if g == "seq":
            lines.append(f"        n{k} = len(h{k})")
    c0 = _checks(lw, 0)
    if c0:
        lines.append("        " + c0)
    lines.append("        b = _owner.budget")
    if len(lw.var_slots) == 1:
        loop = _chunked(0, "        ", on_hit)
    else:
        # the inner range may depend on the outer variable: its producer reads the frame
        c1 = _checks(lw, 1)
        loop = [
            "        for v0 in _range(lo0, hi0 + 1):",
            "            b.tick(1)",
            f"            fr[{int(lw.var_slots[0])}] = v0",
            "            rng1 = _inner(fr)",
            "            if _type(rng1) is not _range:",
            "                if not rng1: continue",
            "                raise _Deopt",
            "            lo1 = rng1.start; hi1 = rng1.stop - 1",
            "            if hi1 < lo1: continue",
        ] + (["            " + c1] if c1 else []) + _chunked(1, "            ", on_hit)
    if trusted_test is not None:
        known = " and ".join(f"_known(h{k})" for k in sorted(lw.int_elems))
        lines.append(f"        if {known}:")
        lines += ["    " + x.replace("TEST", trusted_test) for x in loop]
        lines.append(f"            return {vacuous}")
    lines += [x.replace("TEST", test) for x in loop]
    lines += [f"        return {vacuous}", "    return fast"]
    return "\n".join(lines) + "\n"


__all__ = ["CHUNK", "Deopt", "FastLoop", "lower_quant"]
