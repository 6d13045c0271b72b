"""Core's answers to symbolic questions for any backend that encodes its specs into Z3.

The backend's ``SmtEncoder`` gives each spec's predicates as ``Pred`` (value, defined) over
the task's values; this module states the question, asks the solver child
(``adequacy.symbolic.solver``) and reads the model back into JSON values.

A difference is searched for only where both values are defined (a concrete engine could not
confirm one elsewhere) and only where both encodings are exact (``SpecTerms.exact``: a
recursive helper's uninterpreted remainder never supplies a model). "None" is claimed only
after the same question without the exactness assumption is unsatisfiable too (so it holds
whatever the remainder is) and a second query shows the two predicates are defined on the same
inputs; otherwise the answer is unknown, saying why. A question about collections is first
asked about every input; when the solver cannot decide it, again with every collection at most
``max_len`` long, and a "none" from that query is claimed for that bound only.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

import z3

from adequacy.extensions.symbolic import (
    Answer,
    Decision,
    Model,
    Null,
    Opt,
    Pred,
    Question,
    Rec,
    Scalar,
    SolverLimits,
    SpecTerms,
    Sym,
    Unsupported,
)
from adequacy.model.types import TupleType
from adequacy.symbolic.solver import SolverAnswer, ask, solver_version
from adequacy.symbolic.terms import (
    declare_params,
    decode,
    has_collection,
    invariant,
    leaf_names,
    literal,
    small,
    sym_differs,
    value_term,
)

if TYPE_CHECKING:
    from adequacy.extensions.symbolic import LoadedSpec, SmtEncoder
    from adequacy.model.task import Task

__all__ = ["Z3Symbolic"]

REMAINDER = ("the answer depends on what the encoding leaves uninterpreted (a recursive "
             "helper or comprehension beyond the unfolding depth, --unfold; a language value "
             "the encoding models only in part), where nothing is assumed")


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
        if t is None:
            return SolverAnswer("unknown", reason="out of time (the command's budget)")
        t = max(0.05, t * share)
        s = z3.Solver()
        s.add(*facts)
        self.queries += 1
        ans = ask(s.sexpr(), leaves, timeout=t, memory_mb=self.limits.memory_mb,
                  deadline=self.limits.deadline)
        self.cached += ans.cached
        return ans

    def answer(self, **kw: Any) -> Answer:
        return Answer(queries=self.queries, cached=self.cached,
                      seconds=round(time.monotonic() - self.t0, 3), **kw)


class _Query:
    """One question's facts, split by what each query of the search asserts."""

    def __init__(self, target: list[Any], defined_diff: list[Any] | None,
                 exact: list[Any], syms: dict[str, Sym], ins: dict[str, Sym],
                 outs: dict[str, Sym], post: bool, block: str,
                 fixed_input: dict[str, Any] | None = None,
                 outs2: dict[str, Sym] | None = None) -> None:
        self.fixed_input = fixed_input
        self.outs2 = outs2
        """``two_outputs``: the second output's values."""
        """The input, when the question fixes it (its terms are then literals)."""
        self.target = target
        """What a model satisfies (the difference, or the other output)."""
        self.defined_diff = defined_diff
        """Where only one side is defined (None: no definedness check, e.g. one spec)."""
        self.exact = exact
        self.syms = syms
        self.leaves = [n for s in syms.values() for n in leaf_names(s)]
        self.ins, self.outs, self.post = ins, outs, post
        self.block = block
        """``input`` or ``output``: what a further model must change."""


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
                tag: str, unfold: int) -> SpecTerms:
        try:
            return self.encoder.encode(spec, task, ins, outs, tag, unfold)
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
        unfold = b.limits.unfold
        ta = self._encode(q.a, task, ins, outs, "a", unfold)
        axioms = list(ta.axioms)
        exact = [ta.exact] if ta.exact is not None else []
        post = q.kind == "other_output" or q.predicate == "post"
        syms = {**{f"in.{k}": v for k, v in ins.items()},
                **({f"out.{k}": v for k, v in outs.items()} if post else {})}
        if q.kind == "other_output":
            if q.input is None or q.output is None:
                raise Unsupported("other_output needs an input and its output")
            # the input as literals: the encoding computes with its numbers (a quantifier
            # over its known bounds becomes a finite conjunction)
            ins = {k: _fixed(v, q.input[k]) for k, v in ins.items()}
            ta = self._encode(q.a, task, ins, outs, "a", unfold)
            exact = [ta.exact] if ta.exact is not None else []
            pa = self._pred(ta, "post", "the spec")
            other = z3.Or(*[sym_differs(outs[k], _fixed(outs[k], q.output[k]))
                            for k in outs])
            target = list(ta.axioms) + ta.domain + pa.axioms + [pa.defined, pa.value, other]
            outs_only = {f"out.{k}": v for k, v in outs.items()}
            return self._search(b, _Query(target, None, exact, outs_only, ins, outs, True,
                                          "output", fixed_input=q.input), q.models)
        if q.kind == "two_outputs":
            outs2 = declare_params("out2", [(p.name, p.type) for p in task.outputs])
            t2 = self._encode(q.a, task, ins, outs2, "a2", unfold)
            exact += [t2.exact] if t2.exact is not None else []
            pre = self._pred(ta, "pre", "the spec")
            p1, p2 = self._pred(ta, "post", "the spec"), self._pred(t2, "post", "the spec")
            differ = z3.Or(*[sym_differs(outs[k], outs2[k]) for k in outs])
            target = (axioms + list(t2.axioms) + ta.domain + t2.domain + pre.axioms
                      + p1.axioms + p2.axioms
                      + [pre.defined, pre.value, p1.defined, p1.value, p2.defined, p2.value,
                         differ])
            both = {**syms, **{f"out2.{k}": v for k, v in outs2.items()}}
            return self._search(b, _Query(target, None, exact, both, ins, outs, True, "input",
                                          outs2=outs2), q.models)
        if q.b is None:
            raise Unsupported("a differ question needs two specs")
        tb = self._encode(q.b, task, ins, outs, "b", unfold)
        axioms += tb.axioms
        exact += [tb.exact] if tb.exact is not None else []
        which = q.predicate
        pa, pb = self._pred(ta, which, "A"), self._pred(tb, which, "B")
        facts = list(axioms) + pa.axioms + pb.axioms
        if post:
            facts += ta.domain + tb.domain
        if post and q.gate != "none":
            g = self._pred(ta if q.gate == "a" else tb, "pre", "the reference side")
            facts += g.axioms + [g.defined, g.value]
        differ = {"either": z3.Xor(pa.value, pb.value),
                  "a": z3.And(pa.value, z3.Not(pb.value)),
                  "b": z3.And(pb.value, z3.Not(pa.value))}[q.side]
        target = facts + [pa.defined, pb.defined, differ]
        defdiff = facts + [z3.Xor(pa.defined, pb.defined)]
        return self._search(b, _Query(target, defdiff, exact, syms, ins, outs, post, "input"),
                            q.models)

    def _search(self, b: _Budget, q: _Query, models: int) -> Answer:
        """Small values first, then every value, then (when undecided and the task has
        collections) collections of at most ``max_len``. A model is looked for with the
        encodings exact; "none" needs the same question unsatisfiable without that assumption
        and the definedness check."""
        bounded = any(has_collection(s) for s in q.syms.values())
        scopes: list[int | None] = [None] + ([b.limits.max_len] if bounded else [])
        last = ""
        near = [c for s in q.syms.values() for c in small(s)]
        if near:
            inv = [c for s in q.syms.values() for c in invariant(s, None)]
            ans = b.ask(inv + near + q.exact + q.target, q.leaves, share=0.2)
            if ans.status == "sat":
                return self._found(b, q, ans, inv + q.exact + q.target, models)
        for bound in scopes:
            inv = []
            for s in q.syms.values():
                inv += invariant(s, bound)
            ans = b.ask(inv + q.exact + q.target, q.leaves)
            if ans.status == "sat":
                return self._found(b, q, ans, inv + q.exact + q.target, models)
            if ans.status == "unknown":
                last = ans.reason or "solver gave up"
                continue
            if q.exact:
                whole = b.ask(inv + q.target, [])
                if whole.status != "unsat":
                    last = REMAINDER if whole.status == "sat" else (
                        "not settled where the encoding is not exact (past the unfolding "
                        f"depth): {whole.reason or 'solver gave up'}")
                    continue
            if q.defined_diff is not None:
                d = b.ask(inv + q.defined_diff, q.leaves)
                if d.status == "sat":
                    why = ("the predicates agree wherever both are defined, but one is "
                           "undefined (an index out of range, a division by zero, an "
                           "unspecified value) where the other is not")
                    if q.exact:
                        return b.answer(status="unknown", reason=why + " (or the "
                                        "difference rests on what the encoding leaves "
                                        "uninterpreted)")
                    inp = {k: decode(v, d.values) for k, v in q.ins.items()}
                    return b.answer(status="unknown", input=inp, reason=why + ", e.g. on "
                                    "this input")
                if d.status == "unknown":
                    last = f"definedness not settled: {d.reason or 'solver gave up'}"
                    continue
            return b.answer(status="none", scope="all" if bound is None else "bounded",
                            bound=bound)
        return b.answer(status="unknown", reason=last)

    def _found(self, b: _Budget, q: _Query, first: SolverAnswer, facts: list[Any],
               models: int) -> Answer:
        """The first model, and up to ``models - 1`` more, each blocked from repeating an
        earlier one's input (or output)."""
        got = [self._model(first, q)]
        blocked = list(facts)
        while len(got) < models:
            m = got[-1]
            if q.block == "input" and q.fixed_input is None:
                same = [value_term(q.ins[k], m.input[k]) for k in q.ins]
            else:
                same = [value_term(q.outs[k], (m.output or {})[k]) for k in q.outs]
            blocked.append(z3.Not(z3.And(*same)) if same else z3.BoolVal(False))
            ans = b.ask(blocked, q.leaves, share=0.5)
            if ans.status != "sat":
                break
            got.append(self._model(ans, q))
        return b.answer(status="found", input=got[0].input, output=got[0].output,
                        other=got[0].other, more=got[1:])

    @staticmethod
    def _model(ans: SolverAnswer, q: _Query) -> Model:
        inp = (dict(q.fixed_input) if q.fixed_input is not None else
               {k: decode(v, ans.values) for k, v in q.ins.items()})
        return Model(input=inp,
                     output=({k: decode(v, ans.values) for k, v in q.outs.items()} if q.post
                             else None),
                     other=({k: decode(v, ans.values) for k, v in q.outs2.items()}
                            if q.outs2 is not None else None))

    def decide(self, task: Task, q: Question, limits: SolverLimits) -> Decision:
        """Proofs only (no exactness assumed): a recursive helper's remainder can make the
        answer unknown, never wrong."""
        b = _Budget(limits)
        t0 = time.monotonic()
        try:
            ins, outs = self._vars(task)
            if q.input is None:
                raise Unsupported("no input")
            # the case's values as literals: the encoding computes with its numbers
            ins = {k: _fixed(v, q.input[k]) for k, v in ins.items()}
            if q.predicate == "post":
                if q.output is None:
                    raise Unsupported("no output")
                outs = {k: _fixed(v, q.output.get(k)) for k, v in outs.items()}
            t = self._encode(q.a, task, ins, outs, "a", limits.unfold)
            p = self._pred(t, q.predicate, "the spec")
            facts = list(t.axioms) + p.axioms
        except (Unsupported, z3.Z3Exception, KeyError, TypeError, ValueError) as e:
            return Decision(value=None, reason=f"outside the SMT encoding: {e}",
                            failure="outside")
        yes = b.ask(facts + [z3.Not(z3.And(p.defined, p.value))], [])
        if yes.status == "unsat":
            return Decision(value=True, reason="proved", seconds=time.monotonic() - t0)
        no = b.ask(facts + [z3.Not(z3.And(p.defined, z3.Not(p.value)))], [])
        if no.status == "unsat":
            return Decision(value=False, reason="negation proved",
                            seconds=time.monotonic() - t0)
        why = [a.reason for a in (yes, no) if a.status == "unknown" and a.reason]
        timed_out = any("timeout" in w or "out of time" in w for w in why)
        return Decision(value=None, reason=("neither the predicate nor its negation proved"
                                            + (f" ({why[0]})" if why else "")),
                        seconds=time.monotonic() - t0,
                        failure="timeout" if timed_out else None)


def _fixed(s: Sym, v: Any) -> Sym:
    """A ``Sym`` of the same shape whose leaves are the literal value ``v``."""
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
        items = (dict(zip(s.fields, v, strict=True)) if isinstance(s.ty, TupleType) else v)
        return Rec(s.ty, {k: _fixed(x, items[k]) for k, x in s.fields.items()})
    raise Unsupported("cannot encode a value")
