"""Does a postcondition admit only the right output? (``adequacy score --symbolic``)

For a task whose output is unique (``unique_output``, or a reference implementation), on each
valid input with its right output (the task's ``post_complete`` cases), the solver looks for
another output the spec's postcondition accepts. A model is a wrong output the spec accepts: a
``post_sound`` failure found without any mutant, reported only once the concrete engines accept
it too and the task's oracles call it wrong. "None" means the postcondition pins the output on
that input (for every output, or every output whose collections have at most L elements).
"""

from __future__ import annotations

import time
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from adequacy.errors import AdequacyError, BackendError, TaskError
from adequacy.extensions.symbolic import Question, SolverLimits
from adequacy.model.task import Task
from adequacy.model.verdicts import Bucket
from adequacy.scoring.options import ScoreOptions
from adequacy.search.oracles import OracleJudge, SpecJudge
from adequacy_mutators import params_key, parse_constraints

__all__ = ["PinReport", "PinResult", "check_pinned"]


class PinResult(BaseModel):
    model_config = ConfigDict(extra="forbid")

    input: dict[str, Any]
    output: dict[str, Any]
    """The right output."""
    status: Literal["pinned", "second_output", "unconfirmed", "encoding_fault", "unknown"]
    other: dict[str, Any] | None = None
    """The other output the spec accepts (``second_output``, ``unconfirmed``...)."""
    claim: str = ""
    reason: str = ""


class PinReport(BaseModel):
    model_config = ConfigDict(extra="forbid")

    task: str
    spec: str
    inputs: int = 0
    pinned: int = 0
    second_output: int = 0
    unknown: int = 0
    seconds: float = 0.0
    results: list[PinResult] = []

    def figure(self) -> str:
        return (f"post determines the output on {self.pinned} of {self.inputs} valid inputs"
                f" ({self.second_output} with a second output found, {self.unknown} "
                "undecided)")


def check_pinned(task: Task, text: str, path: str | None, options: ScoreOptions, *,
                 limits: SolverLimits | None = None, budget: float = 60.0,
                 max_inputs: int = 40) -> PinReport:
    from adequacy.extensions.registry import backend_for
    from adequacy.search.symbolic.compare import concrete_options
    cons = parse_constraints(task.constraints, task.inputs)
    oracle = OracleJudge(task)
    if not (cons.unique_output or oracle.has_reference):
        raise TaskError(f"{task.id}: the output is not unique (no unique_output and no "
                        "reference), so a second output proves nothing")
    backend = backend_for(task.language)
    from adequacy.symbolic.capability import symbolic_of
    sym = symbolic_of(backend)
    if sym is None:
        raise BackendError(f"the {backend.name} backend answers no symbolic questions")
    loaded = backend.load_spec(task, text, path)
    start = time.monotonic()
    deadline = start + budget
    lim = (limits or SolverLimits()).model_copy(update={"deadline": deadline})
    judge = SpecJudge(task, text, path, concrete_options(task, options), name=path or "spec")
    judge.deadline = deadline
    seen: set[str] = set()
    pairs: list[tuple[dict[str, Any], dict[str, Any]]] = []
    for c in task.cases.get(Bucket.post_complete, []):
        k = params_key(c.input, task.inputs)
        if c.output is not None and k not in seen:
            seen.add(k)
            pairs.append((c.input, c.output))
    rep = PinReport(task=task.id, spec=path or "spec")
    for inp, right in pairs[:max_inputs]:
        rep.inputs += 1
        if time.monotonic() >= deadline:
            rep.results.append(PinResult(input=inp, output=right, status="unknown",
                                         reason="out of time (--budget)"))
            rep.unknown += 1
            continue
        ans = sym.find(task, Question(kind="other_output", a=loaded, predicate="post",
                                      input=inp, output=right), lim)
        r = PinResult(input=inp, output=right, status="unknown", reason=ans.reason)
        if ans.status == "none":
            r.status = "pinned"
            r.claim = ("no other output" if ans.scope == "all" else
                       f"no other output with collections of length <= {ans.bound}")
        elif ans.status == "found" and ans.output is not None:
            r.other = ans.output
            try:
                w = judge.outputs([(inp, ans.output)])[0]
                o = oracle.outputs([(inp, ans.output)])[0]
            except AdequacyError as e:
                r.status, r.reason = "unconfirmed", str(e)
            else:
                if w.value is True and o.value is False:
                    r.status, r.reason = "second_output", o.reason
                elif w.value is False:
                    r.status = "encoding_fault"
                    r.reason = "the concrete engines reject the solver's output"
                else:
                    r.status = "unconfirmed"
                    r.reason = (f"spec: {w.reason or 'undecided'}; task's oracles: "
                                f"{o.reason or 'undecided'}")
        rep.results.append(r)
        if r.status == "pinned":
            rep.pinned += 1
        elif r.status == "second_output":
            rep.second_output += 1
        else:
            rep.unknown += 1
    rep.seconds = round(time.monotonic() - start, 3)
    return rep
