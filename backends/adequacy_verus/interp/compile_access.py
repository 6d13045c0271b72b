"""Compiling names, literals, calls, fields, indexing, views, tuples, struct and array
literals: what reads a value or builds one."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from adequacy.plugin import INT_WIDTHS

from ..syntax import ast as A
from . import builtins as B
from .compile_base import Compiling
from .runtime import Code, CompileError, Scope
from .values import (
    NONE,
    Closure,
    EnumVal,
    FMap,
    StructVal,
    Tup,
    Undef,
    check_elems,
    kind_of,
    show,
    some,
)

#: Spec-only types: vstd has no ``View`` impl for them, so ``x@`` does not type-check.
SPEC_ONLY_TYPES = frozenset({"Seq", "Set", "Map", "Multiset", "SpecString"})


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


class Access(Compiling):
    """The access half of ``Program`` (a mixin: ``compiler.Program`` joins them)."""

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
