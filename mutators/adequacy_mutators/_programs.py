"""Program mutants: realistic wrong programs, and their wrong outputs as post_sound cases.

nl2postcond's question, asked of a task: of the wrong programs one small change to the
reference makes, how many does the task's evidence catch? Each mutant of the task's runnable
reference (``reference/reference.py`` of any language, mutated by
``python_program_mutants``; else the language's own, ``Backend.program_mutants``: a JML
task's Java method, a Python task's ``solution.py``) runs in the sandbox on the task's valid
inputs. An output that differs from the reference's, and that the task's output oracles call
wrong (``combine``: the reference for unique outputs, the checker, the recorded outputs), makes
the mutant a **wrong program** and the pair a candidate post_sound case labelled with the
mutant (``Case.made_by``: ``operator@file:line``). A mutant that agrees with the reference on
every input tried is **same** (equivalent on these inputs); one that only throws, loops or
crashes where the reference returns is **crash-only** (a postcondition cannot reject a crash).

``program_mutants_task(task_dir, write=...)`` returns the report and, with ``write``, keeps up
to ``per_mutant`` cases of each wrong program (the smallest inputs first); a pair the task
already holds in post_sound gets the mutant's name added to its ``made_by``. The task's
**program-mutant strength** is the share of wrong programs whose wrong output on some input is
a post_sound case of the task: a spec that accepts that output fails that case.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from adequacy.errors import AdequacyError
from adequacy.extensions.backend import Backend, Limits, ReferenceOutcome
from adequacy.extensions.mutants import ProgramMutant, python_program_mutants
from adequacy.model.identity import params_key, strictly_valid
from adequacy.model.task import Case, Task
from adequacy.model.verdicts import Bucket
from adequacy.sandbox.pycode import run_source
from adequacy.taskdirs.load import load_task, write_cases

from ._constraints import parse_constraints
from ._ids import new_case_id
from ._oracles import combine
from ._task import output_oracles

__all__ = ["ProgramMutantResult", "ProgramsReport", "program_mutants_task"]

#: valid inputs each mutant runs on (spread evenly over the task's distinct valid inputs).
INPUTS = 60
#: cases kept per wrong program (its smallest wrong outputs).
PER_MUTANT = 3
#: seconds one mutant may take on one input at most (less when the reference is fast:
#: ``_mutant_seconds``).
CASE_SECONDS = 5.0
#: inputs a mutant runs on first; when it times out on all of them, and again on the first
#: with ``CASE_SECONDS``, the rest are not run: it is crash-only (it loops).
PROBE = 4
#: mutants made at most per task (spread evenly over all that compile).
MAX_MUTANTS = 200

Status = Literal["wrong", "same", "crash-only", "invalid"]


class ProgramMutantResult(BaseModel):
    model_config = ConfigDict(extra="forbid")

    label: str
    """``operator@file:line``: what the cases it makes carry in ``made_by``."""
    operator: str
    line: int
    description: str
    status: Status
    """``wrong``: a labelled-wrong output on some valid input; ``same``: the reference's output
    on every input tried; ``crash-only``: no output where the reference gives one, and no wrong
    one; ``invalid``: does not load or compile."""
    wrong_inputs: int = 0
    recorded_before: bool = False
    """The task already held one of its wrong outputs in post_sound (any origin)."""
    reason: str = ""


class ProgramsReport(BaseModel):
    """One task's program mutants: what was made, how each did, what became a case."""

    model_config = ConfigDict(extra="forbid")

    task: str
    program: str = ""
    """The mutated program (``reference/reference.py``, ``Java method solve``), "" if none."""
    inputs: int = 0
    """Valid inputs each mutant ran on."""
    mutants: list[ProgramMutantResult] = []
    made: int = 0
    wrong: int = 0
    same: int = 0
    crash_only: int = 0
    invalid: int = 0
    recorded_before: int = 0
    """Wrong programs of which the task held a wrong output before this run."""
    recorded_after: int = 0
    cases_added: int = 0
    cases_labelled: int = 0
    """Existing post_sound cases that got a mutant's name added to ``made_by``."""
    dropped: dict[str, int] = Field(default_factory=dict)
    notes: list[str] = []
    seconds: float = 0.0
    written: bool = False

    @property
    def strength_before(self) -> float | None:
        return self.recorded_before / self.wrong if self.wrong else None

    @property
    def strength_after(self) -> float | None:
        return self.recorded_after / self.wrong if self.wrong else None


def _spread(items: list[Any], n: int) -> list[Any]:
    if len(items) <= n:
        return items
    step = len(items) / n
    return [items[int(k * step)] for k in range(n)]


def _size(v: Any) -> tuple[int, str]:
    text = json.dumps(v, sort_keys=True, ensure_ascii=False)
    return len(text), text


def _valid_inputs(task: Task, limit: int) -> list[dict[str, Any]]:
    """Up to ``limit`` of the task's valid inputs, spread over them smallest first, and the
    inputs of the post_sound cases that name a program mutant: a mutant recorded by an
    earlier run is then seen recorded again, whatever else the task gained since."""
    seen: dict[str, dict[str, Any]] = {}
    for b in (Bucket.post_complete, Bucket.pre_complete):
        for c in task.cases.get(b, []):
            seen.setdefault(params_key(c.input, task.inputs), c.input)
    ordered = _spread(sorted(seen.values(), key=_size), limit)
    have = {params_key(i, task.inputs) for i in ordered}
    for c in task.cases.get(Bucket.post_sound, []):
        k = params_key(c.input, task.inputs)
        if k not in have and any(not m.startswith("spec ") for m in c.made_by):
            have.add(k)
            ordered.append(c.input)
    return ordered


Runner = Any
"""(mutant or None for the reference, inputs, seconds per input) -> outcomes."""


def _mutant_seconds(reference_seconds: float) -> float:
    """Seconds a mutant gets per input: three times what the whole reference batch took, at
    least one second and at most ``CASE_SECONDS`` (a mutant that loops costs that much per
    input, and most mutants of a fast reference are fast)."""
    return min(CASE_SECONDS, max(1.0, 3 * reference_seconds))


def _programs(task: Task, notes: list[str], operators: Any, max_mutants: int
              ) -> tuple[str, list[ProgramMutant], Runner | None]:
    """The program to mutate, its mutants and how to run one (None: the reference)."""
    path = task.reference_dir / "reference.py"
    if path.is_file():
        source = path.read_text(encoding="utf-8")
        file = "reference/reference.py"
        mutants = python_program_mutants(source, file, "reference", operators, max_mutants)

        def run_py(m: ProgramMutant | None, inputs: list[dict[str, Any]], seconds: float
                   ) -> list[ReferenceOutcome]:
            outs = run_source(m.source if m is not None else source, "reference",
                              [(i,) for i in inputs], seconds=seconds, display=file)
            res: list[ReferenceOutcome] = []
            for o in outs:
                if o.kind == "returned" and isinstance(o.value, dict):
                    res.append(ReferenceOutcome(kind="returned", output=o.value))
                elif o.kind == "returned":
                    res.append(ReferenceOutcome(kind="failed", reason="returned no output dict"))
                elif o.kind == "threw":
                    res.append(ReferenceOutcome(kind="threw", reason=o.type_name or o.reason))
                else:
                    res.append(ReferenceOutcome(kind=o.kind, reason=o.reason))
            return res

        return file, mutants, run_py
    from adequacy.extensions.registry import registry
    try:
        backend: Backend = registry().backend_for(task.language)
    except AdequacyError as e:
        notes.append(f"no program to mutate: {e}")
        return "", [], None
    mutants = backend.program_mutants(task, operators)
    if not mutants:
        notes.append(f"no program to mutate: no reference/reference.py, and the {backend.name} "
                     "backend mutates no program of this task")
        return "", [], None
    from adequacy.extensions.mutants import spread
    mutants = spread(mutants, max_mutants)

    def run_backend(m: ProgramMutant | None, inputs: list[dict[str, Any]], seconds: float
                    ) -> list[ReferenceOutcome]:
        limits = Limits(case_seconds=seconds)
        got = (backend.reference_outcomes(task, inputs, limits) if m is None
               else backend.program_outcomes(task, m, inputs, limits))
        if got is None or len(got) != len(inputs):
            return [ReferenceOutcome(kind="failed", reason="no outcome")] * len(inputs)
        return list(got)

    return mutants[0].file, mutants, run_backend


def _fits(task: Task, out: dict[str, Any] | None) -> bool:
    return isinstance(out, dict) and set(out) == {p.name for p in task.outputs} and all(
        strictly_valid(out[p.name], p.type) for p in task.outputs)


def program_mutants_task(task_dir: str | Path, *, per_mutant: int = PER_MUTANT,
                         inputs: int = INPUTS, write: bool = True,
                         operators: Any = None, max_mutants: int = MAX_MUTANTS
                         ) -> ProgramsReport:
    """Make the task's program mutants, run them, and (``write``) keep the wrong outputs of
    each wrong program as post_sound cases (at most ``per_mutant`` each)."""
    t0 = time.monotonic()
    task = load_task(task_dir)
    root = Path(task_dir)
    rep = ProgramsReport(task=task.id)
    file, mutants, run = _programs(task, rep.notes, operators, max_mutants)
    rep.program = file
    if run is None:
        return rep
    rep.made = len(mutants)
    valid = _valid_inputs(task, inputs)
    rep.inputs = len(valid)
    if not valid:
        rep.notes.append("no valid input (pre_complete or post_complete case) to run on")
        return rep
    cons = parse_constraints(task.constraints, task.inputs)
    oracles = output_oracles(task, cons, rep.notes)
    if not oracles:
        rep.notes.append("no output oracle: no wrong output can be labelled")
    r0 = time.monotonic()
    ref = run(None, valid, CASE_SECONDS)
    seconds = _mutant_seconds(time.monotonic() - r0)
    ref_out = {params_key(i, task.inputs): o.output for i, o in zip(valid, ref, strict=True)
               if o.kind == "returned" and _fits(task, o.output)}
    if not ref_out:
        rep.notes.append("the reference gave no output on the task's valid inputs")
        return rep
    usable = [i for i in valid if params_key(i, task.inputs) in ref_out]
    post_sound = list(task.cases.get(Bucket.post_sound, []))
    post_complete = task.cases.get(Bucket.post_complete, [])
    right = {(params_key(c.input, task.inputs), params_key(c.output, task.outputs))
             for c in post_complete if c.output is not None}
    existing = {(params_key(c.input, task.inputs), params_key(c.output, task.outputs)): n
                for n, c in enumerate(post_sound) if c.output is not None}
    dropped: Counter[str] = Counter()
    found: dict[tuple[str, str], tuple[dict[str, Any], dict[str, Any], list[str]]] = {}
    per: dict[str, list[tuple[str, str]]] = {}
    for m in mutants:
        secs = seconds
        outs = run(m, usable[:PROBE], secs)
        if all(o.kind == "timeout" for o in outs) and secs < CASE_SECONDS:
            # slow on every probe: a loop, or a loaded machine; one probe again with the
            # whole allowance tells them apart
            again = run(m, usable[:1], CASE_SECONDS)
            if again and again[0].kind != "timeout":
                secs = CASE_SECONDS
                outs = again + run(m, usable[1:PROBE], secs)
        if len(usable) > PROBE and any(o.kind != "timeout" for o in outs):
            outs += run(m, usable[PROBE:], secs)
        elif len(usable) > PROBE:  # it gave no outcome on any probe: not worth the rest
            outs += [ReferenceOutcome(kind="timeout", reason="not run: no outcome on the "
                                      "first inputs")] * (len(usable) - PROBE)
        if all(o.kind == "failed" and ("compile" in o.reason or "load" in o.reason
                                       or "import" in o.reason) for o in outs):
            rep.mutants.append(ProgramMutantResult(
                label=m.label, operator=m.operator, line=m.line, description=m.description,
                status="invalid", reason=(outs[0].reason if outs else "")[:200]))
            continue
        cands: list[tuple[dict[str, Any], dict[str, Any]]] = []
        crashed = 0
        for inp, o in zip(usable, outs, strict=True):
            ikey = params_key(inp, task.inputs)
            if o.kind != "returned":
                crashed += 1
                continue
            if not _fits(task, o.output):
                dropped["output outside the schema"] += 1
                continue
            assert o.output is not None
            if params_key(o.output, task.outputs) == params_key(ref_out[ikey], task.outputs):
                continue
            cands.append((inp, o.output))
        wrong: list[tuple[dict[str, Any], dict[str, Any]]] = []
        if cands and oracles:
            judged = [orc.judge_outputs(cands) for orc in oracles]
            for n, (inp, out) in enumerate(cands):
                keep, why = combine([(orc.name, js[n]) for orc, js in zip(oracles, judged,
                                                                           strict=True)])
                key = (params_key(inp, task.inputs), params_key(out, task.outputs))
                if key in right:
                    keep, why = False, "a recorded right output"
                if keep:
                    wrong.append((inp, out))
                else:
                    dropped["differs, but no oracle calls it wrong: " + why.split(":")[0]] += 1
        if wrong:
            keys = [(params_key(i, task.inputs), params_key(o, task.outputs)) for i, o in wrong]
            before = any(k in existing for k in keys)
            rep.mutants.append(ProgramMutantResult(
                label=m.label, operator=m.operator, line=m.line, description=m.description,
                status="wrong", wrong_inputs=len(wrong), recorded_before=before))
            ranked = sorted(zip(keys, wrong, strict=True), key=lambda kv: _size(kv[1]))
            per[m.label] = [k for k, _ in ranked]
            for k, (i, o) in ranked:
                found.setdefault(k, (i, o, []))[2].append(m.label)
        elif crashed and not cands:
            rep.mutants.append(ProgramMutantResult(
                label=m.label, operator=m.operator, line=m.line, description=m.description,
                status="crash-only", reason=f"no output on {crashed} of {len(usable)} inputs"))
        else:
            rep.mutants.append(ProgramMutantResult(
                label=m.label, operator=m.operator, line=m.line, description=m.description,
                status="same"))
    by_status = Counter(r.status for r in rep.mutants)
    rep.wrong, rep.same = by_status["wrong"], by_status["same"]
    rep.crash_only, rep.invalid = by_status["crash-only"], by_status["invalid"]
    rep.recorded_before = sum(1 for r in rep.mutants if r.recorded_before)
    # which pairs become cases: up to per_mutant per wrong program, a pair already in
    # post_sound counting towards the mutant's share (it only gets the name added)
    keep_keys: set[tuple[str, str]] = set()
    for _label, keys in per.items():
        have = [k for k in keys if k in existing or k in keep_keys]
        for k in keys:
            if len(have) >= max(per_mutant, 1):
                break
            if k not in have:
                keep_keys.add(k)
                have.append(k)
    labelled = list(post_sound)
    changed = 0
    for k, (_i, _o, labels) in found.items():
        if k in existing:
            n = existing[k]
            c = labelled[n]
            names = tuple(dict.fromkeys([*c.made_by, *labels]))
            if names != c.made_by:
                labelled[n] = c.model_copy(update={"made_by": names})
                changed += 1
    taken = {c.id for c in labelled}
    new: list[Case] = []
    for k in sorted(keep_keys):
        if k in existing:
            continue
        inp, out, labels = found[k]
        op = labels[0].split("@", 1)[0]
        cid = new_case_id(f"p-{op}", taken, "post_sound", *k)
        new.append(Case(id=cid, bucket=Bucket.post_sound, input=inp, output=out,
                        origin="program_mutant", visible=False,
                        made_by=tuple(dict.fromkeys(labels))))
    rep.cases_added, rep.cases_labelled = len(new), changed
    covered = {lab for k in [*existing, *keep_keys] if k in found for lab in found[k][2]}
    rep.recorded_after = sum(1 for r in rep.mutants if r.status == "wrong" and r.label in covered)
    rep.dropped = dict(sorted(dropped.items()))
    if write and (new or changed):
        write_cases(root, Bucket.post_sound, labelled + new)
        rep.written = True
    rep.seconds = round(time.monotonic() - t0, 3)
    return rep
