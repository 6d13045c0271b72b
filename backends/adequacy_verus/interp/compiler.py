"""Compile spec expressions into trees of Python closures, then evaluate them.

Each syntax node becomes one closure taking the current frame (a list of slot values; names
are resolved to slots at compile time), so evaluating a quantifier body per element costs a
few Python calls instead of a walk over the syntax tree with dictionary look-ups. Three-valued
logic is carried by the ``Undef`` exception: ``&&``, ``||``, ``==>`` and the quantifiers catch
it and decide where the other operand decides, everything else lets it propagate.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..attributes import uninterpreted
from ..syntax import ast as A
from .compile_access import Access
from .compile_control import Control
from .compile_ops import Operators
from .runtime import Budget, Code, CompileError, FnCode, Scope, set_current
from .values import (
    Abort,
    EnumVal,
    MSet,
    StructVal,
    Tup,
    Undef,
)


class Program(Operators, Access, Control):
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
            if uninterpreted(fc.item):
                line = fc.item.line
                name = fc.item.name
                why = ("#[verifier::external_body]: Verus ignores its body"
                       if fc.item.body is not None else "it has no body")

                def nobody(fr: list[Any]) -> Any:
                    raise Undef(f"spec fn {name} is uninterpreted ({why})", line)
                fc.body = nobody
            else:
                # destructuring parameters
                pre: list[tuple[Any, int]] = []
                for p, slot in zip(fc.item.params, fc.param_slots, strict=True):
                    if p.pat is not None:
                        pre.append((self.pattern(p.pat, scope), slot))
                assert fc.item.body is not None  # uninterpreted() said it has one
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


__all__ = ["Abort", "Budget", "CompileError", "Program", "Scope", "Undef", "MSet", "StructVal",
           "Tup", "EnumVal"]
