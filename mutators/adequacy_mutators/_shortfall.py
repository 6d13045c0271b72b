"""Why a task falls short of the case goals, in a few words (docs/cases.md, "Measured").

The goals: at least ``pre_goal`` pre_sound cases or ``every_input_valid``, and at least
``valid_goal`` valid pairs (post_complete). ``shortfall_reasons`` reads the task after
``generate_task`` and that run's ``GenerateReport`` and names, per goal missed, the reason; a
miss it cannot explain is ``unexplained: ...`` (a bug to find, never hidden in a bigger group).
"""

from __future__ import annotations

import re
from typing import Any

from adequacy.model.task import Task
from adequacy.model.types import NullableType, SeqType, StringType
from adequacy.model.verdicts import Bucket

from ._generate import GenerateReport
from ._profile import input_space_size

PRE_GOAL = 3
VALID_GOAL = 50


def _null_args(task: Task, inp: dict[str, Any]) -> list[str]:
    return [p.name for p in task.inputs if p.name in inp and inp[p.name] is None]


def _may_be_null(t: Any) -> bool:
    return isinstance(t, (NullableType, StringType)) or (isinstance(t, SeqType)
                                                          and t.kind == "array")


def _no_outcome(rep: GenerateReport) -> str:
    """The reference's non-answers (timeout, failed), or ""."""
    bad = {k: n for k, n in rep.reference_kinds.items() if k in ("timeout", "failed")}
    return ", ".join(f"{'timed out' if k == 'timeout' else 'crashed'} on {n}"
                     for k, n in sorted(bad.items()))


def _common(task: Task, rep: GenerateReport) -> str | None:
    """Reasons that stop both goals: no reference, a distrusted one."""
    if any(n.startswith("reference distrusted") for n in rep.notes):
        return "reference distrusted: it does not reproduce the task's own pairs"
    if not rep.reference:
        return "no reference to run (no reference.py and the backend runs none)"
    return None


def pre_reason(task: Task, rep: GenerateReport, pre_goal: int = PRE_GOAL) -> str | None:
    """Why ``task`` has fewer than ``pre_goal`` pre_sound cases and no every_input_valid;
    None when it meets the goal."""
    pre = task.cases.get(Bucket.pre_sound, [])
    if task.every_input_valid or len(pre) >= pre_goal or task.thin_invalid_domain:
        return None  # a thin invalid domain is recorded with its evidence: not a shortfall
    if any(n.startswith("not every_input_valid: task.toml says") for n in rep.notes):
        return "task.toml says every_input_valid = false, fewer invalid inputs found"
    common = _common(task, rep)
    if common:
        return common
    stated = "validator" in rep.input_oracles or "constraints" in rep.input_oracles
    if pre:
        nulls = [_null_args(task, c.input) for c in pre]
        if all(nulls):
            refs = [p for p in task.inputs if _may_be_null(p.type)]
            if len(task.inputs) == 1 and len(refs) == 1:
                return ("the only invalid input any oracle confirms is null, and 1 reference "
                        "argument and nothing else: exactly one such input exists")
            return (f"the only invalid inputs any oracle confirms are nulls of reference "
                    f"arguments ({len(refs)} of {len(task.inputs)} arguments)")
        what = "null and " if any(nulls) else ""
        extra = _no_outcome(rep)
        return (f"{len(pre)} invalid input(s) found ({what}"
                f"{'validator/constraints' if stated else 'reference throws'}), no more"
                + (f"; the reference {extra}" if extra else ""))
    if stated:
        return "the task states a precondition, yet no oracle confirmed an invalid input"
    bad = _no_outcome(rep)
    if bad:
        return f"reference gave no outcome on some inputs ({bad}): proves nothing"
    m = next((re.search(r"ran on only (\d+) inputs", n) for n in rep.notes
              if "ran on only" in n), None)
    if m:
        return "fewer than 20 inputs tried (the examples' shape admits few), too few to infer"
    if rep.reference_runs == 0:
        return "the reference never ran (no valid input to take a shape from)"
    return "unexplained: no invalid input and no every_input_valid (" + "; ".join(
        rep.notes)[:120] + ")"


def valid_reason(task: Task, rep: GenerateReport, valid_goal: int = VALID_GOAL) -> str | None:
    """Why ``task`` has fewer than ``valid_goal`` valid pairs; None when it meets the goal."""
    have = len(task.cases.get(Bucket.post_complete, []))
    if have >= valid_goal:
        return None
    space = input_space_size(task.inputs)
    if space is not None and space < valid_goal:
        return f"the types admit only {space} inputs"
    common = _common(task, rep)
    if common:
        return common
    d = rep.dropped
    refused = sum(n for k, n in d.items() if k.startswith("valid: reference"))
    dup = d.get("valid: duplicate", 0) + d.get("valid: breaks an order the examples keep", 0)
    rejected = d.get("valid: an input oracle rejects it", 0)
    if rep.reference_runs == 0:
        return "the reference never ran (no valid input to take a shape from)"
    if refused and refused >= dup and refused >= rejected:
        kinds = ", ".join(k.removeprefix("valid: reference ") + f" {n}" for k, n in sorted(d.items())
                          if k.startswith("valid: reference"))
        return f"the reference refused most drawn inputs ({kinds})"
    if dup and dup >= rejected:
        return "the examples' shape admits few distinct inputs (draws repeat)"
    if rejected:
        return "an input oracle (validator/constraints) rejects most drawn inputs"
    return f"unexplained: {have} valid pairs (" + "; ".join(rep.notes)[:120] + ")"
