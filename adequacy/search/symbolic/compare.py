"""Symbolic diff and explore: the solver proposes, the concrete engines dispose.

``compare_symbolic(task, spec, reference)`` asks the task's backend (``Backend.symbolic()``)
for inputs where the two preconditions differ and for inputs the reference side's
precondition accepts with outputs where the postconditions differ, one side of each
difference at a time (the spec accepts what the reference rejects, and the other way round:
each side is a different bucket). Each model becomes concrete values and is judged again by
both specs through the normal scoring path with the concrete engines only (the ``smt`` engine
left out, so the solver never confirms itself):

- both decide, differently: a **counterexample**, shrunk like a sampled one
  (``adequacy.search.explore.shrink``), labelled by the task's own oracles where they decide;
- both decide, alike: an **encoding fault** (the encoding and the engines disagree), reported
  as such and never as a counterexample;
- either leaves it unknown: **unconfirmed**, reported with the values, not a counterexample.

Where the solver proves no difference, the report says exactly what was proved: "for every
input" or "for every input with collections of length <= L".
"""

from __future__ import annotations

import json
import time
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from adequacy.console import progress
from adequacy.errors import AdequacyError, BackendError
from adequacy.extensions.symbolic import Answer, Model, Question, SolverLimits, Symbolic
from adequacy.model.task import Task
from adequacy.model.verdicts import Bucket
from adequacy.scoring.options import ScoreOptions
from adequacy.search.explore import JudgeDisagreement, shrink
from adequacy.search.oracles import OracleJudge, SpecJudge, Word

__all__ = ["SymbolicFinding", "PredicateResult", "SymbolicReport", "compare_symbolic",
           "concrete_options", "equivalence", "symbolic_for"]

_SIDE_WORDS = {"a": "the spec accepts, the reference rejects",
               "b": "the reference accepts, the spec rejects"}

Side = Literal["a", "b"]
"""Which side of a difference: ``a`` the spec under search holds and the reference side does
not, ``b`` the other way round."""


class SymbolicFinding(BaseModel):
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
    disagreement: JudgeDisagreement | None = None
    """The shrunk counterexample (``counterexample`` only)."""
    oracle_bucket: Bucket | None = None
    """The bucket the task's own oracles put it in, where they decide (else None)."""
    oracle_note: str = ""


class PredicateResult(BaseModel):
    """The solver's answer on one side of one predicate's difference."""

    model_config = ConfigDict(extra="forbid")

    predicate: Literal["pre", "post"]
    side: Literal["a", "b", "either"] = "either"
    answer: Answer
    claim: str = ""
    """For a proof: exactly what was proved ("... equivalent for every input ...")."""


class SymbolicReport(BaseModel):
    model_config = ConfigDict(extra="forbid")

    task: str
    left: str
    right: str
    budget: float
    seconds: float = 0.0
    results: list[PredicateResult] = []
    findings: list[SymbolicFinding] = []

    @property
    def counterexamples(self) -> list[JudgeDisagreement]:
        return [f.disagreement for f in self.findings
                if f.status == "counterexample" and f.disagreement is not None]

    def proved(self, predicate: str) -> Answer | None:
        """The proof that ``predicate`` has no difference on either side (the weaker scope of
        the two), or None when one side was not proved."""
        rs = [r.answer for r in self.results if r.predicate == predicate]
        if not rs or any(a.status != "none" for a in rs):
            return None
        bounded = [a for a in rs if a.scope == "bounded"]
        return min(bounded, key=lambda a: a.bound or 0) if bounded else rs[0]

    def verdict(self) -> Literal["different", "equivalent", "bounded", "unknown"]:
        """``different`` (a confirmed counterexample), ``equivalent`` (both predicates
        proved equal for every input), ``bounded`` (proved, some only up to a length), or
        ``unknown``."""
        if self.counterexamples:
            return "different"
        proofs = [self.proved(p) for p in ("pre", "post")]
        if any(p is None for p in proofs):
            return "unknown"
        if all(p is not None and p.scope == "all" for p in proofs):
            return "equivalent"
        return "bounded"


def concrete_options(task: Task, options: ScoreOptions) -> ScoreOptions:
    """``options`` with the concrete engines only: the engines asked for, or the backend's
    default chain, without ``smt`` (a solver must not confirm its own models)."""
    from adequacy.extensions.registry import registry
    names = [e for e in options.engines if e != "smt"]
    if not names:
        b = registry().backend_for(task.language)
        names = [e.name for e in b.engines() if e.info().default and e.name != "smt"]
    return options.with_(engines=names)


def symbolic_for(task: Task) -> Symbolic:
    """The task's backend's symbolic answers (``BackendError`` when it gives none)."""
    from adequacy.extensions.registry import registry
    from adequacy.symbolic import symbolic_of
    backend = registry().backend_for(task.language)
    sym = symbolic_of(backend)
    if sym is None:
        raise BackendError(f"the {backend.name} backend answers no symbolic questions "
                           "(it has no smt_encoder() or symbolic())")
    return sym


def _word(w: Word) -> bool | None:
    return w.value


class Confirmer:
    """Judges solver models concretely (``left``: the spec under search; ``right``: the
    reference side), shrinks the confirmed ones and labels them by the task's own oracles,
    all before ``deadline``."""

    def __init__(self, task: Task, left: SpecJudge, right: SpecJudge, deadline: float,
                 seed: int = 0) -> None:
        self.task, self.left, self.right = task, left, right
        self.deadline = deadline
        for j in (left, right):
            j.deadline = deadline
        self.seed = seed
        try:
            self.oracle: OracleJudge | None = OracleJudge(task)
            if self.oracle.describe == "no oracle":
                self.oracle = None
            else:
                self.oracle.deadline = deadline
        except AdequacyError:
            self.oracle = None

    def confirm(self, pred: Literal["pre", "post"], m: Model) -> SymbolicFinding:
        inp = m.input
        out = m.output
        if pred == "pre":
            a, b = self.left.inputs([inp])[0], self.right.inputs([inp])[0]
        else:
            gate = self.right.inputs([inp])[0]
            if gate.value is not True:
                return SymbolicFinding(predicate=pred, status=("encoding_fault" if gate.value is False
                                                       else "unconfirmed"),
                               input=inp, output=out, detail=(
                                   "the reference side's precondition, evaluated "
                                   f"concretely, does not accept the input ({gate.reason})"))
            assert out is not None
            a, b = self.left.outputs([(inp, out)])[0], self.right.outputs([(inp, out)])[0]
        f = SymbolicFinding(predicate=pred, status="unconfirmed", input=inp, output=out,
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
        d = JudgeDisagreement(predicate=pred, input=inp, output=out if pred == "post" else None,
                         left=bool(a.value), right=bool(b.value), left_reason=a.reason,
                         right_reason=b.reason)
        d = shrink(self.task, self.left, self.right, d, deadline=self.deadline, gate="right",
                   seed=self.seed)
        f.disagreement = d
        f.input, f.output = d.input, d.output
        self.label(f, d)
        return f

    def label(self, f: SymbolicFinding, d: JudgeDisagreement) -> None:
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


def claim_of(pred: str, ans: Answer) -> str:
    """The sentence a proof of no difference on ``pred`` supports, and no more."""
    if ans.status != "none":
        return ""
    return (f"{pred}conditions equivalent {ans.claim()}" + (
        " (compared where the reference side's precondition holds)" if pred == "post" else ""))


def compare_symbolic(task: Task, left: SpecJudge, right: SpecJudge, *, budget: float = 10.0,
                     limits: SolverLimits | None = None, seed: int = 0,
                     predicates: tuple[str, ...] = ("pre", "post"),
                     sides: tuple[Side, ...] = ("a", "b"), per_bucket: int = 1
                     ) -> SymbolicReport:
    """Symbolic search of where ``left`` (the spec under search) and ``right`` (the reference
    side: the gold or oracle spec) differ; post is compared only on inputs ``right``'s
    precondition accepts. Each side of each predicate is asked for up to ``per_bucket``
    models (each with a new input), and each is confirmed concretely. The judges must use
    the concrete engines (``concrete_options``)."""
    from adequacy.extensions.registry import registry
    sym = symbolic_for(task)
    backend = registry().backend_for(task.language)
    start = time.monotonic()
    deadline = start + budget
    run = Confirmer(task, left, right, deadline, seed)
    lim = (limits or SolverLimits()).model_copy(update={"deadline": deadline})
    la = backend.load_spec(task, left.text, left.path)
    ra = backend.load_spec(task, right.text, right.path)
    rep = SymbolicReport(task=task.id, left=left.name, right=right.name, budget=budget)
    seen: set[tuple[str, str, str]] = set()
    for pred in predicates:
        for side in sides:
            q = Question(kind="differ", a=la, b=ra, predicate=pred,  # type: ignore[arg-type]
                         gate="b", side=side, models=max(1, per_bucket))
            with progress.phase(f"solver: {pred}condition, {_SIDE_WORDS[side]}"):
                ans = sym.find(task, q, lim)
            rep.results.append(PredicateResult(predicate=pred, side=side,  # type: ignore[arg-type]
                                               answer=ans, claim=claim_of(pred, ans)))
            if ans.status == "found" and ans.input is not None:
                for m in [Model(input=ans.input, output=ans.output), *ans.more]:
                    # a backend that answers either side for each (or repeats a model) is
                    # confirmed once per model
                    key = (pred, json.dumps(m.input, sort_keys=True),
                           json.dumps(m.output, sort_keys=True))
                    if key in seen:
                        continue
                    seen.add(key)
                    with progress.phase("concrete engines: confirming and shrinking a model"):
                        rep.findings.append(run.confirm(pred, m))  # type: ignore[arg-type]
    rep.seconds = round(time.monotonic() - start, 3)
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
