"""Compile spec expressions into trees of Python closures, then evaluate them.

Each syntax node becomes one closure taking the current frame (a list of slot values; names
are resolved to slots at compile time), so evaluating a quantifier body per element costs a
few Python calls instead of a walk over the syntax tree with dictionary look-ups. Three-valued
logic is carried by the ``Undef`` exception: ``&&``, ``||``, ``==>`` and the quantifiers catch
it and decide where the other operand decides, everything else lets it propagate.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from adequacy.plugin import INT_WIDTHS

from ..syntax import ast as A
from . import builtins as B
from .quant import compile_quant
from .runtime import Budget, Code, CompileError, FnCode, Scope, set_current
from .runtime import truth as _truth
from .values import (
    MAX_BITS,
    MAX_ELEMS,
    NONE,
    Abort,
    Closure,
    EnumVal,
    FMap,
    MSet,
    StructVal,
    Tup,
    Undef,
    check_bits,
    check_elems,
    kind_of,
    show,
    some,
)

#: Spec-only types: vstd has no ``View`` impl for them, so ``x@`` does not type-check.
SPEC_ONLY_TYPES = frozenset({"Seq", "Set", "Map", "Multiset", "SpecString"})


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


class Program:
    """A compiled spec module: functions, structs, enums and impl methods by name."""

    def __init__(self, module: A.SpecModule) -> None:
        self.module = module
        self.structs = {s.name: s for s in module.items if isinstance(s, A.StructItem)}
        self.enums = {e.name: e for e in module.items if isinstance(e, A.EnumItem)}
        self.variants: dict[str, tuple[A.EnumItem, A.Variant]] = {}
        for en in self.enums.values():
            for v in en.variants:
                self.variants.setdefault(v.name, (en, v))
        self.fns: dict[str, FnCode] = {}
        self.methods: dict[str, dict[str, FnCode]] = {}
        for it in module.items:
            if isinstance(it, A.FnItem) and it.mode == "spec":
                self.fns[it.name] = FnCode(it)
            elif isinstance(it, A.ImplItem):
                for f in it.fns:
                    if f.mode == "spec":
                        self.methods.setdefault(f.name, {})[it.self_type] = FnCode(f)
        self.budget = Budget(2_000_000, 10.0)
        self.unsupported: list[tuple[str, int]] = []
        self.allow_old = False
        self.split_count = 0
        """Quantifiers made by splitting disjunctive guards (``quant.MAX_SPLIT``)."""

    # ------------------------------------------------------------ functions
    def fn_code(self, fc: FnCode) -> FnCode:
        if fc.body is None and not fc.compiling:
            fc.compiling = True
            counter = [0]
            scope = Scope(counter)
            fc.param_slots = [scope.bind(p.name, p.ty) for p in fc.item.params]
            if fc.item.body is None:
                line = fc.item.line
                name = fc.item.name

                def nobody(fr: list[Any]) -> Any:
                    raise Undef(f"spec fn {name} has no body (uninterpreted)", line)
                fc.body = nobody
            else:
                # destructuring parameters
                pre: list[tuple[Any, int]] = []
                for p, slot in zip(fc.item.params, fc.param_slots, strict=True):
                    if p.pat is not None:
                        pre.append((self.pattern(p.pat, scope), slot))
                body = self.expr(fc.item.body, scope)
                if pre:
                    inner = body

                    def body(fr: list[Any], inner: Code = inner) -> Any:
                        for m, slot in pre:
                            m(fr[slot], fr)
                        return inner(fr)
                fc.body = body
            fc.nslots = counter[0]
            fc.compiling = False
        return fc

    def caller(self, fc: FnCode, line: int) -> Callable[..., Any]:
        """A Python callable running spec fn ``fc`` on argument values."""
        budget_holder = self

        def call(*args: Any) -> Any:
            code = self.fn_code(fc)
            b = budget_holder.budget
            b.depth += 1
            if b.depth > b.max_depth:
                b.depth -= 1
                raise Abort(f"recursion depth limit ({b.max_depth}) exceeded in "
                            f"{fc.item.name} (line {line})")
            b.steps += 1
            if b.steps & 1023 == 0:
                b.tick(0)
            fr: list[Any] = [None] * max(code.nslots, 1)
            for s, a in zip(code.param_slots, args, strict=False):
                fr[s] = a
            try:
                return code.body(fr)  # type: ignore[misc]
            finally:
                b.depth -= 1
        return call

    def compile_expr(self, e: A.Expr, names: list[tuple[str, A.TypeRef | None]]
                     ) -> Callable[..., Any]:
        """Compile a free-standing expression (a requires/ensures clause) over ``names``;
        the result is called with the names' values in order."""
        counter = [0]
        scope = Scope(counter)
        slots = [scope.bind(n, t) for n, t in names]
        code = self.expr(e, scope)

        def run(*args: Any) -> Any:
            fr: list[Any] = [None] * max(counter[0], 1)
            for s, a in zip(slots, args, strict=True):
                fr[s] = a
            old = set_current(self.budget)
            try:
                return code(fr)
            finally:
                set_current(old)
        return run

    def call_fn(self, name: str, *args: Any) -> Any:
        """Evaluate spec fn ``name`` under ``self.budget``, which the built-ins charge too."""
        fc = self.fns[name]
        old = set_current(self.budget)
        try:
            return self.caller(fc, fc.item.line)(*args)
        finally:
            set_current(old)

    # ------------------------------------------------------------ expressions
    def expr(self, e: A.Expr, sc: Scope) -> Code:
        meth = getattr(self, "c_" + type(e).__name__, None)
        if meth is None:
            return self.unsupported_code(f"unsupported expression {type(e).__name__}", e.line)
        return meth(e, sc)

    def unsupported_code(self, msg: str, line: int) -> Code:
        self.unsupported.append((msg, line))

        def f(fr: list[Any]) -> Any:
            raise Undef("unsupported: " + msg, line)
        return f

    def c_Lit(self, e: A.Lit, sc: Scope) -> Code:
        v: Any = e.value
        if e.kind == "str":
            v = tuple(str(e.value))
        elif e.kind == "bytestr":
            v = tuple(bytes(cast(Any, e.value)))
        elif e.kind == "unit":
            v = None
        return lambda fr: v

    def c_Path(self, e: A.Path, sc: Scope) -> Code:
        segs = e.segs
        if len(segs) == 1:
            r = sc.lookup(segs[0])
            if r is not None:
                slot = r[0]
                return lambda fr: fr[slot]
            name = segs[0]
            if name == "None":
                return lambda fr: NONE
            if name in self.fns:
                fc = self.fns[name]
                call = self.caller(fc, e.line)
                clo = Closure(call, len(fc.item.params))
                return lambda fr: clo
            if name in self.variants:
                return self.variant_value(self.variants[name], e.line)
            if name in B.FREE_FNS:
                f = B.FREE_FNS[name]
                c2 = Closure(f, -1)
                return lambda fr: c2
            raise CompileError(f"cannot find value {name!r}", e.line)
        # Enum::Variant, Self::Variant, Option::None, i32::MAX
        head, last = segs[-2], segs[-1]
        if head in INT_WIDTHS and last in ("MIN", "MAX", "BITS"):
            bits, signed = INT_WIDTHS[head]
            cval = {"BITS": bits,
                    "MIN": -(1 << (bits - 1)) if signed else 0,
                    "MAX": (1 << (bits - 1)) - 1 if signed else (1 << bits) - 1}[last]
            return lambda fr: cval
        if head == "Option" and last == "None":
            return lambda fr: NONE
        en = self.enums.get(head)
        if en is not None or head == "Self":
            for v in (en.variants if en else []):
                if v.name == last:
                    assert en is not None  # the loop runs only over a found enum
                    return self.variant_value((en, v), e.line)
            if head == "Self" and last in self.variants:
                return self.variant_value(self.variants[last], e.line)
        if last in self.fns:
            return self.c_Path(A.Path(e.line, (last,)), sc)
        if last in self.variants:
            return self.variant_value(self.variants[last], e.line)
        return self.unsupported_code(f"path {'::'.join(segs)}", e.line)

    def variant_value(self, ev: tuple[A.EnumItem, A.Variant], line: int) -> Code:
        en, v = ev
        if v.kind == "unit":
            val = EnumVal(en.name, v.name)
            return lambda fr: val
        n = len(v.fields)
        ename, vname = en.name, v.name
        clo = Closure(lambda *a: EnumVal(ename, vname, tuple(a)), n)
        return lambda fr: clo

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
        leaves: list[tuple[A.Expr, Scope]] = []
        stack: list[tuple[A.Expr, Scope]] = [(e, sc)]
        while stack:
            x, s = stack.pop()
            if isinstance(x, A.Binary) and x.op == op:
                # `x matches P(v) && f(v)`: the pattern's names are in scope on the right
                s2 = s.child() if op == "&&" and isinstance(x.l, A.Matches) else s
                stack.append((x.r, s2))
                stack.append((x.l, s2))
            else:
                leaves.append((x, s))
        if len(leaves) == 2:
            return self.logic(op, e.l, e.r, sc, e.line)
        codes = [(self.expr(x, s), x.line) for x, s in leaves]
        decisive = op == "||"

        def junction(fr: list[Any]) -> Any:
            pending: Undef | None = None
            for c, ln in codes:
                try:
                    v = c(fr)
                    if v is not True and v is not False:
                        _truth(v, ln)
                except Undef as u:
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
        prem: list[tuple[Code, int]] = []
        for p in premises:
            if isinstance(p, A.Matches):
                s = s.child()
            prem.append((self.expr(p, s), p.line))
        cc = self.expr(concl, s)
        line = e.line

        def implies_chain(fr: list[Any]) -> Any:
            pending: Undef | None = None
            for c, ln in prem:
                try:
                    a = c(fr)
                except Undef as u:
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
        if isinstance(l_, A.Matches) and op in ("&&", "==>"):
            rsc = sc.child()
        lc = self.expr(l_, rsc) if rsc is not sc else self.expr(l_, sc)
        rc = self.expr(r_, rsc)
        if op == "&&":
            def and_(fr: list[Any]) -> Any:
                try:
                    a = lc(fr)
                except Undef as u:
                    if rc(fr) is False:
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
                    if rc(fr) is True:
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

    def c_Is(self, e: A.Is, sc: Scope) -> Code:
        x = self.expr(e.e, sc)
        name, line = e.variant, e.line

        def is_(fr: list[Any]) -> Any:
            v = x(fr)
            if type(v) is not EnumVal:
                raise Undef(f"'is {name}' on a non-enum value {show(v)}", line)
            return v.variant == name
        return is_

    def c_Matches(self, e: A.Matches, sc: Scope) -> Code:
        x = self.expr(e.e, sc)
        m = self.pattern(e.pat, sc)
        return lambda fr: m(x(fr), fr)

    def c_Call(self, e: A.Call, sc: Scope) -> Code:
        args = [self.expr(a, sc) for a in e.args]
        line = e.line
        f = e.func
        if isinstance(f, A.Path):
            segs = f.segs
            name = segs[-1]
            local = sc.lookup(name) if len(segs) == 1 else None
            if local is None:
                fc = None
                if len(segs) == 1 or segs[0] in ("Self", "crate", "self", "super"):
                    fc = self.fns.get(name)
                    if fc is None and segs[0] == "Self":
                        for tbl in (self.methods.get(name, {}),):
                            fc = next(iter(tbl.values()), None)
                elif len(segs) == 2 and segs[0] in self.structs | self.enums:
                    fc = self.methods.get(name, {}).get(segs[0])
                if fc is not None:
                    if len(args) != len(fc.item.params):
                        raise CompileError(f"{name} takes {len(fc.item.params)} arguments but "
                                           f"{len(args)} were given", line)
                    call = self.caller(fc, line)
                    return call_code(call, args)
                if name == "old" and len(segs) == 1 and self.allow_old and len(args) == 1:
                    return args[0]  # pre-state of a &mut argument (corpus tools only)
                if name == "Some" and len(segs) == 1:
                    a0 = args[0]
                    return lambda fr: some(a0(fr))
                if name == "__repeat":
                    a0, a1 = args

                    def rep(fr: list[Any]) -> Any:
                        n = a1(fr)
                        if type(n) is not int or n < 0:
                            raise Undef("bad repeat count", line)
                        check_elems(n, f"array repetition at line {line}")
                        B.work(n, B.COPY)
                        B.alloc(n, 8, f"array repetition at line {line}")
                        return (a0(fr),) * n
                    return rep
                # enum tuple variants and tuple structs
                ev = None
                if len(segs) >= 2 and segs[-2] in self.enums:
                    ev = next(((self.enums[segs[-2]], v) for v in
                               self.enums[segs[-2]].variants if v.name == name), None)
                elif name in self.variants and (len(segs) == 1 or segs[-2] == "Self"):
                    ev = self.variants[name]
                if ev is not None:
                    ename, vname = ev[0].name, ev[1].name
                    return lambda fr: EnumVal(ename, vname, tuple(a(fr) for a in args))
                if len(segs) == 1 and name in self.structs and self.structs[name].tuple_struct:
                    st = self.structs[name]
                    fnames = [fn for fn, _ in st.fields]
                    return lambda fr: StructVal(name, {k: a(fr) for k, a in
                                                       zip(fnames, args, strict=True)})
                sf = B.static_call(segs)
                if sf is None and (len(segs) == 1 or segs[0] == "vstd") and name in B.FREE_FNS:
                    sf = B.FREE_FNS[name]
                if sf is not None:
                    return call_code(sf, args)
                if len(segs) == 1:
                    raise CompileError(f"cannot find function {name!r}", line)
                return self.unsupported_code(f"function {'::'.join(segs)}", line)
        fcode = self.expr(f, sc)

        def dyn_call(fr: list[Any]) -> Any:
            fn = fcode(fr)
            if not callable(fn):
                raise Undef(f"cannot call {show(fn)}", line)
            return fn(*[a(fr) for a in args])
        return dyn_call

    def c_MethodCall(self, e: A.MethodCall, sc: Scope) -> Code:
        recv = self.expr(e.recv, sc)
        args = [self.expr(a, sc) for a in e.args]
        name, line = e.name, e.line
        user = self.methods.get(name, {})
        user_calls = {t: self.caller(fc, line) for t, fc in user.items()}
        known = name in B.ALL_METHOD_NAMES or bool(user)
        if not known:
            self.unsupported.append((f"method {name}", line))
        if name == "len" and not user:
            def length(fr: list[Any]) -> Any:
                v = recv(fr)
                if type(v) is tuple:
                    return len(v)
                return generic(v, fr)
        nargs = len(args)

        def generic(v: Any, fr: list[Any]) -> Any:
            t = type(v)
            if user_calls and (t is StructVal or t is EnumVal):
                tn = v.name if t is StructVal else v.enum
                c = user_calls.get(tn)
                if c is not None:
                    return c(v, *[a(fr) for a in args])
            table = B.METHODS.get(kind_of(v))
            fn = table.get(name) if table else None
            if fn is None:
                raise Undef(f"unsupported: method {name} on {kind_of(v)}", line)
            try:
                return fn(v, *[a(fr) for a in args])
            except Undef as u:
                if "(line" not in u.reason:
                    u.reason += f" (line {line})"
                raise
            except (TypeError, ValueError, AttributeError, KeyError) as x:
                raise Undef(f"method {name} failed on {show(v)}: {x}", line) from None
        if name == "len" and not user:
            return length
        if name in ("spec_index", "index") and nargs == 1 and not user:
            a0 = args[0]

            def index_m(fr: list[Any]) -> Any:
                v = recv(fr)
                i = a0(fr)
                if type(v) is tuple and type(i) is int and 0 <= i < len(v):
                    return v[i]
                try:
                    return B.seq_index(v, i)
                except Undef as u:
                    raise Undef(u.reason, line) from None
            return index_m
        return lambda fr: generic(recv(fr), fr)

    def c_Field(self, e: A.Field, sc: Scope) -> Code:
        x = self.expr(e.e, sc)
        name, line = e.name, e.line
        if name.isdigit():
            k = int(name)

            def tfield(fr: list[Any]) -> Any:
                v = x(fr)
                if type(v) is Tup and k < len(v):
                    return v[k]
                if type(v) is StructVal and name in v.d:
                    return v.d[name]
                if type(v) is EnumVal:
                    return v.field(name)
                raise Undef(f"no field .{name} on {show(v)}", line)
            return tfield

        def field_(fr: list[Any]) -> Any:
            v = x(fr)
            if type(v) is StructVal:
                try:
                    return v.d[name]
                except KeyError:
                    raise Undef(f"no field {name} on struct {v.name}", line) from None
            if type(v) is EnumVal:
                return v.field(name)
            raise Undef(f"no field {name} on {show(v)}", line)
        return field_

    def c_Arrow(self, e: A.Arrow, sc: Scope) -> Code:
        x = self.expr(e.e, sc)
        name, line = e.name, e.line

        def arrow(fr: list[Any]) -> Any:
            v = x(fr)
            if type(v) is EnumVal:
                return v.field(name)
            if type(v) is StructVal and name in v.d:
                return v.d[name]
            raise Undef(f"'->{name}' on {show(v)}", line)
        return arrow

    def c_Index(self, e: A.Index, sc: Scope) -> Code:
        x = self.expr(e.e, sc)
        ic = self.expr(e.idx, sc)
        line = e.line

        def index(fr: list[Any]) -> Any:
            v = x(fr)
            i = ic(fr)
            if type(v) is tuple and type(i) is int and 0 <= i < len(v):
                return v[i]
            try:
                return B.seq_index(v, i)
            except Undef as u:
                raise Undef(u.reason, line) from None
        return index

    def c_View(self, e: A.View, sc: Scope) -> Code:
        ty = self.static_type_ref(e.e, sc)
        if ty is not None and ty.name in SPEC_ONLY_TYPES and ty.path != ("array",):
            # vstd's view.rs implements View for exec types (Vec, slices, String, ...), never
            # for the spec types themselves: rustc rejects `s@` on a Seq. A slice or array
            # (`&[u8]`, `[T; N]`, parsed as a Seq marked "array") views as its Seq
            # (vstd slice.rs, array.rs), which is the value itself here.
            raise CompileError(f"`@` on a value of type {ty}: {ty.name} has no View (only exec "
                               "types such as Vec have one; use the value itself)", e.line)
        return self.expr(e.e, sc)

    def c_Tuple(self, e: A.Tuple, sc: Scope) -> Code:
        cs = [self.expr(x, sc) for x in e.elems]
        return lambda fr: Tup(c(fr) for c in cs)

    def c_ArrayLit(self, e: A.ArrayLit, sc: Scope) -> Code:
        cs = [self.expr(x, sc) for x in e.elems]
        return lambda fr: tuple(c(fr) for c in cs)

    def c_MacroCall(self, e: A.MacroCall, sc: Scope) -> Code:
        cs = [self.expr(x, sc) for x in e.args]
        if e.name in ("seq", "vec"):
            return lambda fr: tuple(c(fr) for c in cs)
        if e.name == "set":
            return lambda fr: frozenset(c(fr) for c in cs)
        if e.name == "map":
            ps = [(self.expr(k, sc), self.expr(v, sc)) for k, v in e.pairs]
            return lambda fr: FMap((k(fr), v(fr)) for k, v in ps)
        return self.unsupported_code(f"macro {e.name}!", e.line)

    def c_StructLit(self, e: A.StructLit, sc: Scope) -> Code:
        segs = e.path.segs
        fields = [(n, self.expr(x, sc)) for n, x in e.fields]
        base = self.expr(e.base, sc) if e.base is not None else None
        line = e.line
        name = segs[-1]
        ev = None
        if len(segs) >= 2 and segs[-2] in self.enums:
            ev = next(((self.enums[segs[-2]], v) for v in self.enums[segs[-2]].variants
                       if v.name == name), None)
        elif name in self.variants and name not in self.structs:
            ev = self.variants[name]
        if ev is not None:
            ename, var = ev[0].name, ev[1]
            names = tuple(n for n, _ in var.fields)

            def mk_variant(fr: list[Any]) -> Any:
                d = {n: c(fr) for n, c in fields}
                try:
                    return EnumVal(ename, var.name, tuple(d[n] for n in names), names)
                except KeyError as k:
                    raise Undef(f"missing field {k}", line) from None
            return mk_variant
        sname = name if name != "Self" else (segs[0] if len(segs) > 1 else name)
        if sname not in self.structs:
            raise CompileError(f"cannot find struct {sname!r}", line)

        def mk_struct(fr: list[Any]) -> Any:
            d = dict(base(fr).d) if base is not None else {}
            for n, c in fields:
                d[n] = c(fr)
            return StructVal(sname, d)
        return mk_struct

    def c_Range(self, e: A.Range, sc: Scope) -> Code:
        return self.unsupported_code("range expression", e.line)

    def c_If(self, e: A.If, sc: Scope) -> Code:
        if isinstance(e.els, A.If):
            return self.if_chain(e, sc)
        line = e.line
        if e.let_pat is not None:
            scrut = self.expr(e.cond, sc)
            inner = sc.child()
            m = self.pattern(e.let_pat, inner)
            then = self.expr(e.then, inner)
            els = self.expr(e.els, sc) if e.els is not None else (lambda fr: None)

            def iflet(fr: list[Any]) -> Any:
                return then(fr) if m(scrut(fr), fr) else els(fr)
            return iflet
        cond = self.expr(e.cond, sc)
        then = self.expr(e.then, sc)
        els = self.expr(e.els, sc) if e.els is not None else (lambda fr: None)

        def if_(fr: list[Any]) -> Any:
            c = cond(fr)
            if c is True:
                return then(fr)
            if c is False:
                return els(fr)
            return then(fr) if _truth(c, line) else els(fr)
        return if_

    def if_chain(self, e: A.If, sc: Scope) -> Code:
        """``if a {..} else if b {..} ... else {..}`` as one loop over its links (a chain of
        10,000 ``else if`` costs no recursion per link)."""
        arms: list[tuple[Code, Callable[[Any, list[Any]], bool] | None, Code, int]] = []
        node: A.Expr | None = e
        while isinstance(node, A.If):
            if node.let_pat is not None:
                scrut = self.expr(node.cond, sc)
                inner = sc.child()
                m = self.pattern(node.let_pat, inner)
                arms.append((scrut, m, self.expr(node.then, inner), node.line))
            else:
                arms.append((self.expr(node.cond, sc), None, self.expr(node.then, sc),
                             node.line))
            node = node.els
        els = self.expr(node, sc) if node is not None else (lambda fr: None)

        def if_chain(fr: list[Any]) -> Any:
            for cond, m, then, ln in arms:
                if m is not None:
                    if m(cond(fr), fr):
                        return then(fr)
                    continue
                c = cond(fr)
                if c is True or (c is not False and _truth(c, ln)):
                    return then(fr)
            return els(fr)
        return if_chain

    def c_Match(self, e: A.Match, sc: Scope) -> Code:
        scrut = self.expr(e.scrut, sc)
        arms = []
        for arm in e.arms:
            inner = sc.child()
            m = self.pattern(arm.pat, inner)
            g = self.expr(arm.guard, inner) if arm.guard is not None else None
            arms.append((m, g, self.expr(arm.body, inner)))
        line = e.line

        def match(fr: list[Any]) -> Any:
            v = scrut(fr)
            for m, g, body in arms:
                if m(v, fr) and (g is None or _truth(g(fr), line)):
                    return body(fr)
            raise Undef(f"no match arm for {show(v)}", line)
        return match

    def c_Block(self, e: A.Block, sc: Scope) -> Code:
        inner = sc.child()
        steps: list[tuple[Any, Code]] = []
        for st in e.stmts:
            if isinstance(st, A.Let):
                if st.init is None:
                    continue
                init = self.expr(st.init, inner)
                if isinstance(st.pat, A.PBind) and st.pat.sub is None:
                    slot = inner.bind(st.pat.name, st.ty)
                    steps.append((slot, init))
                else:
                    m = self.pattern(st.pat, inner)
                    steps.append((m, init))
            # expression statements (assert, proof blocks) have no value in spec code
        tail = self.expr(e.tail, inner) if e.tail is not None else (lambda fr: None)
        if not steps:
            return tail

        def block(fr: list[Any]) -> Any:
            for tgt, init in steps:
                if type(tgt) is int:
                    fr[tgt] = init(fr)
                else:
                    tgt(init(fr), fr)
            return tail(fr)
        return block

    def c_Closure(self, e: A.Closure, sc: Scope) -> Code:
        inner = sc.child()
        slots: list[int] = []
        pats: list[tuple[int, Any]] = []
        for p, ty in e.params:
            if isinstance(p, A.PBind) and p.sub is None:
                slots.append(inner.bind(p.name, ty))
            else:
                s = inner.counter[0]
                inner.counter[0] += 1
                slots.append(s)
                pats.append((s, self.pattern(p, inner)))
        body = self.expr(e.body, inner)
        n = len(slots)
        line = e.line
        prog = self

        def make(fr: list[Any]) -> Any:
            # Capture: the closure may outlive this activation (returned from a closure or a
            # spec fn), whose slots are then restored or reused. Values are immutable, so a
            # shallow copy of the frame is an exact capture.
            fr = fr.copy()

            def call(*args: Any) -> Any:
                if len(args) != n:
                    raise Undef(f"closure takes {n} arguments, got {len(args)}", line)
                b = prog.budget
                b.steps += 1
                if b.steps & 1023 == 0:
                    b.tick(0)
                saved = [fr[s] for s in slots]
                for s, a in zip(slots, args, strict=True):
                    fr[s] = a
                try:
                    for s, m in pats:
                        m(fr[s], fr)
                    return body(fr)
                finally:
                    for s, old in zip(slots, saved, strict=True):
                        fr[s] = old
            return Closure(call, n)
        return make

    def c_Quant(self, e: A.Quant, sc: Scope) -> Code:
        return compile_quant(self, e, sc)

    # ------------------------------------------------------------ patterns
    def pattern(self, p: A.Pat, sc: Scope) -> Callable[[Any, list[Any]], bool]:
        """Compile a pattern into ``match(value, frame) -> bool`` binding slots on success."""
        if isinstance(p, A.PWild):
            return lambda v, fr: True
        if isinstance(p, A.PBind):
            if p.name in self.variants and p.sub is None:
                return self.pattern(A.PVariant(p.line, (p.name,)), sc)
            slot = sc.bind(p.name)
            if p.sub is not None:
                subm = self.pattern(p.sub, sc)

                def bind_at(v: Any, fr: list[Any]) -> bool:
                    if subm(v, fr):
                        fr[slot] = v
                        return True
                    return False
                return bind_at

            def bind(v: Any, fr: list[Any]) -> bool:
                fr[slot] = v
                return True
            return bind
        if isinstance(p, A.PLit):
            lit = p.value
            return lambda v, fr: v == lit and type(v) is type(lit)
        if isinstance(p, A.PRange):
            lo, hi, incl = p.lo, p.hi, p.inclusive

            ends = [x for x in (lo, hi) if x is not None]
            line = p.line

            def rng(v: Any, fr: list[Any]) -> bool:
                if type(v) not in (int, str) or any(type(x) is not type(v) for x in ends):
                    raise Undef(f"range pattern cannot match {show(v)}", line)
                if lo is not None and v < lo:
                    return False
                return not (hi is not None and (v > hi if incl else v >= hi))
            return rng
        if isinstance(p, A.POr):
            alts = [self.pattern(a, sc) for a in p.alts]
            return lambda v, fr: any(a(v, fr) for a in alts)
        if isinstance(p, A.PTuple):
            subs = self.seq_patterns(p.elems, sc)

            def tup(v: Any, fr: list[Any]) -> bool:
                return subs(tuple(v), fr)
            return tup
        if isinstance(p, A.PVariant):
            return self.variant_pattern(p, sc)
        raise CompileError(f"unsupported pattern {type(p).__name__}", p.line)

    def seq_patterns(self, elems: list[A.Pat], sc: Scope) -> Callable[[tuple, list[Any]], bool]:
        rest = next((k for k, q in enumerate(elems) if isinstance(q, A.PWild) and q.rest), None)
        if rest is None:
            ms = [self.pattern(q, sc) for q in elems]
            n = len(ms)

            def all_(vals: tuple, fr: list[Any]) -> bool:
                return len(vals) == n and all(m(x, fr) for m, x in zip(ms, vals, strict=True))
            return all_
        before = [self.pattern(q, sc) for q in elems[:rest]]
        after = [self.pattern(q, sc) for q in elems[rest + 1:]]

        def with_rest(vals: tuple, fr: list[Any]) -> bool:
            if len(vals) < len(before) + len(after):
                return False
            ok = all(m(x, fr) for m, x in zip(before, vals, strict=False))
            tail = vals[len(vals) - len(after):] if after else ()
            return ok and all(m(x, fr) for m, x in zip(after, tail, strict=True))
        return with_rest

    def variant_pattern(self, p: A.PVariant, sc: Scope) -> Callable[[Any, list[Any]], bool]:
        name = p.path[-1]
        line = p.line
        is_struct = name in self.structs or (name == "Self" and False)
        if p.fields is not None:
            fms = [(f, self.pattern(q, sc)) for f, q in p.fields]
            if is_struct:
                def st(v: Any, fr: list[Any]) -> bool:
                    return type(v) is StructVal and all(m(v.d.get(f), fr) for f, m in fms)
                return st

            def sv(v: Any, fr: list[Any]) -> bool:
                if type(v) is not EnumVal or v.variant != name:
                    return False
                return all(m(v.field(f), fr) for f, m in fms)
            return sv
        if p.elems is not None:
            subs = self.seq_patterns(p.elems, sc)
            if name in self.structs:
                fnames = [f for f, _ in self.structs[name].fields]

                def tst(v: Any, fr: list[Any]) -> bool:
                    return type(v) is StructVal and subs(tuple(v.d[f] for f in fnames), fr)
                return tst

            def tv(v: Any, fr: list[Any]) -> bool:
                return type(v) is EnumVal and v.variant == name and subs(v.vals, fr)
            return tv
        if name not in self.variants and name not in ("None",):
            if len(p.path) == 1:  # an upper-case binding name
                return self.pattern(A.PBind(line, name), sc)
            raise CompileError(f"cannot find variant {name!r} in pattern", line)
        return lambda v, fr: type(v) is EnumVal and v.variant == name

    # ------------------------------------------------------------ static types (light)
    def static_type(self, e: A.Expr, sc: Scope) -> str | None:
        """The written type name of ``e`` where it is evident (only for ``!`` and ``<<``)."""
        if isinstance(e, A.Path) and len(e.segs) == 1:
            r = sc.lookup(e.segs[0])
            return r[1].name if r and r[1] else None
        if isinstance(e, A.Cast):
            return e.ty.name
        if isinstance(e, A.Lit) and e.kind == "int":
            return e.suffix
        if isinstance(e, A.Field):
            st = self.static_type(e.e, sc)
            if st in self.structs:
                for f, t in self.structs[st].fields:
                    if f == e.name:
                        return t.name
            return None
        if isinstance(e, A.Binary) and e.op in BIT_OPS:
            spine: list[A.Binary] = []
            node: A.Expr = e
            while isinstance(node, A.Binary) and node.op in BIT_OPS:
                spine.append(node)
                node = node.l
            ty = self.static_type(node, sc)
            for b in reversed(spine):  # innermost first, without recursion per link
                ty = ty or (self.static_type(b.r, sc) if b.op in "&|^" else None)
            return ty
        if isinstance(e, A.Call) and isinstance(e.func, A.Path):
            fc = self.fns.get(e.func.segs[-1])
            if fc and fc.item.ret_type:
                return fc.item.ret_type.name
        if isinstance(e, A.Index):
            ref = self.static_type_ref(e.e, sc)
            if ref and ref.args:
                return ref.args[0].name
        return None

    def static_type_ref(self, e: A.Expr, sc: Scope) -> A.TypeRef | None:
        if isinstance(e, A.Path) and len(e.segs) == 1:
            r = sc.lookup(e.segs[0])
            return r[1] if r else None
        if isinstance(e, A.View):
            return self.static_type_ref(e.e, sc)
        if isinstance(e, A.Field):
            st = self.static_type(e.e, sc)
            if st in self.structs:
                for f, t in self.structs[st].fields:
                    if f == e.name:
                        return t
        return None


A_CMP = ("==", "!=", "===", "!==", "<", "<=", ">", ">=", "=~=", "=~~=")
LEFT_OPS = ("+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>")
BIT_OPS = ("&", "|", "^", "<<", ">>")


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


def call_code(f: Callable[..., Any], args: list[Code]) -> Code:
    n = len(args)
    if n == 0:
        return lambda fr: f()
    if n == 1:
        a0 = args[0]
        return lambda fr: f(a0(fr))
    if n == 2:
        a0, a1 = args
        return lambda fr: f(a0(fr), a1(fr))
    return lambda fr: f(*[a(fr) for a in args])


__all__ = ["Abort", "Budget", "CompileError", "Program", "Scope", "Undef", "MSet", "StructVal",
           "Tup", "EnumVal"]
