"""Type-check spec code the way Verus (rustc plus Verus's spec-mode rules) would.

The checker infers a type for every expression and reports only what it is sure Verus
rejects: a name, field, method or variant that does not exist, a wrong number of arguments, a
value of one kind where another is needed (an ``int`` where a ``bool`` is, a ``Seq`` compared
with an integer), a non-exhaustive ``match``. Where it is not sure (generics, exec types,
integer widths that Verus's spec mode may coerce) the type is ``?`` and nothing is reported:
a valid spec called invalid is as wrong as an ill-typed spec scored. docs/verus.md lists the
rules checked and those left to Verus.
"""

from __future__ import annotations

from adequacy.plugin import SpecInvalid

from ..syntax import ast as A
from . import primitive_methods
from . import types as Ty
from .patterns import PatternChecker
from .scope import Module, Scope
from .scope import err as _err
from .scope import plural as _plural
from .types import BOOL, CHAR, INT, INTLIT, UNIT, UNKNOWN, T, compatible, is_int, known, show
from .vstd_api import FREE_FNS

#: Type-level integer widening of spec arithmetic (Verus guide, "Integer types"): ``+ - *``
#: on any integer types give ``int``; ``/ %`` keep ``int`` too in spec code.
ARITH = ("+", "-", "*", "/", "%")
LOGIC = ("&&", "||", "==>", "<==", "<==>")
ORDER = ("<", "<=", ">", ">=")
EQ = ("==", "!=", "===", "!==", "=~=", "=~~=")
#: Types whose values are ordered in spec code (integers, char) or have ``spec_le``.
ORDERED_COLLECTIONS = frozenset({"Set", "Map", "Multiset"})


__all__ = ["Checker", "Module", "Scope"]


class Checker(PatternChecker):
    """Expressions and items; patterns and type look-ups come from ``PatternChecker``."""

    def expect(self, e: A.Expr, want: T, sc: Scope, what: str = "") -> T:
        got = self.expr(e, sc, want)
        if not compatible(got, want):
            where = f" ({what})" if what else ""
            raise _err(f"mismatched types{where}: expected `{show(want)}`, found `{show(got)}`",
                       "E0308", e.line)
        return got

    def expect_bool(self, e: A.Expr, sc: Scope, what: str = "") -> None:
        self.expect(e, BOOL, sc, what)


    # ------------------------------------------------------------ items
    def check_fn(self, fn: A.FnItem) -> None:
        self.callees: list[A.FnItem] = []
        """The spec's own functions the body calls (resolved as rustc resolves them)."""
        self.in_body = False
        self.generics = frozenset(g.split(":")[0].strip() for g in fn.generics)
        self.self_type = fn.self_type
        sc = Scope()
        for p in fn.params:
            sc.vars[p.name] = self.ty(p.ty)
            if p.pat is not None:
                self.pattern(p.pat, self.ty(p.ty), sc)
        for r in fn.requires:
            self.expect_bool(r, sc, "a `requires` clause")
        for r in fn.recommends:
            self.expect_bool(r, sc, "a `recommends` clause")
        for d in fn.decreases:
            self.expr(d, sc)
        ret = self.ty(fn.ret_type) if fn.ret_type is not None else UNIT
        if fn.ensures:
            esc = Scope(sc)
            if fn.ret_name:
                esc.vars[fn.ret_name] = ret
            saved, self.allow_old = self.allow_old, self.allow_old or fn.mode != "spec"
            try:
                for r in fn.ensures:
                    self.expect_bool(r, esc, "an `ensures` clause")
            finally:
                self.allow_old = saved
        if fn.body is not None and fn.mode == "spec":
            self.in_body = True
            got = self.expr(fn.body, sc, ret)
            self.in_body = False
            if not compatible(got, ret):
                line = _tail_line(fn.body)
                raise _err(f"mismatched types: spec fn `{fn.name}` returns `{show(ret)}`, but "
                           f"its body is `{show(got)}`", "E0308", line)

    # ------------------------------------------------------------ expressions
    def expr(self, e: A.Expr, sc: Scope, want: T = UNKNOWN) -> T:
        meth = getattr(self, "e_" + type(e).__name__, None)
        if meth is None:
            return UNKNOWN
        r: T = meth(e, sc, want)
        return r

    def e_Lit(self, e: A.Lit, sc: Scope, want: T) -> T:
        if e.kind == "int":
            if e.suffix in Ty.FIXED and isinstance(e.value, int):
                _literal_fits(e.value, e.suffix, e.line)
            return T(e.suffix) if e.suffix in Ty.INTS else (
                T(e.suffix) if e.suffix else INTLIT)
        if e.kind == "bool":
            return BOOL
        if e.kind == "char":
            return CHAR
        if e.kind == "unit":
            return UNIT
        if e.kind == "float":
            return T(e.suffix) if e.suffix else T("{float}")
        return UNKNOWN  # string literals: &str / SpecString by context

    def e_Path(self, e: A.Path, sc: Scope, want: T) -> T:
        segs = e.segs
        if len(segs) == 1:
            name = segs[0]
            t = sc.get(name)
            if t is not None:
                return t
            if name == "None":
                return T("Option", [want.args[0] if want.name == "Option" and want.args
                                    else UNKNOWN])
            if name in self.m.variants:
                return self._variant_value(self.m.variants[name][0], e)
            if name in self.m.fns or name in self.m.other_names or name in FREE_FNS:
                return UNKNOWN  # a function as a value, a const
            if name in self.m.structs:  # unit struct
                return T(name)
            if name in ("self", "Self") or name[:1].isupper():
                return UNKNOWN
            raise _err(f"cannot find value `{name}` in this scope", "E0425", e.line)
        owner = segs[-2]
        if owner in self.m.enums:
            en = self.m.enums[owner]
            v = next((v for v in en.variants if v.name == segs[-1]), None)
            if v is None:
                raise _err(f"no variant named `{segs[-1]}` found for enum `{owner}`", "E0599",
                           e.line)
            return self._variant_value((en, v), e)
        if owner == "Option" and segs[-1] == "None":
            return T("Option", [UNKNOWN])
        return UNKNOWN

    def _variant_value(self, ev: tuple[A.EnumItem, A.Variant], e: A.Expr) -> T:
        en, v = ev
        if v.kind == "tuple":
            return UNKNOWN  # a constructor as a function value
        if v.kind == "struct":
            raise _err(f"expected value, found struct variant `{en.name}::{v.name}`", "E0533",
                       e.line)
        return T(en.name, [UNKNOWN] * len(en.generics))

    def e_Unary(self, e: A.Unary, sc: Scope, want: T) -> T:
        t = self.expr(e.e, sc)
        if e.op == "!":
            if known(t) and t.name != "bool" and not is_int(t):
                raise _err(f"cannot apply unary operator `!` to type `{show(t)}`", "E0600",
                           e.line)
            return t
        if e.op == "-":
            if known(t) and not is_int(t) and t.name not in Ty.FLOATS:
                raise _err(f"cannot apply unary operator `-` to type `{show(t)}`", "E0600",
                           e.line)
            return INT if is_int(t) and t.name != "{integer}" else t
        return t

    def e_Binary(self, e: A.Binary, sc: Scope, want: T) -> T:
        op = e.op
        if op in LOGIC:
            # a long ==> / && chain is iterative on the right and the left
            if op == "==>":
                self._implication(e, sc)
                return BOOL
            cur = sc
            for x in _logic_operands(e):
                if op == "&&" and isinstance(x, A.Matches) and x.binds:
                    # Verus parses the rest of the && chain as the matches' right-hand side
                    # (guide: reference-matches.md), so its names are in scope after it
                    cur = self._bind_matches(x, cur)
                else:
                    self.expect_bool(x, cur, f"an operand of `{op}`")
            return BOOL
        if op not in EQ and op not in ORDER:
            return self._arith_chain(e, sc)
        lt = self.expr(e.l, sc)
        rt = self.expr(e.r, sc, lt if known(lt) else UNKNOWN)
        self._compare(op, lt, rt, e.line)
        return BOOL

    def _arith_chain(self, e: A.Binary, sc: Scope) -> T:
        """``a + b - c * d ...``: the parser builds long left-leaning chains of these (no
        nesting depth is charged for them), so the spine is walked in a loop."""
        spine: list[A.Binary] = []
        node: A.Expr = e
        while isinstance(node, A.Binary) and node.op not in LOGIC and node.op not in EQ \
                and node.op not in ORDER:
            spine.append(node)
            node = node.l
        lt = self.expr(node, sc)
        for b in reversed(spine):
            rt = self.expr(b.r, sc, lt if known(lt) else UNKNOWN)
            lt = self._arith(b.op, lt, rt, b.line) if b.op in ARITH else \
                self._bits(b.op, lt, rt, b.line)
        return lt

    def _bits(self, op: str, lt: T, rt: T, line: int) -> T:
        """``& | ^ << >>``."""
        if lt.name == "bool" and rt.name == "bool" and op in ("&", "|", "^"):
            return BOOL
        for t in (lt, rt):
            if known(t) and not is_int(t) and t.name != "bool" and t.name not in Ty.EXEC_TYPES \
                    and t.name not in ORDERED_COLLECTIONS:
                raise _err(f"no implementation for `{show(lt)} {op} {show(rt)}`", "E0369",
                           line)
        return lt if is_int(lt) and lt.name != "{integer}" else rt if is_int(rt) else UNKNOWN

    def _compare(self, op: str, lt: T, rt: T, line: int) -> None:
        if not compatible(lt, rt):
            raise _err(f"mismatched types: can't compare `{show(lt)}` with `{show(rt)}`",
                       "E0308", line)
        if op in ORDER:
            for t in (lt, rt):
                if known(t) and not (is_int(t) or t.name in Ty.FLOATS or t.name == "char"
                                     or t.name in ORDERED_COLLECTIONS
                                     or t.name in Ty.EXEC_TYPES):
                    raise _err(f"binary operation `{op}` cannot be applied to type "
                               f"`{show(t)}`", "E0369", line)

    def _arith(self, op: str, lt: T, rt: T, line: int) -> T:
        if is_int(lt) and is_int(rt):
            if lt.name == rt.name == "{integer}":
                return INTLIT
            return INT  # spec arithmetic on integers is int (Verus guide, integers)
        if not known(lt) or not known(rt):
            return UNKNOWN
        if lt.name in Ty.FLOATS or rt.name in Ty.FLOATS:
            return lt if lt.name != "{float}" else rt
        if op == "+" and lt.name == rt.name and lt.name in ("Seq", "Set") \
                and compatible(lt, rt):
            return lt
        if op in ("-", "*") and lt.name == rt.name == "Set" and compatible(lt, rt):
            return lt
        if lt.name in Ty.EXEC_TYPES or rt.name in Ty.EXEC_TYPES:
            return UNKNOWN
        raise _err(f"cannot apply `{op}` to `{show(lt)}` and `{show(rt)}` (no implementation "
                   f"for `{show(lt)} {op} {show(rt)}`)", "E0369", line)

    def e_Chain(self, e: A.Chain, sc: Scope, want: T) -> T:
        ts = [self.expr(x, sc) for x in e.operands]
        for k, op in enumerate(e.ops):
            self._compare(op, ts[k], ts[k + 1], e.operands[k + 1].line)
        return BOOL

    def e_Cast(self, e: A.Cast, sc: Scope, want: T) -> T:
        src = self.expr(e.e, sc)
        dst = self.ty(e.ty)
        castable = Ty.INTS | Ty.FLOATS | {"char", "bool"}
        prim_dst = dst.name in Ty.INTS | Ty.FLOATS | {"char"}
        if known(src) and known(dst) and src.name not in Ty.EXEC_TYPES and (
                (prim_dst and src.name not in castable)
                or (not prim_dst and dst.name not in Ty.EXEC_TYPES
                    and not compatible(src, dst))):
            raise _err(f"non-primitive cast: `{show(src)}` as `{show(dst)}`", "E0605", e.line)
        return dst

    def e_Is(self, e: A.Is, sc: Scope, want: T) -> T:
        t = self.expr(e.e, sc)
        self._check_variant_name(t, e.variant, e.line)
        return BOOL

    def e_Matches(self, e: A.Matches, sc: Scope, want: T) -> T:
        t = self.expr(e.e, sc)
        self.pattern(e.pat, t, Scope(sc))
        return BOOL

    def _bind_matches(self, e: A.Matches, sc: Scope) -> Scope:
        """Check ``e`` and return a scope holding its pattern's names."""
        t = self.expr(e.e, sc)
        inner = Scope(sc)
        self.pattern(e.pat, t, inner)
        return inner

    def _implication(self, e: A.Binary, sc: Scope) -> None:
        """``a ==> b ==> c`` is ``a ==> (b ==> c)``: a ``matches`` premise's names are in
        scope in everything to its right (guide: reference-matches.md)."""
        cur = sc
        node: A.Expr = e
        while isinstance(node, A.Binary) and node.op == "==>":
            if isinstance(node.l, A.Matches) and node.l.binds:
                cur = self._bind_matches(node.l, cur)
            else:
                self.expect_bool(node.l, cur, "an operand of `==>`")
            node = node.r
        self.expect_bool(node, cur, "an operand of `==>`")

    def _check_variant_name(self, t: T, name: str, line: int) -> None:
        if t.name == "Option":
            if name not in ("Some", "None"):
                raise _err(f"no variant named `{name}` found for enum `Option`", "E0599", line)
        elif t.name in self.m.enums and not any(v.name == name
                                                for v in self.m.enums[t.name].variants):
            raise _err(f"no variant named `{name}` found for enum `{t.name}`", "E0599", line)

    def e_Call(self, e: A.Call, sc: Scope, want: T) -> T:
        f = e.func
        if not isinstance(f, A.Path):
            ft = self.expr(f, sc)
            return self._call_value(ft, e, sc)
        segs = f.segs
        name = segs[-1]
        if len(segs) == 1:
            local = sc.get(name)
            if local is not None:
                return self._call_value(local, e, sc)
            if name == "old":
                if len(e.args) != 1:
                    raise _err(f"`old` takes 1 argument but {len(e.args)} were supplied",
                               "E0061", e.line)
                return self.expr(e.args[0], sc, want)
            if name == "Some":
                if len(e.args) != 1:
                    raise _err(f"this enum variant takes 1 argument but {len(e.args)} were "
                               "supplied", "E0061", e.line)
                inner = want.args[0] if want.name == "Option" and want.args else UNKNOWN
                return T("Option", [self.expr(e.args[0], sc, inner)])
            if name in self.m.fns:
                return self._call_fn(self.m.fns[name], e.args, sc, e.line, None)
            if name in self.m.variants:
                return self._construct_variant(self.m.variants[name][0], e, sc)
            if name in self.m.structs and self.m.structs[name].tuple_struct:
                return self._construct_tuple_struct(self.m.structs[name], e, sc)
            if name in FREE_FNS or name in self.m.other_names or name.startswith("__"):
                self._args_unchecked(e.args, sc)
                return UNKNOWN
            if name in ("Ok", "Err", "Box", "Ghost", "Tracked"):
                self._args_unchecked(e.args, sc)
                return UNKNOWN
            raise _err(f"cannot find function `{name}` in this scope", "E0425", e.line)
        owner = segs[-2]
        if owner in self.m.enums:
            en = self.m.enums[owner]
            v = next((v for v in en.variants if v.name == name), None)
            if v is not None:
                return self._construct_variant((en, v), e, sc)
        if owner in self.m.methods and name in self.m.methods[owner]:
            fn = self.m.methods[owner][name]
            return self._call_fn(fn, e.args, sc, e.line, None, owner=owner)
        if owner in self.m.enums or owner in self.m.structs:
            if owner in self.m.trait_impl_types:
                self._args_unchecked(e.args, sc)
                return UNKNOWN
            raise _err(f"no function or associated item named `{name}` found for "
                       f"`{owner}` in the current scope", "E0599", e.line)
        if owner in Ty.SPEC_COLLECTIONS:
            sigs = Ty.methods(owner)
            sig = sigs.get(name)
            if sig is None:
                raise _err(f"no function or associated item named `{name}` found for struct "
                           f"`{owner}` in the current scope", "E0599", e.line)
            targs = [self.ty(g) for g in f.generics] if f.generics else []
            recv = T(owner, targs) if targs else (want if want.name == owner else T(owner))
            env = Ty.receiver_vars(recv)
            if not sig.static and sig.params is not None:
                # Seq::len(s): the receiver is the first argument
                return self._call_sig(sig, e.args[1:] if e.args else [], sc, e.line, env,
                                      f"{owner}::{name}", first=e.args[:1])
            return self._call_sig(sig, e.args, sc, e.line, env, f"{owner}::{name}")
        self._args_unchecked(e.args, sc)
        return UNKNOWN

    def _args_unchecked(self, args: list[A.Expr], sc: Scope) -> None:
        for a in args:
            self.expr(a, sc)

    def _call_value(self, ft: T, e: A.Call, sc: Scope) -> T:
        if ft.name == "spec_fn":
            params, ret = ft.args[:-1], ft.args[-1]
            if len(params) != len(e.args):
                raise _err(f"this function takes {_plural(len(params))} but "
                           f"{len(e.args)} were supplied", "E0057", e.line)
            for a, p in zip(e.args, params, strict=True):
                self.expect(a, p, sc, "a closure argument")
            return ret
        if known(ft) and ft.name not in Ty.EXEC_TYPES:
            raise _err(f"expected function, found `{show(ft)}`", "E0618", e.line)
        self._args_unchecked(e.args, sc)
        return UNKNOWN

    def _call_fn(self, fn: A.FnItem, args: list[A.Expr], sc: Scope, line: int,
                 recv: T | None, owner: str | None = None) -> T:
        if getattr(self, "in_body", False):
            self.callees.append(fn)  # the call graph Verus's termination check reads
        params = fn.params
        if recv is not None and fn.has_self:
            params = params[1:]
        if len(args) != len(params):
            kind = "method" if recv is not None else "function"
            raise _err(f"this {kind} `{fn.name}` takes {_plural(len(params))} but "
                       f"{len(args)} {'was' if len(args) == 1 else 'were'} supplied", "E0061",
                       line)
        saved = (self.generics, self.self_type)
        gvars = frozenset(g.split(":")[0].strip() for g in fn.generics)
        self.generics = gvars
        self.self_type = fn.self_type or owner
        try:
            if gvars and not gvars & (self.m.types | _BUILTIN_NAMES) and not fn.has_self:
                return self._call_generic(fn, params, args, gvars, sc)
            ptys = [self.ty(p.ty) for p in params]
            ret = self.ty(fn.ret_type) if fn.ret_type is not None else UNIT
        finally:
            self.generics, self.self_type = saved
        for a, pt in zip(args, ptys, strict=True):
            self.expect(a, pt, sc, f"an argument of `{fn.name}`")
        return ret

    def _call_generic(self, fn: A.FnItem, params: list[A.Param], args: list[A.Expr],
                      gvars: frozenset[str], sc: Scope) -> T:
        """A call of the module's generic function: each type parameter stands for one type
        (rustc's inference), bound by the first argument that shows it; later arguments and
        the result use what it was bound to (``first(s: Seq<A>) -> A`` on a ``Seq<i64>`` is an
        ``i64``). A parameter no argument fixes stays ``?``."""
        ptys = [self._generic_ty(p.ty, gvars) for p in params]
        ret = self._generic_ty(fn.ret_type, gvars) if fn.ret_type is not None else UNIT
        saved = self.generics
        self.generics = frozenset()  # the arguments are the caller's code
        try:
            env: dict[str, T] = {}
            for a, pt in zip(args, ptys, strict=True):
                want = _erase(Ty.subst(pt, env), gvars)
                got = self.expr(a, sc, want)
                Ty.bind(pt, got, gvars, env)
                want = _erase(Ty.subst(pt, env), gvars)
                if not compatible(got, want):
                    raise _err(f"mismatched types (an argument of `{fn.name}`): expected "
                               f"`{show(want)}`, found `{show(got)}`", "E0308", a.line)
        finally:
            self.generics = saved
        return _erase(Ty.subst(ret, env), gvars)

    def _generic_ty(self, t: A.TypeRef | None, gvars: frozenset[str]) -> T:
        """A written type with the type parameters ``gvars`` kept as named variables."""
        n = Ty.normalize(t, frozenset(), self.self_type)
        return self._known_names(n, keep=gvars)

    def _call_sig(self, sig: Ty.Sig, args: list[A.Expr], sc: Scope, line: int,
                  env: dict[str, T], what: str, first: list[A.Expr] | None = None) -> T:
        for a in first or []:
            self.expr(a, sc)
        if sig.params is None:
            self._args_unchecked(args, sc)
            return Ty.subst(sig.ret, env)
        if len(args) != len(sig.params):
            raise _err(f"`{what}` takes {_plural(len(sig.params))} but {len(args)} "
                       f"{'was' if len(args) == 1 else 'were'} supplied", "E0061", line)
        gvars = frozenset(sig.generics)
        env = dict(env)
        for a, (_pname, pt) in zip(args, sig.params, strict=True):
            want = Ty.subst(pt, {k: v for k, v in env.items() if k not in gvars})
            got = self.expr(a, sc, want)
            Ty.bind(pt, got, gvars | frozenset(env), env)
            want = Ty.subst(pt, {k: v for k, v in env.items()})
            if not compatible(got, _erase(want, gvars)):
                raise _err(f"mismatched types (argument of `{what}`): expected "
                           f"`{show(_erase(want, gvars))}`, found `{show(got)}`", "E0308",
                           a.line)
        return _erase(Ty.subst(sig.ret, env), gvars)

    def _construct_variant(self, ev: tuple[A.EnumItem, A.Variant], e: A.Call,
                           sc: Scope) -> T:
        en, v = ev
        fields = self.variant_fields(en, v)
        if v.kind != "tuple":
            raise _err(f"`{en.name}::{v.name}` is not a tuple variant; it cannot be called",
                       "E0618", e.line)
        if len(fields) != len(e.args):
            raise _err(f"this enum variant takes {_plural(len(fields))} but {len(e.args)} "
                       f"{'was' if len(e.args) == 1 else 'were'} supplied", "E0061", e.line)
        for a, (_f, ft) in zip(e.args, fields, strict=True):
            self.expect(a, ft, sc, f"a field of `{en.name}::{v.name}`")
        return T(en.name, [UNKNOWN] * len(en.generics))

    def _construct_tuple_struct(self, s: A.StructItem, e: A.Call, sc: Scope) -> T:
        if len(s.fields) != len(e.args):
            raise _err(f"this struct takes {_plural(len(s.fields), 'field')} but "
                       f"{len(e.args)} were supplied", "E0061", e.line)
        fts = self.struct_fields(T(s.name)) or {}
        for a, (_f, ft) in zip(e.args, fts.items(), strict=False):
            self.expect(a, ft, sc)
        return T(s.name, [UNKNOWN] * len(s.generics))

    def e_MethodCall(self, e: A.MethodCall, sc: Scope, want: T) -> T:
        rt = self.expr(e.recv, sc)
        name = e.name
        if not known(rt):
            self._args_unchecked(e.args, sc)
            return UNKNOWN
        user = self.m.methods.get(rt.name, {})
        if name in user:
            return self._call_fn(user[name], e.args, sc, e.line, rt)
        if rt.name in self.m.types:
            if rt.name in self.m.trait_impl_types or (
                    rt.name in self.m.enums and name.startswith(("is_", "get_", "arrow_"))):
                self._args_unchecked(e.args, sc)
                return UNKNOWN if not name.startswith("is_") else BOOL
            kind = "enum" if rt.name in self.m.enums else "struct"
            raise _err(f"no method named `{name}` found for {kind} `{show(rt)}` in the "
                       "current scope", "E0599", e.line)
        if rt.name in Ty.SPEC_COLLECTIONS or rt.name == "Option":
            if name in ("view", "deep_view") and rt.name != "Option":
                raise _err(f"no method named `{name}` found for struct `{show(rt)}` (vstd "
                           f"has no View for {rt.name}; use the value itself)", "E0599",
                           e.line)
            sig = Ty.methods(rt.name).get(name)
            if sig is None or sig.static:
                if name == "clone":
                    return rt
                raise _err(f"no method named `{name}` found for struct `{show(rt)}` in the "
                           "current scope", "E0599", e.line)
            return self._call_sig(sig, e.args, sc, e.line, Ty.receiver_vars(rt),
                                  f"{rt.name}::{name}")
        if rt.name in Ty.EXEC_METHODS_TYPES:
            sig = Ty.methods(rt.name).get(name)
            if sig is not None:
                return self._call_sig(sig, e.args, sc, e.line, Ty.receiver_vars(rt),
                                      f"{rt.name}::{name}")
        if name == "view" and not e.args:
            v = Ty.view_of(rt)
            if v is not None:
                return v
        prim = "int" if rt.name in Ty.INTS else rt.name if rt.name in ("bool", "char") else None
        if prim is not None:
            why = primitive_methods.verdict(prim, show(rt), name)
            if why is not None:
                raise SpecInvalid(why, line=e.line)
        self._args_unchecked(e.args, sc)
        return UNKNOWN

    def e_Field(self, e: A.Field, sc: Scope, want: T) -> T:
        t = self.expr(e.e, sc)
        if not known(t):
            return UNKNOWN
        if t.name == "tuple":
            if e.name.isdigit() and int(e.name) < len(t.args):
                return t.args[int(e.name)]
            raise _err(f"no field `{e.name}` on type `{show(t)}`", "E0609", e.line)
        fields = self.struct_fields(t)
        if fields is not None:
            if e.name in fields:
                return fields[e.name]
            raise _err(f"no field `{e.name}` on type `{show(t)}` (its fields: "
                       f"{', '.join(fields) or 'none'})", "E0609", e.line)
        if t.name in Ty.SPEC_COLLECTIONS or t.name == "Option":
            if e.name in Ty.methods(t.name):
                raise _err(f"attempted to take value of method `{e.name}` on type "
                           f"`{show(t)}` (call it: `{e.name}()`)", "E0615", e.line)
            raise _err(f"no field `{e.name}` on type `{show(t)}`", "E0609", e.line)
        if is_int(t) or t.name in ("bool", "char"):
            raise _err(f"`{show(t)}` is a primitive type and therefore doesn't have fields",
                       "E0610", e.line)
        if t.name in self.m.enums:
            raise _err(f"no field `{e.name}` on type `{show(t)}` (an enum: use `->` or "
                       "`match`)", "E0609", e.line)
        return UNKNOWN

    def e_Arrow(self, e: A.Arrow, sc: Scope, want: T) -> T:
        self.expr(e.e, sc)
        return UNKNOWN

    def e_Index(self, e: A.Index, sc: Scope, want: T) -> T:
        t = self.expr(e.e, sc)
        it = self.expr(e.idx, sc)
        if not known(t):
            return UNKNOWN
        if t.name in ("Seq", "slice", "Vec"):
            if known(it) and not is_int(it) and it.name != "Range":
                raise _err(f"mismatched types: a `{show(t)}` is indexed by an integer, found "
                           f"`{show(it)}`", "E0308", e.idx.line)
            return t.args[0] if t.args else UNKNOWN
        if t.name == "Map":
            k = t.args[0] if t.args else UNKNOWN
            if not compatible(it, k):
                raise _err(f"mismatched types: expected key `{show(k)}`, found `{show(it)}`",
                           "E0308", e.idx.line)
            return t.args[1] if len(t.args) > 1 else UNKNOWN
        if t.name in Ty.EXEC_TYPES:
            return UNKNOWN
        raise _err(f"cannot index into a value of type `{show(t)}`", "E0608", e.line)

    def e_View(self, e: A.View, sc: Scope, want: T) -> T:
        t = self.expr(e.e, sc)
        if not known(t) or t.name in Ty.EXEC_TYPES and t.name not in ("Vec", "slice",
                                                                         "String", "str"):
            return UNKNOWN
        v = Ty.view_of(t)
        if v is not None:
            return v
        if t.name in self.m.types and t.name in self.m.trait_impl_types:
            return UNKNOWN
        raise _err(f"`@` on `{show(t)}`: {t.name} has no View impl in vstd (no method named "
                   "`view`; use the value itself)", "E0599", e.line)

    def e_Quant(self, e: A.Quant, sc: Scope, want: T) -> T:
        inner = Scope(sc)
        ts = []
        for name, ty in e.params:
            t = self.ty(ty) if ty is not None else UNKNOWN
            inner.vars[name] = t
            ts.append(t)
        if e.kind == "choose":
            self.expect_bool(e.body, inner, "the body of `choose`")
            return ts[0] if len(ts) == 1 else T("tuple", ts)
        self.expect_bool(e.body, inner, f"the body of `{e.kind}`")
        return BOOL

    def e_Closure(self, e: A.Closure, sc: Scope, want: T) -> T:
        inner = Scope(sc)
        wparams = want.args[:-1] if want.name == "spec_fn" else None
        if wparams is not None and len(wparams) != len(e.params):
            raise _err(f"closure is expected to take {_plural(len(wparams))}, but it takes "
                       f"{_plural(len(e.params))}", "E0593", e.line)
        ts = []
        for k, (pat, ty) in enumerate(e.params):
            t = self.ty(ty) if ty is not None else (wparams[k] if wparams else UNKNOWN)
            self.pattern(pat, t, inner)
            ts.append(t)
        wret = want.args[-1] if want.name == "spec_fn" and want.args else UNKNOWN
        body = self.expr(e.body, inner, wret)
        return T("spec_fn", ts + [body])

    def e_If(self, e: A.If, sc: Scope, want: T) -> T:
        """An ``else if`` chain is walked in a loop (the parser charges it no depth)."""
        out: T = UNKNOWN
        node: A.Expr | None = e
        while isinstance(node, A.If):
            inner = Scope(sc)
            if node.let_pat is not None:
                self.pattern(node.let_pat, self.expr(node.cond, sc), inner)
            else:
                self.expect_bool(node.cond, sc, "an `if` condition")
            tt = self.expr(node.then, inner, out if known(out) else want)
            if node.els is None:
                return UNIT
            if not compatible(out, tt):
                raise _err(f"`if` and `else` have incompatible types: `{show(out)}` and "
                           f"`{show(tt)}`", "E0308", node.then.line)
            out = _join(out, tt)
            node = node.els
        assert node is not None
        et = self.expr(node, sc, out if known(out) else want)
        if not compatible(out, et):
            raise _err(f"`if` and `else` have incompatible types: `{show(out)}` and "
                       f"`{show(et)}`", "E0308", node.line)
        return _join(out, et)

    def e_Match(self, e: A.Match, sc: Scope, want: T) -> T:
        st = self.expr(e.scrut, sc)
        out: T = UNKNOWN
        first_line = None
        for arm in e.arms:
            inner = Scope(sc)
            self.pattern(arm.pat, st, inner)
            if arm.guard is not None:
                self.expect_bool(arm.guard, inner, "a match guard")
            bt = self.expr(arm.body, inner, out if known(out) else want)
            if not compatible(out, bt):
                raise _err(f"`match` arms have incompatible types: `{show(out)}` (line "
                           f"{first_line}) and `{show(bt)}`", "E0308", arm.body.line)
            if not known(out):
                out, first_line = bt, arm.body.line
            else:
                out = _join(out, bt)
        self._exhaustive(e, st)
        return out

    def e_Block(self, e: A.Block, sc: Scope, want: T) -> T:
        inner = Scope(sc)
        for s in e.stmts:
            if isinstance(s, A.Let):
                t = self.ty(s.ty) if s.ty is not None else UNKNOWN
                if s.init is not None:
                    got = self.expr(s.init, inner, t)
                    if not compatible(got, t):
                        raise _err(f"mismatched types: expected `{show(t)}`, found "
                                   f"`{show(got)}`", "E0308", s.line)
                    if not known(t):
                        t = got
                nxt = Scope(inner)
                self.pattern(s.pat, t, nxt)
                inner = nxt
            else:
                self.expr(s, inner)
        return self.expr(e.tail, inner, want) if e.tail is not None else UNIT

    def e_Tuple(self, e: A.Tuple, sc: Scope, want: T) -> T:
        return T("tuple", [self.expr(x, sc) for x in e.elems])

    def e_ArrayLit(self, e: A.ArrayLit, sc: Scope, want: T) -> T:
        ts = [self.expr(x, sc) for x in e.elems]
        return T("slice", [_join_all(ts, e, "array")])

    def e_MacroCall(self, e: A.MacroCall, sc: Scope, want: T) -> T:
        if e.name in ("seq", "set"):
            inner = want.args[0] if want.name in ("Seq", "Set") and want.args else UNKNOWN
            ts = [self.expr(x, sc, inner) for x in e.args]
            return T("Seq" if e.name == "seq" else "Set", [_join_all(ts, e, e.name + "!")])
        if e.name == "map":
            ks = [self.expr(k, sc) for k, _ in e.pairs]
            vs = [self.expr(v, sc) for _, v in e.pairs]
            return T("Map", [_join_all(ks, e, "map!"), _join_all(vs, e, "map!")])
        return UNKNOWN

    def e_StructLit(self, e: A.StructLit, sc: Scope, want: T) -> T:
        segs = e.path.segs
        name = segs[-1]
        fields: list[tuple[str, T]] | None = None
        what = name
        result: T = UNKNOWN
        if len(segs) >= 2 and segs[-2] in self.m.enums:
            en = self.m.enums[segs[-2]]
            v = next((v for v in en.variants if v.name == name), None)
            if v is None:
                raise _err(f"no variant named `{name}` found for enum `{en.name}`", "E0599",
                           e.line)
            fields, what = self.variant_fields(en, v), f"{en.name}::{name}"
            result = T(en.name, [UNKNOWN] * len(en.generics))
        elif name in self.m.structs or (name == "Self" and self.self_type in self.m.structs):
            sname = self.self_type if name == "Self" and self.self_type else name
            fs = self.struct_fields(T(sname)) or {}
            fields, what = list(fs.items()), sname
            result = T(sname, [UNKNOWN] * len(self.m.structs[sname].generics))
        elif len(segs) == 1 and name in self.m.variants:
            en, v = self.m.variants[name][0]
            fields, what = self.variant_fields(en, v), name
            result = T(en.name, [UNKNOWN] * len(en.generics))
        if fields is None:
            for _, x in e.fields:
                self.expr(x, sc)
            return UNKNOWN
        fd = dict(fields)
        for fname, x in e.fields:
            if fname not in fd:
                raise _err(f"struct `{what}` has no field named `{fname}`", "E0560", x.line)
            self.expect(x, fd[fname], sc, f"field `{fname}` of `{what}`")
        if e.base is not None:
            self.expect(e.base, result, sc, "the base of a struct update")
        else:
            given = {f for f, _ in e.fields}
            missing = [f for f, _ in fields if f not in given]
            if missing:
                raise _err(f"missing field `{missing[0]}` in initializer of `{what}`", "E0063",
                           e.line)
        return result

    def e_Range(self, e: A.Range, sc: Scope, want: T) -> T:
        for x in (e.lo, e.hi):
            if x is not None:
                self.expr(x, sc)
        return T("Range")

# ---------------------------------------------------------------- small helpers


_BUILTIN_NAMES = frozenset({"bool", "char", "unit", "tuple", "spec_fn", "Seq", "Set", "Map",
                            "Multiset", "Option", "int", "nat", "String", "Vec", "Box"}) | Ty.INTS
"""Names a type parameter must not shadow for ``_call_generic`` to read it (else: ``?``)."""


def _literal_fits(v: int, suffix: str, line: int) -> None:
    """rustc's deny-by-default lint ``overflowing_literals``: a suffixed literal must fit its
    type (``300u8`` is an error; ``-128i8`` is fine, the parser folds the minus in). Verus
    keeps suffixed literals as rustc reads them (only unsuffixed ones become spec integers),
    so the lint applies in spec code too. ``usize``/``isize`` are taken at 64 bits, the
    target's width; a negative unsigned literal is left to Verus (its spec negation is not
    rustc's)."""
    bits = 64 if suffix in ("usize", "isize") else int(suffix[1:])
    if suffix[0] == "u":
        lo, hi = 0, (1 << bits) - 1
        if v < 0:
            return
    else:
        lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    if not lo <= v <= hi:
        raise _err(f"literal out of range for `{suffix}`: `{v}{suffix}` does not fit into "
                   f"the type `{suffix}` whose range is `{lo}..={hi}`", "overflowing_literals",
                   line)


def _join(a: T, b: T) -> T:
    if not known(a):
        return b
    if not known(b):
        return a
    if a.name == "{integer}":
        return b
    if is_int(a) and is_int(b) and a.name != b.name and b.name != "{integer}":
        return INT
    return a


def _join_all(ts: list[T], e: A.Expr, what: str) -> T:
    out: T = UNKNOWN
    for t in ts:
        if not compatible(out, t):
            raise _err(f"mismatched types in {what}: `{show(out)}` and `{show(t)}`", "E0308",
                       e.line)
        out = _join(out, t)
    return out


def _erase(t: T, gvars: frozenset[str]) -> T:
    if not t.args and t.name in gvars:
        return UNKNOWN
    return T(t.name, [_erase(a, gvars) for a in t.args]) if t.args else t


def _logic_operands(e: A.Binary) -> list[A.Expr]:
    """The leaves of a chain of one logical operator, without recursion per link."""
    out: list[A.Expr] = []
    stack: list[A.Expr] = [e]
    while stack:
        x = stack.pop()
        if isinstance(x, A.Binary) and x.op == e.op:
            stack.append(x.r)
            stack.append(x.l)
        else:
            out.append(x)
    return out


def _tail_line(e: A.Expr) -> int:
    while isinstance(e, A.Block) and e.tail is not None:
        e = e.tail
    return e.line
