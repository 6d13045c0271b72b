"""Core's answers to symbolic questions for any backend that encodes its specs into Z3.

The backend's ``SmtEncoder`` gives each spec's predicates as ``Pred`` (value, defined) over
the task's values; this module states the question, asks the solver child
(``adequacy.symbolic.solver``) and reads the model back into JSON values.

A difference is searched for only where both values are defined (a concrete engine could not
confirm one elsewhere). "None" is claimed only after a second query shows that the two
predicates are also defined on the same inputs; otherwise the answer is unknown, saying so.
A question about collections is first asked about every input; when the solver cannot decide
it, again with every collection at most ``max_len`` long, and a "none" from that query is
claimed for that bound only.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

import z3

from adequacy.extensions.symbolic import Answer, Decision, Pred, Question, SolverLimits, SpecTerms
from adequacy.symbolic.solver import SolverAnswer, ask, solver_version
from adequacy.symbolic.terms import (
    Sym,
    Unsupported,
    declare_params,
    decode,
    has_collection,
    invariant,
    leaf_names,
    small,
    sym_eq,
    value_term,
)

if TYPE_CHECKING:
    from adequacy.extensions.symbolic import LoadedSpec, SmtEncoder
    from adequacy.model.task import Task

__all__ = ["Z3Symbolic"]


class _Budget:
    def __init__(self, limits: SolverLimits) -> None:
        self.limits = limits
        self.queries = 0
        self.cached = 0
        self.t0 = time.monotonic()

    def timeout(self) -> float | None:
        """Seconds for the next query, None when the deadline has passed."""
        t = self.limits.query_seconds
        if self.limits.deadline is not None:
            left = self.limits.deadline - time.monotonic()
            if left <= 0.05:
                return None
            t = min(t, left)
        return t

    def ask(self, facts: list[Any], leaves: list[str], share: float = 1.0) -> SolverAnswer:
        t = self.timeout()
        if t is not None:
            t = max(0.05, t * share)
        if t is None:
            return SolverAnswer("unknown", reason="out of time (the command's budget)")
        s = z3.Solver()
        s.add(*facts)
        self.queries += 1
        ans = ask(s.sexpr(), leaves, timeout=t, memory_mb=self.limits.memory_mb)
        self.cached += ans.cached
        return ans

    def answer(self, **kw: Any) -> Answer:
        return Answer(queries=self.queries, cached=self.cached,
                      seconds=round(time.monotonic() - self.t0, 3), **kw)


class Z3Symbolic:
    """``Symbolic`` on top of a backend's ``SmtEncoder``."""

    name = "z3"

    def __init__(self, encoder: SmtEncoder) -> None:
        self.encoder = encoder

    def version(self) -> str:
        return f"{solver_version()}+{self.encoder.name}-{self.encoder.version()}"

    # ------------------------------------------------------------------ encoding
    def _vars(self, task: Task) -> tuple[dict[str, Sym], dict[str, Sym]]:
        ins = declare_params("in", [(p.name, p.type) for p in task.inputs])
        outs = declare_params("out", [(p.name, p.type) for p in task.outputs])
        return ins, outs

    def _encode(self, spec: LoadedSpec, task: Task, ins: dict[str, Sym], outs: dict[str, Sym],
                tag: str) -> SpecTerms:
        try:
            return self.encoder.encode(spec, task, ins, outs, tag)
        except Unsupported as e:
            return SpecTerms(None, None, gaps={"pre": str(e), "post": str(e)})
        except RecursionError:
            return SpecTerms(None, None, gaps={"pre": "formula nested too deeply",
                                               "post": "formula nested too deeply"})

    @staticmethod
    def _pred(t: SpecTerms, which: str, who: str) -> Pred:
        p = t.pre if which == "pre" else t.post
        if p is None:
            raise Unsupported(f"{who}'s {which}condition: {t.gaps.get(which, 'not encodable')}")
        return p

    @staticmethod
    def _invariants(syms: dict[str, Sym], max_len: int | None) -> list[Any]:
        out: list[Any] = []
        for s in syms.values():
            out += invariant(s, max_len)
        return out

    # ------------------------------------------------------------------ questions
    def find(self, task: Task, q: Question, limits: SolverLimits) -> Answer:
        b = _Budget(limits)
        try:
            return self._find(task, q, b)
        except Unsupported as e:
            return b.answer(status="unknown", reason=f"outside the SMT encoding: {e}")
        except z3.Z3Exception as e:
            return b.answer(status="unknown", reason=f"encoding failed: {e}")

    def _find(self, task: Task, q: Question, b: _Budget) -> Answer:
        ins, outs = self._vars(task)
        ta = self._encode(q.a, task, ins, outs, "a")
        axioms = list(ta.axioms)
        post = q.kind == "other_output" or q.predicate == "post"
        syms = {**{f"in.{k}": v for k, v in ins.items()},
                **({f"out.{k}": v for k, v in outs.items()} if post else {})}
        leaves = [n for s in syms.values() for n in leaf_names(s)]
        if q.kind == "other_output":
            pa = self._pred(ta, "post", "the spec")
            if q.input is None or q.output is None:
                raise Unsupported("other_output needs an input and its output")
            fixed = [value_term(ins[k], q.input[k]) for k in ins]
            other = z3.Not(z3.And(*[sym_eq(outs[k], _fixed(outs[k], q.output[k]))
                                    for k in outs]))
            facts = fixed + axioms + [pa.defined, pa.value, other]
            outs_only = {f"out.{k}": v for k, v in outs.items()}
            return self._search(b, facts, [], outs_only, leaves, ins, outs, post)
        if q.b is None:
            raise Unsupported("a differ question needs two specs")
        tb = self._encode(q.b, task, ins, outs, "b")
        axioms += tb.axioms
        which = q.predicate
        pa, pb = self._pred(ta, which, "A"), self._pred(tb, which, "B")
        facts = list(axioms)
        if post and q.gate != "none":
            g = self._pred(ta if q.gate == "a" else tb, "pre", "the reference side")
            facts += [g.defined, g.value]
        diff = z3.And(pa.defined, pb.defined, z3.Xor(pa.value, pb.value))
        defdiff = z3.Xor(pa.defined, pb.defined)
        return self._search(b, facts + [diff], facts + [defdiff], syms, leaves, ins, outs, post)

    def _search(self, b: _Budget, facts: list[Any], defined_facts: list[Any],
                syms: dict[str, Sym], leaves: list[str], ins: dict[str, Sym],
                outs: dict[str, Sym], post: bool) -> Answer:
        """Unbounded first, then bounded when undecided; 'none' needs the definedness check
        (``defined_facts``: a model there is an input where only one side is defined)."""
        bounded = any(has_collection(s) for s in syms.values())
        scopes: list[int | None] = [None] + ([b.limits.max_len] if bounded else [])
        last = ""
        # a short look among small values first: quick models, and small ones
        near = [c for s in syms.values() for c in small(s)]
        if near:
            inv = [c for s in syms.values() for c in invariant(s, None)]
            ans = b.ask(inv + near + facts, leaves, share=0.2)
            if ans.status == "sat":
                return b.answer(status="found", **self._model(ans, ins, outs, post))
        for bound in scopes:
            inv = []
            for s in syms.values():
                inv += invariant(s, bound)
            ans = b.ask(inv + facts, leaves)
            if ans.status == "sat":
                return b.answer(status="found", **self._model(ans, ins, outs, post))
            if ans.status == "unknown":
                last = ans.reason or "solver gave up"
                continue
            if defined_facts:
                d = b.ask(inv + defined_facts, leaves)
                if d.status == "sat":
                    inp = {k: decode(v, d.values) for k, v in ins.items()}
                    return b.answer(status="unknown", input=inp, reason=(
                        "the predicates agree wherever both are defined, but one is "
                        "undefined (an index out of range, a division by zero, an "
                        "unspecified value) where the other is not, e.g. on this input"))
                if d.status == "unknown":
                    last = f"definedness not settled: {d.reason or 'solver gave up'}"
                    continue
            return b.answer(status="none", scope="all" if bound is None else "bounded",
                            bound=bound)
        return b.answer(status="unknown", reason=last)

    @staticmethod
    def _model(ans: SolverAnswer, ins: dict[str, Sym], outs: dict[str, Sym], post: bool
               ) -> dict[str, Any]:
        return {"input": {k: decode(v, ans.values) for k, v in ins.items()},
                "output": ({k: decode(v, ans.values) for k, v in outs.items()} if post
                           else None)}

    def decide(self, task: Task, q: Question, limits: SolverLimits) -> Decision:
        b = _Budget(limits)
        t0 = time.monotonic()
        try:
            ins, outs = self._vars(task)
            t = self._encode(q.a, task, ins, outs, "a")
            p = self._pred(t, q.predicate, "the spec")
            if q.input is None:
                raise Unsupported("no input")
            fixed = [value_term(ins[k], q.input[k]) for k in ins]
            if q.predicate == "post":
                if q.output is None:
                    raise Unsupported("no output")
                fixed += [value_term(outs[k], _plain(q.output.get(k))) for k in outs]
            facts = fixed + list(t.axioms)
        except Unsupported as e:
            return Decision(value=None, reason=f"outside the SMT encoding: {e}")
        except (z3.Z3Exception, KeyError, TypeError, ValueError) as e:
            return Decision(value=None, reason=f"outside the SMT encoding: {e}")
        yes = b.ask(facts + [z3.Not(z3.And(p.defined, p.value))], [])
        if yes.status == "unsat":
            return Decision(value=True, reason="proved", seconds=time.monotonic() - t0)
        no = b.ask(facts + [z3.Not(z3.And(p.defined, z3.Not(p.value)))], [])
        if no.status == "unsat":
            return Decision(value=False, reason="negation proved",
                            seconds=time.monotonic() - t0)
        why = [a.reason for a in (yes, no) if a.status == "unknown" and a.reason]
        return Decision(value=None, reason=("neither the predicate nor its negation proved"
                                            + (f" ({why[0]})" if why else "")),
                        seconds=time.monotonic() - t0)


def _plain(v: Any) -> Any:
    return v


def _fixed(s: Sym, v: Any) -> Sym:
    """A ``Sym`` of the same shape whose leaves are the literal value ``v``."""
    from adequacy.symbolic.terms import Null, Opt, Rec, Scalar, literal
    if isinstance(s, Scalar):
        return Scalar(s.ty, literal(s.ty, v))
    if isinstance(s, Opt):
        if v is None:
            return Opt(s.ty, z3.BoolVal(False), s.val)
        return Opt(s.ty, z3.BoolVal(True), _fixed(s.val, v["some"]))
    if isinstance(s, Null):
        if v is None:
            return Null(s.ty, z3.BoolVal(True), s.val)
        return Null(s.ty, z3.BoolVal(False), _fixed(s.val, v))
    if isinstance(s, Rec):
        from adequacy.model.types import TupleType
        items = (dict(zip(s.fields, v, strict=True)) if isinstance(s.ty, TupleType) else v)
        return Rec(s.ty, {k: _fixed(x, items[k]) for k, x in s.fields.items()})
    raise Unsupported("cannot encode a value")
