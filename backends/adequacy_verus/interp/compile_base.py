"""What the expression compilers share: ``Program`` is one class made of three mixins
(``compile_ops``, ``compile_access``, ``compile_control``), each compiling one kind of node;
this base declares the state they read and the dispatch they all call."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..syntax import ast as A
from .runtime import Budget, Code, FnCode, Scope
from .values import Undef


class Compiling:
    """State and dispatch of a compiled module (``compiler.Program`` fills the state)."""

    module: A.SpecModule
    structs: dict[str, A.StructItem]
    enums: dict[str, A.EnumItem]
    variants: dict[str, tuple[A.EnumItem, A.Variant]]
    fns: dict[str, FnCode]
    methods: dict[str, dict[str, FnCode]]
    unsupported: list[tuple[str, int]]
    allow_old: bool
    budget: Budget
    split_count: int

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

    # provided by the mixins and ``Program``
    def caller(self, fc: FnCode, line: int) -> Callable[..., Any]:
        raise NotImplementedError

    def static_type(self, e: A.Expr, sc: Scope) -> str | None:
        raise NotImplementedError

    def static_type_ref(self, e: A.Expr, sc: Scope) -> A.TypeRef | None:
        raise NotImplementedError

    def pattern(self, p: A.Pat, sc: Scope) -> Callable[[Any, list[Any]], bool]:
        raise NotImplementedError
