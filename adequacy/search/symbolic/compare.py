"""Symbolic diff and explore: the solver proposes, the concrete engines dispose.

``compare_symbolic(task, spec, reference)`` asks the task's backend (``Backend.symbolic()``)
for an input where the two preconditions differ and for an input the reference side's
precondition accepts with an output where the postconditions differ. Each model becomes
concrete values and is judged again by both specs through the normal scoring path with the
concrete engines only (the ``smt`` engine left out, so the solver never confirms itself):

- both decide, differently: a **counterexample**, shrunk like a sampled one
  (``exploring``'s shrinker), labelled by the task's own oracles where they decide;
- both decide, alike: an **encoding fault** (the encoding and the engines disagree), reported
  as such and never as a counterexample;
- either leaves it unknown: **unconfirmed**, reported with the values, not a counterexample.

Where the solver proves no difference, the report says exactly what was proved: "for every
input" or "for every input with collections of length <= L".
"""

from __future__ import annotations

import time
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from adequacy.errors import AdequacyError, BackendError
from adequacy.extensions.symbolic import Answer, Question, SolverLimits
from adequacy.model.task import Task
from adequacy.model.verdicts import Bucket
from adequacy.scoring.options import ScoreOptions
from adequacy.search.explore import Disagreement, _Search
from adequacy.search.oracles import OracleJudge, SpecJudge, Word

__all__ = ["Finding", "SymbolicReport", "compare_symbolic", "concrete_options", "equivalence"]


class Finding(BaseModel):
    """One solver model, after the concrete engines judged it."""

    model_config = ConfigDict(extra="forbid")

    predicate: Literal["pre", "post"]
    status: Literal["counterexample", "encoding_fault", "unconfirmed"]
    input: dict[str, Any]
    output: dict[str, Any] | None = None
    left: bool | None = None
    """The spec under search's concrete word (accepts?)."""
    right: bool | None = None
    """The reference side's concrete word."""
    detail: str = ""
    disagreement: Disagreement | None = None
    """The shrunk counterexample (``counterexample`` only)."""
    oracle_bucket: Bucket | None = None
    """The bucket the task's own oracles put it in, where they decide (else None)."""
    oracle_note: str = ""


class PredicateResult(BaseModel):
    model_config = ConfigDict(extra="forbid")

    predicate: Literal["pre", "post"]
    answer: Answer
    claim: str = ""
    """For a proof: exactly what was proved ("equivalent for every input ...")."""


class SymbolicReport(BaseModel):
    model_config = ConfigDict(extra="forbid")

    task: str
    left: str
    right: str
    budget: float
    seconds: float = 0.0
    results: list[PredicateResult] = []
    findings: list[Finding] = []

    @property
    def counterexamples(self) -> list[Disagreement]:
        return [f.disagreement for f in self.findings
                if f.status == "counterexample" and f.disagreement is not None]

    def verdict(self) -> Literal["different", "equivalent", "bounded", "unknown"]:
        """``different`` (a confirmed counterexample), ``equivalent`` (both predicates
        proved equal for every input), ``bounded`` (proved, some only up to a length), or
        ``unknown``."""
        if self.counterexamples:
            return "different"
        if len(self.results) == 2 and all(r.answer.status == "none" for r in self.results):
            if all(r.answer.scope == "all" for r in self.results):
                return "equivalent"
            return "bounded"
        return "unknown"


def concrete_options(task: Task, options: ScoreOptions) -> ScoreOptions:
    """``options`` with the concrete engines only: the engines asked for, or the backend's
    default chain, without ``smt`` (a solver must not confirm its own models)."""
    from adequacy.extensions.registry import backend_for
    names = [e for e in options.engines if e != "smt"]
    if not names:
        b = backend_for(task.language)
        names = [e.name for e in b.engines() if e.info().default and e.name != "smt"]
    return options.with_(engines=names)


def _word(w: Word) -> bool | None:
    return w.value


class _Run:
    def __init__(self, task: Task, left: SpecJudge, right: SpecJudge, budget: float,
                 limits: SolverLimits, seed: int) -> None:
        self.task, self.left, self.right = task, left, right
        self.start = time.monotonic()
        self.deadline = self.start + budget
        for j in (left, right):
            j.deadline = self.deadline
        self.limits = limits.model_copy(update={"deadline": self.deadline})
        self.seed = seed
        try:
            self.oracle: OracleJudge | None = OracleJudge(task)
            if self.oracle.describe == "no oracle":
                self.oracle = None
        except AdequacyError:
            self.oracle = None

    def confirm(self, pred: Literal["pre", "post"], ans: Answer) -> Finding:
        inp = ans.input or {}
        out = ans.output
        if pred == "pre":
            a, b = self.left.inputs([inp])[0], self.right.inputs([inp])[0]
        else:
            gate = self.right.inputs([inp])[0]
            if gate.value is not True:
                return Finding(predicate=pred, status=("encoding_fault" if gate.value is False
                                                       else "unconfirmed"),
                               input=inp, output=out, detail=(
                                   "the reference side's precondition, evaluated "
                                   f"concretely, does not accept the input ({gate.reason})"))
            assert out is not None
            a, b = self.left.outputs([(inp, out)])[0], self.right.outputs([(inp, out)])[0]
        f = Finding(predicate=pred, status="unconfirmed", input=inp, output=out,
                    left=_word(a), right=_word(b))
        if a.value is None or b.value is None:
            f.detail = (f"the concrete engines leave it undecided (spec: {a.reason}; "
                        f"reference: {b.reason}); not a counterexample")
            return f
        if a.value == b.value:
            f.status = "encoding_fault"
            f.detail = ("the solver's model is not a difference for the concrete engines "
                        f"(both {'accept' if a.value else 'reject'}): a fault of the encoding")
            return f
        f.status = "counterexample"
        d = Disagreement(predicate=pred, input=inp, output=out if pred == "post" else None,
                         left=bool(a.value), right=bool(b.value), left_reason=a.reason,
                         right_reason=b.reason)
        if time.monotonic() < self.deadline:
            s = _Search(self.task, self.left, self.right, self.seed,
                        max(0.0, self.deadline - time.monotonic()), "right", 1)
            s.start, s.deadline = self.start, self.deadline
            d = s.shrink(d)
            if s._known(d):
                d = d.model_copy(update={"existing": s.existing.get(s._case_key(
                    d.bucket, d.input, d.output))})
        else:
            d = d.model_copy(update={"found": {"input": inp, "output": out}})
        f.disagreement = d
        f.input, f.output = d.input, d.output
        self.label(f, d)
        return f

    def label(self, f: Finding, d: Disagreement) -> None:
        """The bucket the task's own oracles put the case in, where they decide."""
        if self.oracle is None:
            f.oracle_note = "the task has no oracle of its own; labelled by the reference spec"
            return
        w = self.oracle.inputs([d.input])[0]
        if d.predicate == "pre":
            if w.value is None:
                f.oracle_note = f"the task's oracles do not decide the input ({w.reason})"
                return
            f.oracle_bucket = Bucket.pre_complete if w.value else Bucket.pre_sound
            f.oracle_note = w.reason
            return
        if w.value is False:
            f.oracle_note = f"the task's oracles call the input invalid ({w.reason})"
            return
        assert d.output is not None
        o = self.oracle.outputs([(d.input, d.output)])[0]
        if o.value is None:
            f.oracle_note = f"the task's oracles do not decide the output ({o.reason})"
            return
        f.oracle_bucket = Bucket.post_complete if o.value else Bucket.post_sound
        f.oracle_note = o.reason


def compare_symbolic(task: Task, left: SpecJudge, right: SpecJudge, *, budget: float = 10.0,
                     limits: SolverLimits | None = None, seed: int = 0,
                     predicates: tuple[str, ...] = ("pre", "post")) -> SymbolicReport:
    """Symbolic search of where ``left`` (the spec under search) and ``right`` (the reference
    side: the gold or oracle spec) differ; post is compared only on inputs ``right``'s
    precondition accepts. The judges must use the concrete engines (``concrete_options``)."""
    from adequacy.extensions.registry import backend_for
    backend = backend_for(task.language)
    from adequacy.symbolic.capability import symbolic_of
    sym = symbolic_of(backend)
    if sym is None:
        raise BackendError(f"the {backend.name} backend answers no symbolic questions "
                           "(it has no smt_encoder() or symbolic())")
    lim = limits or SolverLimits()
    run = _Run(task, left, right, budget, lim, seed)
    la = backend.load_spec(task, left.text, left.path)
    ra = backend.load_spec(task, right.text, right.path)
    rep = SymbolicReport(task=task.id, left=left.name, right=right.name, budget=budget)
    for pred in predicates:
        q = Question(kind="differ", a=la, b=ra, predicate=pred, gate="b")  # type: ignore[arg-type]
        ans = sym.find(task, q, run.limits)
        claim = ""
        if ans.status == "none":
            claim = (f"{pred}conditions equivalent {ans.claim()}" + (
                " (compared where the reference side's precondition holds)"
                if pred == "post" else ""))
        rep.results.append(PredicateResult(predicate=pred, answer=ans,  # type: ignore[arg-type]
                                           claim=claim))
        if ans.status == "found":
            rep.findings.append(run.confirm(pred, ans))  # type: ignore[arg-type]
    rep.seconds = round(time.monotonic() - run.start, 3)
    return rep


def equivalence(task: Task, a_text: str, b_text: str, *, options: ScoreOptions | None = None,
                budget: float = 10.0, limits: SolverLimits | None = None
                ) -> SymbolicReport:
    """Are two specs of ``task`` equivalent? (``b`` is the reference side.) The library entry
    point for tools that judge rewrites or mutants: ``report.verdict()`` is ``equivalent``,
    ``bounded`` (proved up to a collection length), ``different`` (a counterexample both
    concrete engines confirm) or ``unknown``."""
    opts = concrete_options(task, options or ScoreOptions())
    left = SpecJudge(task, a_text, None, opts, name="A")
    right = SpecJudge(task, b_text, None, opts, name="B")
    return compare_symbolic(task, left, right, budget=budget, limits=limits)
