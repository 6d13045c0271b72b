"""Compute Verus's ``int`` in ``i128`` for the erased macro: exact, or a panic (so ``unknown``).

The macro refuses ``int``/``nat`` as parameter and result types ("Type cannot be compiled")
and deletes ``as int``, so spec fns such as ``spec fn sum_to(s: Seq<i64>) -> int`` and the
clauses comparing their value with a ``u64`` never compile. In Verus, arithmetic and
comparisons in spec code are on mathematical integers whatever the operands' machine types
(guide ``reference-arithmetic.md``). The rewrite:

* ``int``/``nat`` as a spec fn's parameter or result type -> ``i128``;
* in value positions (operands of ``+ - * / %`` and of comparisons, arguments of an ``int``
  parameter, ``e as int``), every integer-typed operand -> ``__ade_int(e)``: the harness's
  conversion to ``i128`` that panics when the value does not fit. An operand is widened only
  when every operand beside it is known to be an integer or a literal (literals take the
  type rustc infers, ``i128`` beside a widened operand);
* positions where the macro needs ``usize`` (an index, a ``Seq`` method's argument, a
  quantifier's bounds) are left as they are: there ``as int`` stays deleted;
* the guard of an ``int`` binder (``rewrite`` makes it ``usize``): a bound that is not a
  literal -> ``__ade_usize(e)`` (a panic when negative or too big, where a ``usize`` binder
  would miss values), a guard in parentheses loses them, and ``0 <= i < j < n`` over two
  binders becomes ``0 <= i < n && i < j < n`` (the form the macro reads; the same set, since
  ``i < j < n`` implies ``i < n``).

Why exact: ``__ade_int`` returns the operand's own value or panics; ``i128`` arithmetic under
the harness's overflow checks equals ``int`` arithmetic or panics; ``/`` and ``%`` are already
Euclidean (``rewrite``); a comparison of two ``i128`` values is the comparison of the integers.
What the rewrite misjudges (an operand it takes for an integer that is not one) fails to
compile, which leaves the cases ``unknown``, never wrong.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..syntax import ast as A
from .edits import Edit, Offsets
from .fidelity import MACHINE, _Walker

WIDE = frozenset({"int", "nat"})
INTS = MACHINE | WIDE
_ARITH = frozenset({"+", "-", "*", "/", "%"})
_CMP = frozenset({"<", "<=", ">", ">=", "==", "!="})
_LOGIC = frozenset({"&&", "||", "==>", "<==", "<==>"})


@dataclass
class _Widen(_Walker):
    off: Offsets | None = None
    edits: list[Edit] = field(default_factory=list)
    widened_ids: set[int] = field(default_factory=set)
    """ids of the Binary/Chain nodes whose operands were widened (fidelity's mixed-type
    check then does not apply to them)."""

    # ------------------------------------------------------------------ kinds
    def is_int(self, e: A.Expr, env: dict[str, A.TypeRef | None]) -> bool:
        if isinstance(e, A.Path) and len(e.segs) == 2:
            return e.segs[0] in MACHINE and e.segs[1] in ("MIN", "MAX")
        if isinstance(e, (A.Path, A.Field, A.Index, A.Call)):
            t = self.type_of(e, env)
            return t is not None and t.name in INTS and not t.args
        if isinstance(e, A.Cast):
            return e.ty.name in INTS
        if isinstance(e, A.MethodCall):
            if e.name == "len" and not e.args:
                return True
            if e.name in ("first", "last") and not e.args:
                t = self.type_of(e.recv, env)
                return (t is not None and t.name == "Seq" and len(t.args) == 1
                        and t.args[0].name in INTS)
            return False
        if isinstance(e, A.Binary) and e.op in _ARITH:
            return all(self.kind(x, env) is not None for x in (e.l, e.r))
        if isinstance(e, A.Unary) and e.op == "-":
            return self.kind(e.e, env) is not None
        return False

    def kind(self, e: A.Expr, env: dict[str, A.TypeRef | None]) -> str | None:
        if isinstance(e, A.Lit):
            return "lit" if e.kind == "int" else None
        return "int" if self.is_int(e, env) else None

    def wrap(self, a: int, b: int, name: str = "__ade_int") -> None:
        assert self.off is not None
        s, t = self.off.range(a, b)
        self.edits.append(Edit(s, t, [f"{name}(", (s, t), ")"], outer=True))

    def operands(self, node: A.Expr, ops: list[A.Expr], spans: list[tuple[int, int]],
                 env: dict[str, A.TypeRef | None]) -> bool:
        """Wrap the integer operands of ``node``; whether it is computed in ``i128``."""
        kinds = [self.kind(x, env) for x in ops]
        if None in kinds or "int" not in kinds:
            return False
        if isinstance(node, A.Chain) or isinstance(node, A.Binary) and node.op in _CMP:
            types = {"usize" if isinstance(x, A.MethodCall) and x.name == "len"
                     else self.exec_type(x, env) for x, k in zip(ops, kinds, strict=True)
                     if k == "int"}
            if len(types) == 1 and None not in types and not any(
                    isinstance(x, A.Cast) and x.ty.name in WIDE for x in ops):
                return False  # one machine type on every side: Rust compares the same values
        for x, k, (a, b) in zip(ops, kinds, spans, strict=True):
            if k != "int":
                continue
            if isinstance(x, A.Binary) and x.op in _ARITH:
                continue  # its own operands are widened: already i128
            if isinstance(x, A.Cast) and x.ty.name in WIDE and not isinstance(x.e, A.Lit):
                continue  # the cast itself becomes `__ade_int(..)`
            self.wrap(a, b)
        self.widened_ids.add(id(node))
        return True

    # ------------------------------------------------------------------ the walk
    demand: bool = False
    """Whether the expression being walked must be an ``i128`` (an operand of a widened
    comparison or arithmetic, an ``int`` argument or result): arithmetic elsewhere keeps its
    machine type, as its position (a ``usize`` result, a tuple field...) expects."""

    def sub(self, e: object, env: dict[str, A.TypeRef | None], demand: bool) -> None:
        saved = self.demand
        self.demand = demand
        try:
            self.expr(e, env, False)
        finally:
            self.demand = saved

    def fn(self, f: A.FnItem) -> None:
        self.demand = f.ret_type is not None and f.ret_type.name in WIDE
        super().fn(f)
        self.demand = False

    def expr(self, e: object, env: dict[str, A.TypeRef | None], guard: bool) -> None:
        if isinstance(e, A.Binary):
            if e.op in _LOGIC:
                self.sub(e.l, env, False)
                self.sub(e.r, env, False)
            elif e.op in _ARITH or e.op in _CMP:
                wide = False
                if e.span is not None and (e.op in _CMP or self.demand):
                    s, op, t = e.span
                    wide = self.operands(e, [e.l, e.r], [(s, op), (op + 1, t)], env)
                self.sub(e.l, env, wide)
                self.sub(e.r, env, wide)
            return  # bit operations keep their machine types
        if isinstance(e, A.Chain):
            wide = bool(e.spans) and self.operands(e, e.operands, e.spans or [], env)
            for x in e.operands:
                self.sub(x, env, wide)
            return
        if isinstance(e, A.Cast):
            if e.ty.name in WIDE and e.span is not None:
                if not isinstance(e.e, A.Lit):
                    self.wrap(e.span[0], e.span[2])
                self.sub(e.e, env, True)
            return  # a machine cast keeps the machine meaning of its operand
        if isinstance(e, A.Unary):
            self.sub(e.e, env, self.demand and e.op == "-")
            return
        if isinstance(e, A.Quant):
            inner = dict(env)
            inner.update({n: self.binder_type(e.kind, t) for n, t in e.params})
            saved, self.demand = self.demand, False
            try:
                if not (e.kind in ("forall", "exists") and self.quant_body(e, inner)):
                    self.expr(e.body, inner, False)
            finally:
                self.demand = saved
            return
        if isinstance(e, A.Call):
            f = self.fns.get(e.func.name) if isinstance(e.func, A.Path) else None
            if f is None or e.arg_spans is None or len(f.params) != len(e.args):
                return
            for p, a, span in zip(f.params, e.args, e.arg_spans, strict=True):
                if p.ty is not None and p.ty.name in WIDE:
                    if not isinstance(a, A.Lit):
                        self.wrap(*span)
                    self.sub(a, env, True)
            return
        if isinstance(e, (A.MethodCall, A.Index, A.Field, A.Lit, A.Path)):
            return  # usize positions and receivers keep the macro's own typing
        if isinstance(e, A.If):
            if e.let_pat is None:
                self.sub(e.cond, env, False)
            for branch in (e.then, e.els):
                if branch is not None:
                    self.literal_tail(branch)
                    self.expr(branch, env, False)  # the branches are the if's value
            return
        if isinstance(e, A.Match):
            for arm in e.arms:
                self.expr(arm.body, env, False)
            return
        if isinstance(e, A.Block):
            inner = dict(env)
            for st in e.stmts:
                if isinstance(st, A.Let):
                    if st.init is not None:
                        self.sub(st.init, inner, st.ty is not None and st.ty.name in WIDE)
                    if isinstance(st.pat, A.PBind):
                        inner[st.pat.name] = st.ty or (self.type_of(st.init, inner)
                                                       if st.init is not None else None)
            if e.tail is not None:
                self.expr(e.tail, inner, False)
            return

    def literal_tail(self, e: A.Expr) -> None:
        """``if c { 1 as int } else { 0 as int }``: the macro deletes the casts and rustc types
        the bare literals ``i32`` (a method is called on the ``if``), so beside an ``i128``
        they do not compile; as ``i128`` literals they keep their value."""
        while isinstance(e, A.Block) and e.tail is not None and not e.stmts:
            e = e.tail
        if (isinstance(e, A.Cast) and e.ty.name in WIDE and e.span is not None
                and isinstance(e.e, A.Lit) and e.e.kind == "int" and e.e.suffix is None
                and self.off is not None and e.span[1] == e.span[0] + 1):
            s, t = self.off.range(e.span[0], e.span[2])
            lit = self.off.toks[e.span[0]].text
            self.edits.append(Edit(s, t, [f"{lit}i128"], outer=True))

    def quant_body(self, q: A.Quant, env: dict[str, A.TypeRef | None]) -> bool:
        """Walk a guarded quantifier's body; False when it has no guard on its binders.

        ``forall|i| G && A ==> B`` becomes ``G ==> (A ==> B)`` and ``exists|i| G && A && B``
        becomes ``G && (A && B)`` (the macro reads one guard, then the body): the same
        formula, since ``(G && A) ==> B`` is ``G ==> (A ==> B)``."""
        body = q.body
        if not isinstance(body, A.Binary) or body.span is None:
            return False
        if q.kind == "forall":
            if body.op != "==>":
                return False
            left, rest = body.l, [body.r]
        else:
            if body.op != "&&":
                return False
            left, rest = body, []
        spine: list[A.Binary] = []
        g = left
        while isinstance(g, A.Binary) and g.op == "&&" and g.span is not None:
            spine.append(g)
            g = g.l
        inner = spine[-1] if spine else body
        assert inner.span is not None
        # the conjuncts left to right with their token ranges, then which lead as guards
        conj: list[tuple[A.Expr, int, int]] = [(g, inner.span[0], inner.span[1])]
        for node in reversed(spine):
            assert node.span is not None
            conj.append((node.r, node.span[1] + 1, node.span[2]))
        k = 0
        while k < len(conj) and isinstance(conj[k][0], A.Chain) and self.guard(
                q, conj[k][0], conj[k][1], conj[k][2], env):  # type: ignore[arg-type]
            k += 1
        if k == 0 or q.kind == "exists" and k == len(conj):
            return False
        one_left = q.kind == "exists" and k == len(conj) - 1  # already one conjunct
        if k < len(conj) and not one_left and self.off is not None:
            op_at = conj[k][1] - 1  # the `&&` before the first conjunct that is no guard
            g_start = conj[0][1]
            a, _ = self.off.range(g_start, op_at)
            _, b = self.off.range(op_at, body.span[2])
            joint = " ==> (" if q.kind == "forall" else " && ("
            self.edits.append(Edit(a, b, [self.off.range(g_start, op_at), joint,
                                          self.off.range(op_at + 1, body.span[2]), ")"]))
        for x, _, _ in conj[k:]:
            self.sub(x, env, False)
        for x in rest:
            self.sub(x, env, False)
        return True

    def guard(self, q: A.Quant, g: A.Chain, s: int, op: int,
              env: dict[str, A.TypeRef | None]) -> bool:
        """The guard ``g`` (tokens ``s`` to ``op``) of a quantifier over ``int`` binders, in
        the form the macro reads; False when ``g`` does not bound the binders."""
        assert g.spans is not None
        binders = {n for n, _ in q.params}
        mid = g.operands[1:-1]
        if not mid or not all(isinstance(x, A.Path) and len(x.segs) == 1
                              and x.segs[0] in binders for x in mid):
            return False
        wide = {n for n, t in q.params if t is not None and t.name in WIDE and not t.args}
        if not wide & {x.segs[0] for x in mid if isinstance(x, A.Path)}:
            return True  # machine binders: the guard is the macro's already
        if self.off is None:
            self.widened_ids.add(id(g))
            return True
        toks = self.off.toks
        lo_span, hi_span = g.spans[0], g.spans[-1]
        for bound, span in ((g.operands[0], lo_span), (g.operands[-1], hi_span)):
            t = self.type_of(bound, env)
            usize = (isinstance(bound, A.MethodCall) and bound.name == "len"
                     or t is not None and t.name == "usize")
            if not isinstance(bound, A.Lit) and not usize:
                self.wrap(*span, name="__ade_usize")
        self.widened_ids.add(id(g))
        parens = (toks[s].text == "(" and toks[op - 1].text == ")" and lo_span[0] == s + 1
                  and hi_span[1] == op - 1)
        if len(mid) == 1 and not parens:
            return True
        parts: list[str | tuple[int, int]] = []
        hi = self.off.range(*hi_span)
        for j in range(1, len(g.operands) - 1):
            upper = "<" if "<" in g.ops[j:] else "<="
            if parts:
                parts.append(" && ")
            parts += [self.off.range(*g.spans[j - 1]), f" {g.ops[j - 1]} ",
                      self.off.range(*g.spans[j]), f" {upper} ", hi]
        a, b = self.off.range(s, op)
        self.edits.append(Edit(a, b, parts))
        return True

    def flag(self, line: int, what: str) -> None:
        pass


def _signature_edits(module: A.SpecModule, off: Offsets) -> list[Edit]:
    """``int``/``nat`` parameter and result types of spec fns -> ``i128``."""
    toks = module.tokens
    edits: list[Edit] = []
    spec_names = {f.name for f in module.all_fns() if f.mode == "spec"}
    k = 0
    while k < len(toks) - 1:
        if toks[k].text == "fn" and toks[k + 1].text in spec_names:
            j = k + 2
            depth = 0
            while j < len(toks):
                x = toks[j].text
                if x in ("(", "<", "["):
                    depth += 1
                elif x in (")", ">", "]"):
                    depth -= 1
                elif depth <= 0 and x in ("{", "requires", "ensures", "recommends",
                                          "decreases", "when", "via"):
                    break
                if (x in WIDE and j + 1 < len(toks) and toks[j - 1].text in (":", "->")
                        and toks[j + 1].text in (",", ")", "{", "requires", "ensures",
                                                 "recommends", "decreases")):
                    a = off.start(j)
                    edits.append(Edit(a, a + len(x), ["i128"]))
                j += 1
            k = j
        k += 1
    return edits


def widen(module: A.SpecModule, off: Offsets) -> tuple[list[Edit], set[int]]:
    """The edits computing ``int`` in ``i128``, and the ids of the nodes they widened."""
    w = _Widen(module, module.structs, module.fns, {}, rewritten=True, off=off)
    for f in module.all_fns():
        if f.mode == "spec":
            w.fn(f)
    return _signature_edits(module, off) + w.edits, w.widened_ids


def widened_nodes(module: A.SpecModule) -> set[int]:
    """ids of the Binary/Chain nodes whose operands ``widen`` makes ``i128``."""
    w = _Widen(module, module.structs, module.fns, {}, rewritten=True)
    w.wrap = lambda a, b, name="__ade_int": None  # type: ignore[method-assign]
    for f in module.all_fns():
        if f.mode == "spec":
            w.fn(f)
    return w.widened_ids
