"""``mutate_task``: fill a task's soundness buckets with labelled mutants and invalid inputs."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from adequacy.errors import AdequacyError
from adequacy.extensions.backend import Limits
from adequacy.model.identity import params_key
from adequacy.model.task import Case, Task
from adequacy.model.verdicts import Bucket
from adequacy.taskdirs.load import load_task, write_cases

from ._constraints import Constraints, parse_constraints
from ._ids import new_case_id
from ._inputs import InputCandidate, invalid_candidates
from ._oracles import (
    CheckerOracle,
    ConstraintOracle,
    InputOracle,
    OutputOracle,
    RecordedOracle,
    ReferenceOracle,
    ValidatorOracle,
    combine,
    load_module_function,
    python_reference_run,
)
from ._outputs import output_mutants
from ._reference import SharedReference

__all__ = ["MutateReport", "input_oracles", "mutate_loaded", "mutate_task", "output_oracles"]


class MutateReport(BaseModel):
    """What one ``mutate_task`` run made, kept and dropped (and why)."""

    model_config = ConfigDict(extra="forbid")

    task: str
    per_case: int
    seed: int
    output_oracles: list[str] = []
    """Oracles that labelled output mutants, in the order consulted."""
    input_oracles: list[str] = []
    notes: list[str] = []
    """Why an oracle was not used (no file, outputs not unique, backend without a reference)."""
    post_sound_added: int = 0
    pre_sound_added: int = 0
    post_sound_total: int = 0
    pre_sound_total: int = 0
    post_operators: dict[str, int] = Field(default_factory=dict)
    """Operator chain -> output mutants added."""
    pre_operators: dict[str, int] = Field(default_factory=dict)
    """Operator -> invalid inputs added."""
    dropped: dict[str, int] = Field(default_factory=dict)
    """Drop reason -> candidates dropped (``post: checker: accepts``, ``pre: duplicate``, ...)."""
    written: bool = False


def _reason_key(text: str) -> str:
    """Drop reasons without per-case detail (exception messages), so the counts aggregate."""
    return text.split(" raised ")[0] + (" raised" if " raised " in text else "")


def output_oracles(task: Task, cons: Constraints, notes: list[str],
                   shared: SharedReference | None = None) -> list[OutputOracle]:
    ref_dir = task.reference_dir
    oracles: list[OutputOracle] = []
    if (ref_dir / "checker.py").is_file():
        oracles.append(CheckerOracle(load_module_function(ref_dir / "checker.py", "check")))
    if not cons.unique_output:
        notes.append("outputs are not unique (unique_output = false): only a checker labels")
        if not oracles:
            notes.append("no reference/checker.py: no output mutant can be labelled")
        return oracles
    if (ref_dir / "reference.py").is_file():
        fn = load_module_function(ref_dir / "reference.py", "reference")
        oracles.append(ReferenceOracle(python_reference_run(fn), task.inputs, task.outputs))
    else:
        backend_run = _backend_reference(task, notes, shared)
        if backend_run is not None:
            oracles.append(ReferenceOracle(backend_run, task.inputs, task.outputs,
                                           name="reference(backend)"))
    known = [(c.input, c.output) for c in task.cases.get(Bucket.post_complete, [])
             if c.output is not None]
    oracles.append(RecordedOracle(known, task.inputs, task.outputs))
    return oracles


def _backend_reference(task: Task, notes: list[str], shared: SharedReference | None) -> Any:
    """The task language's backend's ``run_reference(task, inputs)``, when it offers one
    (through ``shared``'s session and known outcomes when given)."""
    from adequacy.extensions.registry import registry

    try:
        backend = registry().backend_for(task.language)
    except AdequacyError as e:
        notes.append(f"no backend reference: {e}")
        return None
    if not backend.runs_references():
        notes.append(f"backend {backend.name} has no run_reference; using recorded outputs")
        return None
    if shared is not None and shared.backend is backend:
        limits = Limits()
        return lambda inputs: [o.output if o.kind == "returned" else None
                               for o in shared.outcomes(inputs, limits)]
    return lambda inputs: backend.run_reference(task, inputs)


def input_oracles(task: Task, cons: Constraints, notes: list[str]) -> list[InputOracle]:
    oracles: list[InputOracle] = []
    path = task.reference_dir / "validator.py"
    if path.is_file():
        oracles.append(ValidatorOracle(load_module_function(path, "valid")))
    if cons:
        oracles.append(ConstraintOracle(cons))
    if not oracles:
        notes.append("no validator.py and no [constraints]: no invalid input can be labelled")
    return oracles


def _op_id(kind: str, operator: str) -> str:
    """``m-int.plus_two``: the id's prefix says which operator made the case, so a failing
    case in a table reads as what it is ("off by two") without opening the file."""
    slug = re.sub(r"[^A-Za-z0-9_.]+", ".", operator).strip(".") or "op"
    return f"{kind}-{slug}"


def mutate_task(
    task_dir: str | Path,
    per_case: int = 3,
    seed: int = 0,
    *,
    outputs: bool = True,
    inputs: bool = True,
    write: bool = True,
    extra_output_oracles: list[OutputOracle] | None = None,
    extra_input_oracles: list[InputOracle] | None = None,
) -> MutateReport:
    """Add labelled wrong outputs to post_sound and invalid inputs to pre_sound.

    Sources are the task's own valid cases: each post_complete case gives up to ``per_case``
    output mutants, each distinct valid input (pre_complete and post_complete) up to
    ``per_case`` invalid-input candidates. Existing cases are kept; a candidate equal to an
    existing case (or to a known right output / valid input) is dropped as a duplicate. New ids
    are ``m-<operator>-<hash8>`` (mutants, e.g. ``m-int.plus_two-8b95476c``) and
    ``g-<operator>-<hash8>`` (generated inputs), stable for the content.
    ``write=False`` computes the report without touching files.
    """
    task = load_task(task_dir)
    from ._generate import _shared

    with _shared(task) as shared:
        return mutate_loaded(task, Path(task_dir), per_case, seed, outputs=outputs,
                             inputs=inputs, write=write,
                             extra_output_oracles=extra_output_oracles,
                             extra_input_oracles=extra_input_oracles, shared=shared)


def mutate_loaded(
    task: Task,
    root: Path,
    per_case: int = 3,
    seed: int = 0,
    *,
    outputs: bool = True,
    inputs: bool = True,
    write: bool = True,
    extra_output_oracles: list[OutputOracle] | None = None,
    extra_input_oracles: list[InputOracle] | None = None,
    shared: SharedReference | None = None,
) -> MutateReport:
    """``mutate_task`` on a task already loaded from ``root``, its backend reference run
    through ``shared`` when given."""
    cons = parse_constraints(task.constraints, task.inputs)
    report = MutateReport(task=task.id, per_case=per_case, seed=seed)
    dropped: Counter[str] = Counter()
    post_ops: Counter[str] = Counter()
    pre_ops: Counter[str] = Counter()
    post_complete = task.cases.get(Bucket.post_complete, [])
    pre_complete = task.cases.get(Bucket.pre_complete, [])
    post_sound = list(task.cases.get(Bucket.post_sound, []))
    pre_sound = list(task.cases.get(Bucket.pre_sound, []))
    ids_post = {c.id for c in post_sound}
    ids_pre = {c.id for c in pre_sound}
    new_post: list[Case] = []
    new_pre: list[Case] = []

    if outputs and per_case > 0:
        oracles = output_oracles(task, cons, report.notes, shared) + list(
            extra_output_oracles or [])
        report.output_oracles = [o.name for o in oracles]
        taken = {(params_key(c.input, task.inputs), params_key(c.output, task.outputs))
                 for c in post_sound + post_complete if c.output is not None}
        cands: list[tuple[dict[str, Any], dict[str, Any], str]] = []
        originals: list[tuple[dict[str, Any], dict[str, Any]]] = []
        for c in post_complete:
            if c.output is None:
                continue
            ikey = params_key(c.input, task.inputs)
            ms = output_mutants(c.output, task.outputs, per_case, seed, salt=ikey,
                                inputs=c.input, input_params=task.inputs)
            originals.append((c.input, c.output))
            for m in ms:
                cands.append((c.input, m.value, m.operator))
        # an oracle that calls a recorded right output wrong cannot be trusted on its mutants
        distrusted: dict[str, str] = {}
        for o in oracles:
            for (inp, _), j in zip(originals, o.judge_outputs(originals), strict=True):
                if j.wrong:
                    distrusted.setdefault(params_key(inp, task.inputs),
                                          f"{o.name} rejects the recorded right output")
        judged = [o.judge_outputs([(i, x) for i, x, _ in cands]) for o in oracles]
        for n, (inp, outp, op) in enumerate(cands):
            ikey = params_key(inp, task.inputs)
            key = (ikey, params_key(outp, task.outputs))
            if ikey in distrusted:
                dropped[f"post: {distrusted[ikey]}"] += 1
                continue
            if key in taken:
                dropped["post: duplicate of an existing case"] += 1
                continue
            keep, why = combine([(o.name, js[n]) for o, js in zip(oracles, judged, strict=True)])
            if not keep:
                dropped["post: " + _reason_key(why)] += 1
                continue
            taken.add(key)
            cid = new_case_id(_op_id("m", op), ids_post, "post_sound", *key)
            new_post.append(Case(id=cid, bucket=Bucket.post_sound, input=inp, output=outp,
                                 origin="mutant", visible=False))
            post_ops[op] += 1

    if inputs and per_case > 0:
        ioracles = input_oracles(task, cons, report.notes) + list(extra_input_oracles or [])
        report.input_oracles = [o.name for o in ioracles]
        valid_inputs: dict[str, dict[str, Any]] = {}
        for c in pre_complete + post_complete:
            valid_inputs.setdefault(params_key(c.input, task.inputs), c.input)
        taken_in = set(valid_inputs) | {params_key(c.input, task.inputs) for c in pre_sound}
        sources = list(valid_inputs.values())
        # an input oracle that rejects a known valid input is wrong about the task
        bad_sources: set[str] = set()
        for io in ioracles:
            for inp, j in zip(sources, io.judge_inputs(sources), strict=True):
                if j.wrong:
                    bad_sources.add(params_key(inp, task.inputs))
                    dropped[f"pre: {io.name} rejects a known valid input"] += 1
        icands: list[InputCandidate] = []
        if ioracles:
            for inp in sources:
                if params_key(inp, task.inputs) in bad_sources:
                    continue
                icands += invalid_candidates(inp, task.inputs, cons, per_case, seed)
        ijudged = [o.judge_inputs([c.input for c in icands]) for o in ioracles]
        for n, cand in enumerate(icands):
            ikey2 = params_key(cand.input, task.inputs)
            if ikey2 in taken_in:
                dropped["pre: duplicate of an existing or valid input"] += 1
                continue
            keep, why = combine([(o.name, js[n]) for o, js in zip(ioracles, ijudged,
                                                                   strict=True)])
            if not keep:
                dropped["pre: " + _reason_key(why)] += 1
                continue
            taken_in.add(ikey2)
            cid = new_case_id(_op_id("g", cand.operator), ids_pre, "pre_sound", ikey2)
            new_pre.append(Case(id=cid, bucket=Bucket.pre_sound, input=cand.input,
                                origin="generated", visible=False))
            pre_ops[cand.operator] += 1

    report.post_sound_added = len(new_post)
    report.pre_sound_added = len(new_pre)
    report.post_sound_total = len(post_sound) + len(new_post)
    report.pre_sound_total = len(pre_sound) + len(new_pre)
    report.post_operators = dict(sorted(post_ops.items()))
    report.pre_operators = dict(sorted(pre_ops.items()))
    report.dropped = dict(sorted(dropped.items()))
    if write:
        if new_post:
            write_cases(root, Bucket.post_sound, post_sound + new_post)
        if new_pre:
            write_cases(root, Bucket.pre_sound, pre_sound + new_pre)
        report.written = bool(new_post or new_pre)
    return report
