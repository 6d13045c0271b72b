"""Compiling control: ``if``, ``match``, blocks with ``let``, closures, quantifiers (through
``quant``), patterns, and the static types the other compilers ask about."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..syntax import ast as A
from .compile_base import Compiling
from .compile_ops import BIT_OPS
from .quant import compile_quant
from .runtime import Code, CompileError, Scope
from .runtime import truth as _truth
from .values import (
    Closure,
    EnumVal,
    StructVal,
    Undef,
    show,
)


class Control(Compiling):
    """The control half of ``Program`` (a mixin: ``compiler.Program`` joins them)."""

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
