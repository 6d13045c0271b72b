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

from collections.abc import Iterator
from dataclasses import dataclass, field

from adequacy.errors import SpecInvalid

from ..syntax import ast as A
from . import types as Ty
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


def _err(msg: str, code: str, line: int | None) -> SpecInvalid:
    return SpecInvalid(f"{msg} [{code}]", line=line)


def _plural(n: int, what: str = "argument") -> str:
    return f"{n} {what}" + ("" if n == 1 else "s")


@dataclass
class Module:
    """What names a module defines, for look-ups."""

    structs: dict[str, A.StructItem] = field(default_factory=dict)
    enums: dict[str, A.EnumItem] = field(default_factory=dict)
    fns: dict[str, A.FnItem] = field(default_factory=dict)
    methods: dict[str, dict[str, A.FnItem]] = field(default_factory=dict)
    trait_impl_types: set[str] = field(default_factory=set)
    """Types with a trait impl: their methods are not all known to us."""
    other_names: set[str] = field(default_factory=set)
    """``const``/``static``/``type`` items and macros: names we cannot type."""
    variants: dict[str, list[tuple[A.EnumItem, A.Variant]]] = field(default_factory=dict)
    types: set[str] = field(default_factory=set)

    @classmethod
    def of(cls, mod: A.SpecModule) -> Module:
        m = cls()
        for it in mod.items:
            if isinstance(it, A.StructItem):
                m.structs[it.name] = it
            elif isinstance(it, A.EnumItem):
                m.enums[it.name] = it
                for v in it.variants:
                    m.variants.setdefault(v.name, []).append((it, v))
            elif isinstance(it, A.FnItem):
                m.fns.setdefault(it.name, it)
            elif isinstance(it, A.ImplItem):
                if it.trait is not None:
                    m.trait_impl_types.add(it.self_type)
                for f in it.fns:
                    m.methods.setdefault(it.self_type, {}).setdefault(f.name, f)
            elif isinstance(it, A.OtherItem):
                m.other_names.add(it.name)
        m.types = set(m.structs) | set(m.enums)
        return m


class Scope:
    def __init__(self, parent: Scope | None = None) -> None:
        self.vars: dict[str, T] = {}
        self.parent = parent

    def get(self, name: str) -> T | None:
        s: Scope | None = self
        while s is not None:
            if name in s.vars:
                return s.vars[name]
            s = s.parent
        return None


class Checker:
    def __init__(self, mod: Module, allow_old: bool = False) -> None:
        self.m = mod
        self.allow_old = allow_old
        self.generics: frozenset[str] = frozenset()
        self.self_type: str | None = None

    # ------------------------------------------------------------ helpers
    def ty(self, t: A.TypeRef | None) -> T:
        n = Ty.normalize(t, self.generics, self.self_type)
        return self._known_names(n)

    def _known_names(self, t: T) -> T:
        """A user type name the module does not define is ``?`` (an alias, a type from a
        ``use``): rustc would report it, but we cannot tell an alias from a typo."""
        base = {"bool", "char", "unit", "tuple", "spec_fn", "Seq", "Set", "Map", "Multiset",
                "Option", "?", "{integer}", "{float}"} | Ty.INTS | Ty.FLOATS | Ty.EXEC_TYPES
        if t.name not in base and t.name not in self.m.types:
            return UNKNOWN
        return T(t.name, [self._known_names(a) for a in t.args])

    def expect(self, e: A.Expr, want: T, sc: Scope, what: str = "") -> T:
        got = self.expr(e, sc, want)
        if not compatible(got, want):
            where = f" ({what})" if what else ""
            raise _err(f"mismatched types{where}: expected `{show(want)}`, found `{show(got)}`",
                       "E0308", e.line)
        return got

    def expect_bool(self, e: A.Expr, sc: Scope, what: str = "") -> None:
        self.expect(e, BOOL, sc, what)

    def struct_fields(self, t: T) -> dict[str, T] | None:
        s = self.m.structs.get(t.name)
        if s is None:
            return None
        gen = dict(zip(s.generics, t.args, strict=False))
        saved = self.generics
        self.generics = frozenset(s.generics)
        try:
            out = {}
            for f, ft in s.fields:
                out[f] = Ty.subst(self.ty(ft), gen) if gen else self.ty(ft)
            return out
        finally:
            self.generics = saved

    def variant_fields(self, en: A.EnumItem, v: A.Variant) -> list[tuple[str, T]]:
        saved = self.generics
        self.generics = frozenset(en.generics)
        try:
            return [(f, self.ty(ft)) for f, ft in v.fields]
        finally:
            self.generics = saved

    # ------------------------------------------------------------ items
    def check_fn(self, fn: A.FnItem) -> None:
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
            got = self.expr(fn.body, sc, ret)
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
            for x in _logic_operands(e):
                self.expect_bool(x, sc, f"an operand of `{op}`")
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
        params = fn.params
        if recv is not None and fn.has_self:
            params = params[1:]
        if len(args) != len(params):
            kind = "method" if recv is not None else "function"
            raise _err(f"this {kind} `{fn.name}` takes {_plural(len(params))} but "
                       f"{len(args)} {'was' if len(args) == 1 else 'were'} supplied", "E0061",
                       line)
        saved = (self.generics, self.self_type)
        self.generics = frozenset(g.split(":")[0].strip() for g in fn.generics)
        self.self_type = fn.self_type or owner
        try:
            ptys = [self.ty(p.ty) for p in params]
            ret = self.ty(fn.ret_type) if fn.ret_type is not None else UNIT
        finally:
            self.generics, self.self_type = saved
        for a, pt in zip(args, ptys, strict=True):
            self.expect(a, pt, sc, f"an argument of `{fn.name}`")
        return ret

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

    # ------------------------------------------------------------ patterns
    def _binding(self, p: A.Pat) -> A.Pat:
        """rustc reads a lone name that resolves to no unit variant, unit struct or const as
        a new binding, even a capitalised one (``Nope => ..`` matches everything)."""
        if isinstance(p, A.PVariant) and len(p.path) == 1 and p.elems is None \
                and p.fields is None and p.path[0] not in self.m.variants \
                and p.path[0] != "None" and p.path[0] not in self.m.structs \
                and p.path[0] not in self.m.other_names:
            return A.PBind(p.line, p.path[0])
        return p

    def pattern(self, p: A.Pat, t: T, sc: Scope) -> None:
        p = self._binding(p)
        if isinstance(p, A.PWild):
            return
        if isinstance(p, A.PBind):
            sc.vars[p.name] = t
            if p.sub is not None:
                self.pattern(p.sub, t, sc)
            return
        if isinstance(p, A.PLit):
            lt = _lit_type(p.value)
            if not compatible(lt, t):
                raise _err(f"mismatched types: this pattern is `{show(lt)}`, the value is "
                           f"`{show(t)}`", "E0308", p.line)
            return
        if isinstance(p, A.PRange):
            return
        if isinstance(p, A.PTuple):
            if t.name == "tuple":
                real = [x for x in p.elems if not (isinstance(x, A.PWild) and x.rest)]
                has_rest = len(real) != len(p.elems)
                if not has_rest and len(real) != len(t.args):
                    raise _err(f"mismatched types: expected a tuple with {len(t.args)} "
                               f"elements, found one with {len(real)}", "E0308", p.line)
                if not has_rest:
                    for x, a in zip(real, t.args, strict=True):
                        self.pattern(x, a, sc)
                    return
            elif known(t) and t.name not in Ty.EXEC_TYPES:
                raise _err(f"mismatched types: expected `{show(t)}`, found a tuple pattern",
                           "E0308", p.line)
            for x in p.elems:
                self.pattern(x, UNKNOWN, sc)
            return
        if isinstance(p, A.POr):
            for k, alt in enumerate(p.alts):
                self.pattern(alt, t, sc if k == 0 else Scope(sc))
            return
        if isinstance(p, A.PVariant):
            self._pvariant(p, t, sc)

    def _pvariant(self, p: A.PVariant, t: T, sc: Scope) -> None:
        name = p.path[-1]
        if len(p.path) == 1 and (p.elems is not None or p.fields is not None) \
                and name not in self.m.variants and name not in self.m.structs \
                and name not in ("Some", "None", "Ok", "Err") and name not in self.m.other_names:
            kind = "tuple struct or tuple variant" if p.elems is not None else "struct, variant"
            raise _err(f"cannot find {kind} `{name}` in this scope", "E0531", p.line)
        subs: list[tuple[A.Pat, T]] = []
        if t.name == "Option" and name in ("Some", "None") and len(p.path) <= 2:
            inner = t.args[0] if t.args else UNKNOWN
            if name == "Some":
                if p.elems is not None and len(p.elems) != 1:
                    raise _err(f"this pattern has {len(p.elems)} fields, but the "
                               "corresponding tuple variant `Some` has 1 field", "E0023",
                               p.line)
                subs = [(x, inner) for x in p.elems or []]
        elif t.name in self.m.enums:
            en = self.m.enums[t.name]
            if len(p.path) >= 2 and p.path[-2] not in (en.name, "Self"):
                raise _err(f"mismatched types: expected `{show(t)}`, found a pattern of "
                           f"`{p.path[-2]}`", "E0308", p.line)
            v = next((v for v in en.variants if v.name == name), None)
            if v is None:
                raise _err(f"no variant named `{name}` found for enum `{en.name}`", "E0599",
                           p.line)
            fields = self.variant_fields(en, v)
            if p.elems is not None:
                real = [x for x in p.elems if not (isinstance(x, A.PWild) and x.rest)]
                if v.kind != "tuple":
                    raise _err(f"expected tuple struct or tuple variant, found "
                               f"`{en.name}::{name}`", "E0164", p.line)
                if len(real) == len(p.elems) and len(real) != len(fields):
                    raise _err(f"this pattern has {len(real)} fields, but the corresponding "
                               f"tuple variant `{en.name}::{name}` has {len(fields)}",
                               "E0023", p.line)
                if len(real) == len(p.elems):
                    subs = [(x, ft) for x, (_f, ft) in zip(real, fields, strict=True)]
                else:
                    subs = [(x, UNKNOWN) for x in real]
            elif p.fields is not None:
                fd = dict(fields)
                for fname, x in p.fields:
                    if fname not in fd:
                        raise _err(f"variant `{en.name}::{name}` does not have a field named "
                                   f"`{fname}`", "E0026", x.line)
                    subs.append((x, fd[fname]))
        elif t.name in self.m.structs and p.fields is not None:
            fd = self.struct_fields(t) or {}
            for fname, x in p.fields:
                if fname not in fd:
                    raise _err(f"struct `{t.name}` does not have a field named `{fname}`",
                               "E0026", x.line)
                subs.append((x, fd[fname]))
        elif known(t) and t.name not in Ty.EXEC_TYPES and len(p.path) == 1 \
                and (name in ("Some", "None") or name in self.m.variants):
            raise _err(f"mismatched types: expected `{show(t)}`, found a pattern of "
                       f"variant `{name}`", "E0308", p.line)
        else:
            subs = [(x, UNKNOWN) for x in (p.elems or [])] + \
                   [(x, UNKNOWN) for _, x in (p.fields or [])]
        for x, xt in subs:
            self.pattern(x, xt, sc)

    # ------------------------------------------------------------ exhaustiveness
    def _exhaustive(self, e: A.Match, t: T) -> None:
        """rustc requires every value to be matched (E0004). We decide only the top level:
        a variant (or ``true``/``false``) no arm can match at all is reported; arms with
        refutable sub-patterns count as covering theirs (accepting what may be exhaustive)."""
        alts: list[A.Pat] = []
        for arm in e.arms:
            if arm.guard is None:
                alts.extend(self._binding(a) for a in _alternatives(arm.pat))
        if any(_catch_all(p) for p in alts):
            return
        if t.name == "Option":
            universe = ["Some", "None"]
        elif t.name in self.m.enums:
            universe = [v.name for v in self.m.enums[t.name].variants]
        elif t.name == "bool":
            got = {p.value for p in alts if isinstance(p, A.PLit)}
            missing_b = [x for x in (True, False) if x not in got]
            if missing_b:
                raise _err(f"non-exhaustive patterns: `{str(missing_b[0]).lower()}` not "
                           "covered", "E0004", e.line)
            return
        elif is_int(t) or t.name == "char":
            if not any(isinstance(p, A.PRange) for p in alts):
                raise _err("non-exhaustive patterns: `_` not covered (integer and char "
                           "matches need a catch-all arm)", "E0004", e.line)
            return
        else:
            return
        covered = set()
        for p in alts:
            if isinstance(p, A.PVariant):
                covered.add(p.path[-1])
            elif isinstance(p, A.PBind) and p.name in universe:
                covered.add(p.name)
        missing = [v for v in universe if v not in covered]
        if missing:
            shown = "`, `".join(missing[:3])
            raise _err(f"non-exhaustive patterns: `{shown}` not covered", "E0004", e.line)


# ---------------------------------------------------------------- small helpers


def _alternatives(p: A.Pat) -> Iterator[A.Pat]:
    if isinstance(p, A.POr):
        for a in p.alts:
            yield from _alternatives(a)
    elif isinstance(p, A.PBind) and p.sub is not None:
        yield from _alternatives(p.sub)
    else:
        yield p


def _catch_all(p: A.Pat) -> bool:
    if isinstance(p, A.PWild):
        return True
    if isinstance(p, A.PBind):
        return p.sub is None
    return isinstance(p, A.PTuple)  # tuple scrutinees are not checked for exhaustiveness


def _lit_type(v: object) -> T:
    if isinstance(v, bool):
        return BOOL
    if isinstance(v, int):
        return INTLIT
    if isinstance(v, str) and len(v) == 1:
        return CHAR
    return UNKNOWN


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
