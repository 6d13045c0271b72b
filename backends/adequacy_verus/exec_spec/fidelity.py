"""Where the erased ``exec_spec_unverified!`` macro would compute something other than Verus.

The macro keeps Rust's meaning of what it translates (vstd ``contrib/exec_spec``, and
``verus_builtin_macros/src/contrib/exec_spec.rs``: "`as int`/`as nat` will be removed", binary
operators are emitted as the same Rust operators on machine integers). Most divergences panic at
run time (overflow checks are on, out-of-range indexing, ``unwrap`` of ``None``, ``x / 0``) and
so already become ``unknown``. This module finds the ones that would not panic but answer
differently, plus the constructs the macro cannot compile, so that the engine leaves the cases of
the predicate that reaches them ``unknown`` with a reason naming the spec's own line, instead of
a wrong verdict or an error reported on the macro block:

* ``/`` and ``%`` unless both operands are provably non-negative: Rust truncates toward zero,
  Verus's spec ``/`` ``%`` are Euclidean (guide ``reference-arithmetic.md``; ``-7 % 3 == 2``).
* ``x as nat`` unless ``x`` is provably non-negative: the cast is erased, Verus's result is >= 0.
* ``x as char`` (Rust allows it only from ``u8``).
* unary ``-`` on an unsigned value (Verus computes in ``int``, Rust does not compile it).
* chained comparisons outside a quantifier guard (guide ``reference-chained-ineq.md``: ``a <= b
  < c`` is ``a <= b && b < c``; the macro emits ``(a <= b) < c``).
* ``index_of`` and ``choose``: defined by ``choose`` in vstd ``seq_lib.rs``, unspecified unless
  the witness is unique, while the exec version returns the first match or ``len``.
* arithmetic or comparisons between different machine integer types (Verus widens both to
  ``int``; rustc rejects the compiled expression, reporting the whole macro block).
* calls to functions the spec does not define (vstd spec fns such as
  ``vstd::arithmetic::power::pow`` have no ``exec_`` counterpart).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from ..attributes import external_body
from ..syntax import ast as A

UNSIGNED = frozenset({"u8", "u16", "u32", "u64", "u128", "usize", "nat"})
MACHINE = frozenset({"u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64",
                     "i128", "isize"})
_MIXABLE = frozenset({"+", "-", "*", "/", "%", "<", "<=", ">", ">=", "==", "!="})
#: Calls the macro translates without a spec fn of the module behind them.
_BUILTIN_CALLS = frozenset({"Some", "None", "Ok", "Err", "seq", "set", "map", "add", "sub",
                            "mul"})
_CHOOSE_METHODS = frozenset({"index_of"})


@dataclass
class _Walker:
    module: A.SpecModule
    structs: dict[str, A.StructItem]
    fns: dict[str, A.FnItem]
    methods: dict[str, list[A.FnItem]]
    problems: list[tuple[int, str]] = field(default_factory=list)
    calls: set[str] = field(default_factory=set)
    rewritten: bool = False
    """``rewrite.rewrite`` turned `/`, `%`, chains, `as nat` and `as char` (those carrying a
    source span) into Verus's meaning, so only what it could not rewrite is flagged."""
    widened: frozenset[int] = frozenset()
    """ids of the comparisons and arithmetic ``widen`` computes in ``i128`` (not mixed)."""

    def flag(self, line: int, what: str) -> None:
        self.problems.append((line, what))

    # -------------------------------------------------------------- light static types
    def type_of(self, e: A.Expr, env: dict[str, A.TypeRef | None]) -> A.TypeRef | None:
        if isinstance(e, A.Path) and len(e.segs) == 1:
            return env.get(e.segs[0])
        if isinstance(e, A.Field):
            base = self.type_of(e.e, env)
            if base is not None and base.name == "tuple" and e.name.isdigit():
                k = int(e.name)
                return base.args[k] if k < len(base.args) else None
            st = self.structs.get(base.name) if base is not None else None
            return next((t for n, t in st.fields if n == e.name), None) if st else None
        if isinstance(e, A.Index):
            base = self.type_of(e.e, env)
            return base.args[0] if base is not None and base.name == "Seq" and base.args else None
        if isinstance(e, A.Cast):
            return e.ty
        if isinstance(e, A.Call) and isinstance(e.func, A.Path):
            fn = self.fns.get(e.func.name)
            return fn.ret_type if fn is not None else None
        if isinstance(e, A.View):
            return self.type_of(e.e, env)
        return None

    def exec_type(self, e: A.Expr, env: dict[str, A.TypeRef | None]) -> str | None:
        """The machine integer type the compiled Rust gives ``e`` (``as int`` is erased)."""
        if isinstance(e, A.Cast):
            if e.ty.name in ("int", "nat"):
                return self.exec_type(e.e, env)
            return e.ty.name if e.ty.name in MACHINE else None
        if isinstance(e, A.Lit):
            return e.suffix if e.suffix in MACHINE else None
        if isinstance(e, (A.Path, A.Field, A.Index, A.Call)):
            ty = self.type_of(e, env)
            return ty.name if ty is not None and ty.name in MACHINE else None
        return None

    def mixed(self, a: A.Expr, b: A.Expr, env: dict[str, A.TypeRef | None], line: int) -> None:
        ta, tb = self.exec_type(a, env), self.exec_type(b, env)
        if ta is not None and tb is not None and ta != tb:
            self.flag(line, f"mixed integer types {ta} and {tb} (Verus widens both to int; the "
                      "compiled Rust does not)")

    def nonneg(self, e: A.Expr, env: dict[str, A.TypeRef | None]) -> bool:
        """Whether ``e`` is >= 0 in every state (a sound under-approximation)."""
        if isinstance(e, A.Lit):
            return e.kind == "int" and isinstance(e.value, int) and e.value >= 0
        if isinstance(e, A.MethodCall) and e.name == "len" and not e.args:
            return True
        if isinstance(e, A.Cast):
            if e.ty.name in UNSIGNED:
                return e.ty.name != "nat" or self.nonneg(e.e, env)
            return e.ty.name == "int" and self.nonneg(e.e, env)
        if isinstance(e, A.Binary) and e.op in ("+", "*", "/", "%"):
            return self.nonneg(e.l, env) and self.nonneg(e.r, env)
        ty = self.type_of(e, env)
        return ty is not None and ty.name in UNSIGNED

    def binder_type(self, kind: str, t: A.TypeRef | None) -> A.TypeRef | None:
        """The type the compiled Rust gives a quantified variable: ``rewrite`` turns an
        ``int``/``nat`` binder of ``forall``/``exists`` into ``usize``."""
        if (self.rewritten and kind in ("forall", "exists") and t is not None
                and t.name in ("int", "nat") and not t.args):
            return A.TypeRef("usize")
        return t

    # -------------------------------------------------------------- the walk
    def fn(self, f: A.FnItem) -> None:
        if external_body(f):
            self.flag(f.line, f"spec fn {f.name} is #[verifier::external_body]: Verus treats it "
                      "as uninterpreted, the compiled macro would run its body")
            return
        env: dict[str, A.TypeRef | None] = {p.name: p.ty for p in f.params}
        if f.has_self and f.self_type:
            env["self"] = A.TypeRef(f.self_type)
        if f.body is not None:
            self.expr(f.body, env, guard=False)

    def expr(self, e: object, env: dict[str, A.TypeRef | None], guard: bool) -> None:
        if isinstance(e, A.Binary):
            if e.op in ("/", "%") and not (self.nonneg(e.l, env) and self.nonneg(e.r, env)) and not (
                    self.rewritten and e.span is not None):
                self.flag(e.line, f"`{e.op}` on a value that may be negative (Verus's `{e.op}` is "
                          "Euclidean, the compiled Rust one truncates)")
            if e.op in _MIXABLE and id(e) not in self.widened:
                self.mixed(e.l, e.r, env, e.line)
            if e.op == "==>":
                self.expr(e.l, env, guard=guard)
                self.expr(e.r, env, guard=False)
                return
            if e.op == "&&":
                self.expr(e.l, env, guard=guard)
                self.expr(e.r, env, guard=guard)
                return
            self.expr(e.l, env, False)
            self.expr(e.r, env, False)
            return
        if isinstance(e, A.Chain):
            if not guard and not (self.rewritten and e.spans):
                self.flag(e.line, "chained comparison outside a quantifier guard (the macro "
                          "does not expand it into `&&`)")
            for a, b in itertools.pairwise(e.operands):
                if id(e) not in self.widened:
                    self.mixed(a, b, env, e.line)
            for x in e.operands:
                self.expr(x, env, False)
            return
        if isinstance(e, A.Cast):
            if self.rewritten and e.span is not None:
                pass
            elif e.ty.name == "nat" and not self.nonneg(e.e, env):
                self.flag(e.line, "`as nat` of a value that may be negative (the macro erases "
                          "the cast)")
            elif e.ty.name == "char":
                src = self.type_of(e.e, env)
                if src is None or src.name != "u8":
                    self.flag(e.line, "`as char` from a type other than u8")
            self.expr(e.e, env, False)
            return
        if isinstance(e, A.Unary):
            if e.op == "-" and not isinstance(e.e, A.Lit):
                ty = self.type_of(e.e, env)
                if ty is None or ty.name in UNSIGNED or self.nonneg(e.e, env) or (
                        isinstance(e.e, A.Binary) and e.e.op == "-"):
                    self.flag(e.line, "unary `-` on a value that is not a signed machine "
                              "integer (Verus negates in int)")
            self.expr(e.e, env, False)
            return
        if isinstance(e, A.Quant):
            if e.kind == "choose":
                self.flag(e.line, "`choose` (unspecified unless the witness is unique)")
            inner = dict(env)
            inner.update({n: self.binder_type(e.kind, t) for n, t in e.params})
            self.expr(e.body, inner, guard=e.kind in ("forall", "exists"))
            return
        if isinstance(e, A.MethodCall):
            if e.name in _CHOOSE_METHODS:
                self.flag(e.line, f"`{e.name}` is defined by `choose` in vstd (unspecified when "
                          "the element is absent or occurs twice)")
            self.calls.add(e.name)
            self.expr(e.recv, env, False)
            for a in e.args:
                self.expr(a, env, False)
            return
        if isinstance(e, A.Call):
            if isinstance(e.func, A.Path):
                name = e.func.name
                known = (name in self.fns or name in _BUILTIN_CALLS or name[:1].isupper()
                         or len(e.func.segs) > 1 and e.func.segs[0][:1].isupper())
                if not known:
                    self.flag(e.line, f"`{'::'.join(e.func.segs)}` is not a spec fn of this "
                              "spec (vstd spec fns have no exec_ counterpart)")
                self.calls.add(name)
            else:
                self.expr(e.func, env, False)
            for a in e.args:
                self.expr(a, env, False)
            return
        if isinstance(e, A.Block):
            inner = dict(env)
            for st in e.stmts:
                if isinstance(st, A.Let):
                    if st.init is not None:
                        self.expr(st.init, inner, False)
                    if isinstance(st.pat, A.PBind):
                        inner[st.pat.name] = st.ty or (self.type_of(st.init, inner)
                                                       if st.init is not None else None)
                else:
                    self.expr(st, inner, False)
            if e.tail is not None:
                self.expr(e.tail, inner, False)
            return
        if isinstance(e, A.Match):
            self.expr(e.scrut, env, False)
            for arm in e.arms:
                if arm.guard is not None:
                    self.expr(arm.guard, env, False)
                self.expr(arm.body, env, False)
            return
        if isinstance(e, A.Expr):
            for c in A.children(e):
                if isinstance(c, A.Expr):
                    self.expr(c, env, False)


def reachable(module: A.SpecModule, root: str) -> list[A.FnItem]:
    """The spec fns (and impl methods, by name) that ``root`` may call, itself included."""
    fns = module.fns
    methods: dict[str, list[A.FnItem]] = {}
    for im in module.impls:
        for f in im.fns:
            methods.setdefault(f.name, []).append(f)
    start = fns.get(root)
    if start is None:
        return []
    out: dict[int, A.FnItem] = {}
    stack = [start]
    while stack:
        f = stack.pop()
        if id(f) in out:
            continue
        out[id(f)] = f
        w = _Walker(module, module.structs, fns, methods)
        w.fn(f)
        for c in w.calls:
            if c in fns:
                stack.append(fns[c])
            stack.extend(methods.get(c, []))
    return list(out.values())
