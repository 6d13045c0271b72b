"""Compiling operators: integer arithmetic with Verus's semantics (Euclidean ``/`` and ``%``,
widths and casts), three-valued ``&&``, ``||``, ``==>`` and ``<==>``, comparisons and chains."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from adequacy.plugin import INT_WIDTHS

from ..syntax import ast as A
from . import builtins as B
from .compile_base import Compiling
from .runtime import Code, Scope
from .runtime import truth as _truth
from .values import (
    MAX_BITS,
    MAX_ELEMS,
    FMap,
    MSet,
    Tup,
    Undef,
    check_bits,
    check_elems,
    show,
)

A_CMP = ("==", "!=", "===", "!==", "<", "<=", ">", ">=", "=~=", "=~~=")
LEFT_OPS = ("+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>")
BIT_OPS = ("&", "|", "^", "<<", ">>")

BIG_INT_BITS = 1 << 14
"""Integer products above this many bits pay for their (superlinear) CPython work."""


def big_int_cost(bits: int, what: str) -> None:
    """Charge a big multiplication before doing it: ~(words^2)/512 steps (measured here: a
    500,000-bit square takes ~60 ms, charged ~130,000 steps) and its bytes of memory."""
    if bits > MAX_BITS:
        check_bits(bits, what)
    w = bits >> 6
    B.work((w * w) >> 9 << B.COPY, B.COPY)
    B.alloc(bits >> 3, 1, what)


def ediv(a: int, b: int, line: int) -> int:
    if b == 0:
        raise Undef("division by zero", line)
    return a // b if b > 0 else -(a // -b)


def emod(a: int, b: int, line: int) -> int:
    if b == 0:
        raise Undef("remainder by zero", line)
    return a % abs(b)


def cast_int(v: Any, ty: A.TypeRef, line: int) -> Any:
    """``v as ty`` with Verus's spec-code meaning (guide: reference-as.md)."""
    name = ty.name
    if type(v) is str:
        v = ord(v)
    elif type(v) is bool:
        v = int(v)
    if type(v) is not int:
        if name in ("f32", "f64") and type(v) is float:
            return v
        return v  # casts between non-integer types are the identity on spec values
    if name == "int":
        return v
    if name == "nat":
        if v < 0:
            raise Undef(f"cast of negative {v} to nat is unspecified", line)
        return v
    if name == "char":
        if 0 <= v <= 0x10FFFF and not 0xD800 <= v <= 0xDFFF:
            return chr(v)
        raise Undef(f"cast of {v} to char is unspecified", line)
    if name in INT_WIDTHS:
        bits, signed = INT_WIDTHS[name]
        v &= (1 << bits) - 1
        if signed and v >= 1 << (bits - 1):
            v -= 1 << bits
        return v
    if name in ("f32", "f64"):
        return float(v)
    return v


def binop(op: str, line: int, left_ty: str | None) -> Callable[[Any, Any], Any]:
    """``a op b`` on two values; ``left_ty``: the written type of the left operand (for
    ``<<``, whose result is truncated to it)."""
    if op == "+":
        def add(a: Any, b: Any) -> Any:
            if type(a) is int and type(b) is int:
                return a + b
            return arith_other("+", a, b, line)
        return add
    if op == "-":
        def sub(a: Any, b: Any) -> Any:
            if type(a) is int and type(b) is int:
                return a - b
            return arith_other("-", a, b, line)
        return sub
    if op == "*":
        def mul(a: Any, b: Any) -> Any:
            if type(a) is int and type(b) is int:
                bits = a.bit_length() + b.bit_length()
                if bits > BIG_INT_BITS:
                    big_int_cost(bits, f"product at line {line}")
                return a * b
            return arith_other("*", a, b, line)
        return mul
    if op == "/":
        def div(a: Any, b: Any) -> Any:
            if type(a) is int and type(b) is int:
                return ediv(a, b, line)
            return arith_other("/", a, b, line)
        return div
    if op == "%":
        def mod(a: Any, b: Any) -> Any:
            if type(a) is int and type(b) is int:
                return emod(a, b, line)
            return arith_other("%", a, b, line)
        return mod
    if op in ("&", "|", "^"):
        pyop = {"&": lambda a, b: a & b, "|": lambda a, b: a | b,
                "^": lambda a, b: a ^ b}[op]

        def bit(a: Any, b: Any) -> Any:
            if type(a) is type(b) and type(a) in (int, bool):
                return pyop(a, b)
            if type(a) is frozenset and type(b) is frozenset and op in ("&", "|"):
                B.work(len(a) + len(b), B.SETCOPY)
                return pyop(a, b)
            raise Undef(f"cannot apply {op} to {show(a)} and {show(b)}", line)
        return bit
    width = INT_WIDTHS.get(left_ty) if left_ty else None

    def shift(a: Any, b: Any) -> Any:
        if type(a) is not int or type(b) is not int:
            raise Undef(f"cannot shift {show(a)} by {show(b)}", line)
        if b < 0:
            raise Undef("shift by a negative amount", line)
        if op == ">>":
            return a >> b
        if width is not None and b >= width[0]:
            return 0  # every bit shifted out of the written width
        if width is None and left_ty not in ("int", "nat"):
            raise Undef("<< on an integer of unknown width", line)
        if a:
            check_bits(a.bit_length() + b, f"shift at line {line}")
            if a.bit_length() + b > BIG_INT_BITS:
                B.work(a.bit_length() + b >> 6, B.COPY)
                B.alloc((a.bit_length() + b) >> 3, 1, f"shift at line {line}")
        r = a << b
        if width is not None:
            bits, signed = width
            r &= (1 << bits) - 1
            if signed and r >= 1 << (bits - 1):
                r -= 1 << bits
        return r
    return shift


def fast_binop(op: str, line: int, lc: Code, rc: Code) -> Code | None:
    """One ``+`` or ``-`` with its integer case inline (the hot path of index arithmetic)."""
    if op == "+":
        def add(fr: list[Any]) -> Any:
            a = lc(fr)
            b = rc(fr)
            if type(a) is int and type(b) is int:
                return a + b
            return arith_other("+", a, b, line)
        return add
    if op == "-":
        def sub(fr: list[Any]) -> Any:
            a = lc(fr)
            b = rc(fr)
            if type(a) is int and type(b) is int:
                return a - b
            return arith_other("-", a, b, line)
        return sub
    return None


def _eq(a: Any, b: Any) -> bool:
    return bool(a == b)


CMP_FUNCS: dict[str, Callable[[Any, Any], bool]] = {
    "==": _eq, "===": _eq, "=~=": _eq, "=~~=": _eq,
    "!=": lambda a, b: bool(a != b), "!==": lambda a, b: bool(a != b),
    "<": lambda a, b: bool(a < b), "<=": lambda a, b: bool(a <= b),
    ">": lambda a, b: bool(a > b), ">=": lambda a, b: bool(a >= b),
}


def cmp_code(op: str, lc: Code, rc: Code, line: int) -> Code:
    if op in ("==", "===", "=~=", "=~~="):
        def eq(fr: list[Any]) -> Any:
            a = lc(fr)
            b = rc(fr)
            ta = type(a)
            if ta is not type(b) and not _compatible(a, b):
                raise Undef(f"cannot compare {show(a)} == {show(b)}", line)
            if ta is tuple or ta is frozenset or ta is FMap:
                B.work(len(a), B.COPY)
            return a == b
        return eq
    if op in ("!=", "!=="):
        def ne(fr: list[Any]) -> Any:
            a = lc(fr)
            b = rc(fr)
            ta = type(a)
            if ta is not type(b) and not _compatible(a, b):
                raise Undef(f"cannot compare {show(a)} != {show(b)}", line)
            if ta is tuple or ta is frozenset or ta is FMap:
                B.work(len(a), B.COPY)
            return a != b
        return ne
    f = CMP_FUNCS[op]

    def rel(fr: list[Any]) -> Any:
        a = lc(fr)
        b = rc(fr)
        if type(a) is int and type(b) is int:
            return f(a, b)
        if type(a) is not type(b) or type(a) not in (str, float, bool):
            raise Undef(f"cannot compare {show(a)} {op} {show(b)}", line)
        return f(a, b)
    return rel


def _compatible(a: Any, b: Any) -> bool:
    numeric = (int, float)
    return (type(a) in numeric and type(b) in numeric) or (
        isinstance(a, tuple) and isinstance(b, tuple) and type(a) is not Tup) or (
        a is None or b is None)


def arith_other(op: str, a: Any, b: Any, line: int) -> Any:
    ta, tb = type(a), type(b)
    if ta is tuple and tb is tuple and op == "+":
        if len(a) + len(b) > MAX_ELEMS:
            check_elems(len(a) + len(b), f"sequence concatenation at line {line}")
        B.work(len(a) + len(b), B.COPY)
        B.alloc(len(a) + len(b), B.SEQ_BYTES, f"sequence concatenation at line {line}")
        return a + b
    if ta is frozenset and tb is frozenset:
        B.work(len(a) + len(b), B.SETCOPY)
        B.alloc(len(a) + len(b), B.SET_BYTES, f"set {op} at line {line}")
        if op == "+":
            return a | b
        if op == "-":
            return a - b
        if op == "*":
            return a & b
    if ta is MSet and tb is MSet and op in ("+", "-"):
        return B.MULTISET["add" if op == "+" else "sub"](a, b)
    if ta in (int, float) and tb in (int, float) and float in (ta, tb):
        if op == "/":
            if b == 0:
                raise Undef("division by zero", line)
            return a / b
        return {"+": a + b, "-": a - b, "*": a * b}.get(op) if op != "%" else a % b
    raise Undef(f"cannot apply {op} to {show(a)} and {show(b)}", line)


class Operators(Compiling):
    """The ops half of ``Program`` (a mixin: ``compiler.Program`` joins them)."""

    def c_Unary(self, e: A.Unary, sc: Scope) -> Code:
        x = self.expr(e.e, sc)
        line = e.line
        if e.op == "-":
            def neg(fr: list[Any]) -> Any:
                v = x(fr)
                if type(v) is int or type(v) is float:
                    return -v
                raise Undef(f"cannot negate {show(v)}", line)
            return neg
        if e.op == "!":
            ty = self.static_type(e.e, sc)
            width = INT_WIDTHS.get(ty) if ty else None

            def not_(fr: list[Any]) -> Any:
                v = x(fr)
                if v is True:
                    return False
                if v is False:
                    return True
                if type(v) is int:
                    if width is None:
                        raise Undef("bitwise ! on an integer of unknown width", line)
                    bits, signed = width
                    return ~v if signed else v ^ ((1 << bits) - 1)
                raise Undef(f"cannot apply ! to {show(v)}", line)
            return not_
        return self.unsupported_code(f"unary {e.op}", line)

    def c_Binary(self, e: A.Binary, sc: Scope) -> Code:
        op, line = e.op, e.line
        if op in ("&&", "||"):
            return self.junction(e, sc)
        if op in ("==>", "<=="):
            return self.implication(e, sc)
        if op == "<==>":
            return self.iff_chain(e, sc)
        if op in A_CMP:
            return cmp_code(op, self.expr(e.l, sc), self.expr(e.r, sc), line)
        if op in LEFT_OPS:
            return self.arith(e, sc)
        self.expr(e.l, sc)
        self.expr(e.r, sc)
        return self.unsupported_code(f"operator {op}", line)

    def arith(self, e: A.Binary, sc: Scope) -> Code:
        """A left-associative chain ``a + b - c * d ...`` (its left spine) compiled into one
        loop: a 10,000-term sum costs no recursion per term, compiling or evaluating."""
        spine: list[A.Binary] = []
        node: A.Expr = e
        while isinstance(node, A.Binary) and node.op in LEFT_OPS:
            spine.append(node)
            node = node.l
        spine.reverse()
        base = self.expr(node, sc)
        left_ty = self.static_type(node, sc)
        steps: list[tuple[Callable[[Any, Any], Any], Code]] = []
        for b in spine:
            rc = self.expr(b.r, sc)
            steps.append((binop(b.op, b.line, left_ty), rc))
            left_ty = (left_ty or (self.static_type(b.r, sc) if b.op in "&|^" else None)
                       ) if b.op in BIT_OPS else None
        if len(steps) == 1:
            f, rc = steps[0]
            return fast_binop(spine[0].op, spine[0].line, base, rc) or (
                lambda fr: f(base(fr), rc(fr)))

        def chain(fr: list[Any]) -> Any:
            v = base(fr)
            for f, rc in steps:
                v = f(v, rc(fr))
            return v
        return chain

    def junction(self, e: A.Binary, sc: Scope) -> Code:
        """``a && b && c ...`` (any grouping) as one loop over its operands, with Verus's
        three-valued meaning: one false operand makes it false even when another is
        undefined; otherwise an undefined operand makes it undefined. ``||`` dually."""
        op = e.op
        flat: list[A.Expr] = []
        stack: list[A.Expr] = [e]
        while stack:
            x = stack.pop()
            if isinstance(x, A.Binary) and x.op == op:
                stack.append(x.r)
                stack.append(x.l)
            else:
                flat.append(x)
        if len(flat) == 2:
            return self.logic(op, e.l, e.r, sc, e.line)
        # `a && x matches P(v) && f(v) && g(v)`: Verus parses the rest of the && chain as the
        # matches' right-hand side (guide: reference-matches.md; syn_verus parse_matches), so
        # the pattern's names are in scope in every operand after it
        leaves: list[tuple[A.Expr, Scope]] = []
        cur = sc
        for x in flat:
            if op == "&&" and isinstance(x, A.Matches) and x.binds:
                cur = cur.child()
            leaves.append((x, cur))
        codes = [(self.expr(x, s), x.line, isinstance(x, A.Matches) and x.binds)
                 for x, s in leaves]
        decisive = op == "||"

        def junction(fr: list[Any]) -> Any:
            pending: Undef | None = None
            for c, ln, binds in codes:
                try:
                    v = c(fr)
                    if v is not True and v is not False:
                        _truth(v, ln)
                except Undef as u:
                    if binds:  # the operands after it read names it did not bind
                        raise u from None
                    pending = u
                    continue
                if v is decisive:
                    return decisive
            if pending is not None:
                raise pending
            return not decisive
        return junction

    def implication(self, e: A.Binary, sc: Scope) -> Code:
        """``a ==> b ==> c`` is ``a ==> (b ==> c)`` (and ``c <== b <== a`` the same): one loop
        over the premises. A false premise makes it true; an undefined one leaves it to the
        conclusion (true decides, otherwise undefined)."""
        premises: list[A.Expr] = []
        if e.op == "==>":
            node: A.Expr = e
            while isinstance(node, A.Binary) and node.op == "==>":
                premises.append(node.l)
                node = node.r
            concl = node
        else:
            node = e
            while isinstance(node, A.Binary) and node.op == "<==":
                premises.append(node.r)
                node = node.l
            concl = node
        if len(premises) == 1:
            return self.logic("==>", premises[0], concl, sc, e.line)
        s = sc
        prem: list[tuple[Code, int, bool]] = []
        for p in premises:
            binds = isinstance(p, A.Matches) and p.binds
            if binds:
                s = s.child()
            prem.append((self.expr(p, s), p.line, binds))
        cc = self.expr(concl, s)
        line = e.line

        def implies_chain(fr: list[Any]) -> Any:
            pending: Undef | None = None
            for c, ln, binds in prem:
                try:
                    a = c(fr)
                except Undef as u:
                    if binds:  # what follows reads names it did not bind
                        raise u from None
                    pending = u
                    continue
                if a is False:
                    return True
                if a is not True:
                    _truth(a, ln)
            b = cc(fr)
            if b is True:
                return True
            if b is False:
                if pending is not None:
                    raise pending
                return False
            return _truth(b, line)
        return implies_chain

    def iff_chain(self, e: A.Binary, sc: Scope) -> Code:
        """``a <==> b <==> c`` groups to the left; evaluated in one loop."""
        rights: list[A.Binary] = []
        node: A.Expr = e
        while isinstance(node, A.Binary) and node.op == "<==>":
            rights.append(node)
            node = node.l
        rights.reverse()
        base = self.expr(node, sc)
        rest = [(self.expr(b.r, sc), b.line) for b in rights]

        def iff(fr: list[Any]) -> Any:
            v = base(fr)
            for rc, ln in rest:
                v = _truth(v, ln) == _truth(rc(fr), ln)
            return v
        return iff

    def logic(self, op: str, l_: A.Expr, r_: A.Expr, sc: Scope, line: int) -> Code:
        rsc = sc
        if isinstance(l_, A.Matches) and l_.binds and op in ("&&", "==>"):
            rsc = sc.child()
        lc = self.expr(l_, rsc) if rsc is not sc else self.expr(l_, sc)
        rc = self.expr(r_, rsc)
        binds = rsc is not sc  # the right side reads names the left side binds
        if op == "&&":
            def and_(fr: list[Any]) -> Any:
                try:
                    a = lc(fr)
                except Undef as u:
                    if not binds and rc(fr) is False:
                        return False
                    raise u
                if a is False:
                    return False
                if a is not True:
                    _truth(a, line)
                b = rc(fr)
                if b is True or b is False:
                    return b
                return _truth(b, line)
            return and_
        if op == "||":
            def or_(fr: list[Any]) -> Any:
                try:
                    a = lc(fr)
                except Undef as u:
                    if rc(fr) is True:
                        return True
                    raise u
                if a is True:
                    return True
                if a is not False:
                    _truth(a, line)
                b = rc(fr)
                if b is True or b is False:
                    return b
                return _truth(b, line)
            return or_
        if op == "==>":
            def implies(fr: list[Any]) -> Any:
                try:
                    a = lc(fr)
                except Undef as u:
                    if not binds and rc(fr) is True:
                        return True
                    raise u
                if a is False:
                    return True
                if a is not True:
                    _truth(a, line)
                b = rc(fr)
                if b is True or b is False:
                    return b
                return _truth(b, line)
            return implies
        if op == "<==":
            return self.logic("==>", r_, l_, sc, line)

        def iff(fr: list[Any]) -> Any:
            return _truth(lc(fr), line) == _truth(rc(fr), line)
        return iff

    def c_Chain(self, e: A.Chain, sc: Scope) -> Code:
        codes = [self.expr(x, sc) for x in e.operands]
        line = e.line
        ops = [CMP_FUNCS[o] for o in e.ops]
        names = e.ops

        def chain(fr: list[Any]) -> Any:
            # Verus guide, reference-chained-ineq.md: `a <= b < c` is `a <= b && b < c`, and
            # spec-code `&&` is total: one false link makes the chain false even when another
            # operand is undefined (`3 <= 2 <= s[2]` is false for any s).
            vals: list[Any] = []
            for c in codes:
                try:
                    vals.append(c(fr))
                except Undef as u:
                    vals.append(u)
            undef: Undef | None = None
            for k, f in enumerate(ops):
                a, b = vals[k], vals[k + 1]
                if isinstance(a, Undef) or isinstance(b, Undef):
                    undef = undef or (a if isinstance(a, Undef) else b)
                    continue
                try:
                    r = f(a, b)
                except TypeError:
                    undef = undef or Undef(f"cannot compare {show(a)} {names[k]} {show(b)}",
                                           line)
                    continue
                if not r:
                    return False
            if undef is not None:
                raise undef
            return True
        return chain

    def c_Cast(self, e: A.Cast, sc: Scope) -> Code:
        x = self.expr(e.e, sc)
        ty, line = e.ty, e.line
        if ty.name == "int":
            def to_int(fr: list[Any]) -> Any:
                v = x(fr)
                if type(v) is int:
                    return v
                return cast_int(v, ty, line)
            return to_int
        return lambda fr: cast_int(x(fr), ty, line)
