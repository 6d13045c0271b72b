"""CrossHair as a ``Verifier``: does the task's reference meet the spec's contracts?

The reference (``reference/solution.py``) is wrapped in a function whose PEP 316 docstring
states the spec's precondition and postcondition, and ``crosshair check`` searches for an
input the precondition accepts on which the postcondition rejects what the reference returns
(or on which the reference raises). CrossHair searches; it does not prove: finding nothing
within the budget is ``unknown``, never ``verified``. A counterexample it reports is confirmed
by the concrete engines (the precondition is true on it in the ``exec`` engine, the reference
is run on it in the sandbox, and the postcondition is false on that output in ``exec``) before
the result is ``not verified``.
"""

from __future__ import annotations

import time
from typing import Any

from adequacy.plugin import (
    Bucket,
    Case,
    EngineInfo,
    Limits,
    LoadedSpec,
    Task,
    Truth,
    VerifyResult,
)

from . import crosshair_run
from .pytypes import type_tree
from .reference import function_name, reference_outcomes, reference_path
from .runtime.pyvalues import ValueMismatch, encode

NAME = "crosshair"


def _budget(limits: Limits) -> float:
    return max(5.0, min(limits.spec_seconds, 6 * limits.case_seconds))


def target_module(task: Task) -> str:
    params, ret = crosshair_run.signature(task)
    args = ", ".join(p.name for p in task.inputs)
    kws = [f"{p.name}={p.name}" for p in task.inputs]
    if len(task.outputs) == 1:
        outs = [f"{task.outputs[0].name}=__return__"]
    else:
        outs = [f"{p.name}=__return__[{i}]" for i, p in enumerate(task.outputs)]
    pres = [*crosshair_run.range_conditions(task), f"adq_spec._adq_pre({', '.join(kws)})"]
    doc = "".join(f"    pre: {c}\n" for c in pres)
    doc += f"    post: adq_spec._adq_post({', '.join([*kws, *outs])})\n"
    return (f"import adq_ref\nimport adq_spec\n\n\n"
            f"def checked({params}) -> {ret}:\n"
            f'    """\n{doc}    """\n'
            f"    return adq_ref.{function_name(task)}({args})\n")


def _case(task: Task, bucket: Bucket, inp: dict[str, Any], out: dict[str, Any] | None
          ) -> Case:
    return Case(id="crosshair", bucket=bucket, input=inp, output=out)


def confirm(spec: LoadedSpec, task: Task, inp: dict[str, Any], limits: Limits
            ) -> tuple[bool, str]:
    """(whether the concrete engines agree that ``inp`` breaks the contract, what they saw)."""
    from .engine import ExecEngine

    engine = ExecEngine()
    [pre] = engine.check(spec, task, [_case(task, Bucket.pre_complete, inp, None)], limits)
    if pre.value != Truth.true:
        return False, f"the precondition is {pre.value.value} on it in exec ({pre.reason})"
    [ref] = reference_outcomes(task, [inp], limits, twice=False)
    if ref.kind == "threw":
        return True, f"the precondition accepts it and the reference raises {ref.reason}"
    if ref.kind != "returned" or ref.output is None:
        return False, f"the reference gave no output ({ref.kind}: {ref.reason})"
    [post] = engine.check(spec, task, [_case(task, Bucket.post_complete, inp, ref.output)],
                          limits)
    if post.value == Truth.false:
        return True, f"the reference returns {ref.output} and the postcondition rejects it"
    return False, f"the postcondition is {post.value.value} on the reference's output in exec"


class CrossHairVerifier:
    name = NAME

    def info(self) -> EngineInfo:
        why = crosshair_run.available()
        return EngineInfo(name=NAME, available=why is None, reason=why or
                          "searches for a counterexample; finding none is unknown",
                          version=crosshair_run.version())

    def verify(self, spec: LoadedSpec, task: Task, limits: Limits) -> VerifyResult:
        t0 = time.monotonic()

        def result(kind: str, summary: str) -> VerifyResult:
            return VerifyResult(task_id=task.id, method=function_name(task), engine=NAME,
                                result=kind,  # type: ignore[arg-type]
                                summary=f"{summary} ({time.monotonic() - t0:.1f}s)")

        why = crosshair_run.available()
        if why:
            return result("unknown", why)
        ref = reference_path(task)
        if not ref.is_file():
            return result("unknown", "the task has no reference/solution.py to check")
        budget = _budget(limits)
        files = {"adq_spec.py": crosshair_run.spec_module(spec.text, task),
                 "adq_ref.py": ref.read_text(encoding="utf-8"),
                 "adq_target.py": target_module(task)}
        out = crosshair_run.run(["check", "adq_target.checked", "--analysis_kind", "PEP316",
                                 "--per_condition_timeout", f"{budget:g}"], files, budget,
                                limits.memory_mb)
        r = out.result
        if r.timed_out:
            return result("unknown", f"CrossHair did not finish within {budget + 30:g}s")
        calls = crosshair_run.calls_in(out.text, "checked")
        if r.returncode == 0 and not calls:
            return result("unknown", f"CrossHair found no counterexample within {budget:g}s "
                                     "(it searches; it does not prove)")
        names = [p.name for p in task.inputs]
        notes = []
        for call in calls:
            values = crosshair_run.parse_call(call, names)
            if values is None:
                notes.append(f"{call}: not a literal input")
                continue
            try:
                inp = {p.name: encode(values[p.name], type_tree(p.type), p.name)
                       for p in task.inputs}
            except ValueMismatch as e:
                notes.append(f"{call}: {e}")
                continue
            ok, what = confirm(spec, task, inp, limits)
            if ok:
                return result("not verified", f"counterexample {call}: {what}")
            notes.append(f"{call}: not confirmed: {what}")
        if notes:
            return result("unknown", "CrossHair's counterexamples were not confirmed by the "
                                     "concrete engines: " + "; ".join(notes[:3]))
        tail = (r.stderr.decode("utf-8", "replace").strip().splitlines() or [""])[-1]
        return result("unknown", f"CrossHair stopped (exit {r.returncode}): {tail[:200]}")
