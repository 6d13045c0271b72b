"""JML specs as Z3 terms (the backend's ``smt_encoder()``) and the ``smt`` engine.

The method's precondition is the Kleene disjunction over its spec cases of each case's
``requires`` (read in order, with Java's short-circuit); its postcondition the Kleene
conjunction over cases of "the case's precondition implies its ``ensures``" (docs/jml.md,
"Semantics"). Parameters in ``ensures`` read the post-state of arrays the task records
(``[jml] post_state``), ``\\old`` the input.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from adequacy.plugin import (
    UNFOLD_DEPTH,
    Null,
    Pred,
    Scalar,
    SpecTerms,
    Sym,
    Task,
    Unsupported,
    source_version,
)

__all__ = ["JmlSmtEncoder"]

HERE = Path(__file__).resolve().parent


class JmlSmtEncoder:
    """``SmtEncoder`` for JML: a static method's spec cases over its parameters."""

    name = "jml-smt"

    def version(self) -> str:
        return source_version(sorted(HERE.glob("*.py")) + sorted(
            (HERE.parent / "jml").glob("*.py")))

    def encode(self, spec: Any, task: Task, inputs: dict[str, Sym], outputs: dict[str, Sym],
               tag: str, unfold: int = UNFOLD_DEPTH) -> SpecTerms:
        import z3  # here: the engine rows load this package in every JML score

        from ..jml.semantics import spec_math_mode
        from .encode import JE, JmlEncoder, _seq, kleene_and, kleene_or, param_value, sc

        js = spec.data
        if js.gap:
            raise Unsupported(js.gap)
        if "static" not in js.method.modifiers:
            raise Unsupported("an instance method (fields and the receiver are not encoded)")
        mode = spec_math_mode(js.cls, js.method)
        enc = JmlEncoder(js, mode, tag, unfold)
        pre_env: dict[str, JE] = {}
        for ty, name in js.method.params:
            if name not in inputs:
                raise Unsupported(f"parameter {name} is not a task input")
            pre_env[name] = param_value(ty, inputs[name])
        post_env = dict(pre_env)
        axioms: list[Any] = []
        domain: list[Any] = []
        for name in task.settings.get("post_state", []) or []:
            ty = next((t for t, n in js.method.params if n == name), None)
            if ty is None or name not in outputs:
                raise Unsupported(f"post-state {name}")
            post_env[name] = param_value(ty, outputs[name])
            a, b = pre_env[name].v, post_env[name].v
            if isinstance(a, Null) and isinstance(b, Null):
                # a method cannot change an array's length nor null the caller's reference
                domain.append(z3.Implies(z3.Not(a.null), z3.And(
                    z3.Not(b.null), z3.Length(_seq(a)) == z3.Length(_seq(b)))))
        rt = (js.method.return_type or "void").strip()
        if rt != "void":
            if "result" not in outputs:
                raise Unsupported("\\result without a result output")
            r = outputs["result"]
            post_env["\\result"] = param_value(rt, r) if not (
                isinstance(r, Scalar) and rt in ("int", "long", "short", "byte", "char",
                                                 "boolean")) else JE(r, rt)
        gaps: dict[str, str] = {}
        cases: list[tuple[Any, Any, Any, Any]] = []
        try:
            for c in js.cases:
                acc = None
                for ex, _line in c.requires:
                    x = enc.expr(ex, pre_env, pre_env)
                    acc = x if acc is None else enc.logic("&&", acc, x)
                pre = acc or JE(sc(z3.BoolVal(True), "boolean"), "boolean")
                acc2 = None
                for ex, _line in c.ensures:
                    x = enc.expr(ex, post_env, pre_env)
                    acc2 = x if acc2 is None else enc.logic("&&", acc2, x)
                ens = acc2 or JE(sc(z3.BoolVal(True), "boolean"), "boolean")
                cases.append((pre.v.term, pre.d, ens.v.term, ens.d))
        except Unsupported as e:
            gaps = {"pre": str(e), "post": str(e)}
            return SpecTerms(None, None, axioms=axioms, gaps=gaps, domain=domain)
        if not cases:
            return SpecTerms(Pred(z3.BoolVal(True), z3.BoolVal(True)),
                             Pred(z3.BoolVal(True), z3.BoolVal(True)), axioms=axioms,
                             domain=domain)
        pre_p = kleene_or([(p, dp) for p, dp, _, _ in cases])
        post_p = kleene_and([(z3.Implies(p, q), z3.And(dp, z3.Or(z3.Not(p), dq)))
                              for p, dp, q, dq in cases])
        exact = [x for x in (enc.unfold.exact, *enc.exact_when) if x is not None]
        return SpecTerms(pre_p, post_p, axioms=axioms, domain=domain,
                         exact=z3.And(*exact) if exact else None)
