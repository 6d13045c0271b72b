"""The task's function run on inputs: the oracle of generated cases and mutants.

A Python task's reference is ``reference/solution.py``: a module defining the task's function
(``[python] function``) with its body. It is the task's code, not a spec, so it may import any
standard module, but it may come from a stranger like any task file: it runs only in the
sandboxed worker, with a fresh module per input (module-level state cannot carry from one
input to the next). Every input is run twice, the second time in another interpreter and in
the reverse order: an input whose two outputs differ (randomness, hash order, addresses) has
no output of its own and is ``failed``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from adequacy.plugin import Limits, ReferenceOutcome, Task, TaskError

from .pytypes import type_tree
from .workers import SPARE_WORKERS, HeldWorker, LoadFailed, WorkerDied

REFERENCE_FILE = "solution.py"


def reference_path(task: Task) -> Path:
    return task.root / "reference" / REFERENCE_FILE


def function_name(task: Task) -> str:
    name = task.settings.get("function")
    if isinstance(name, str) and name.isidentifier():
        return name
    return "solve" if name is None else _bad_function(task, name)


def _bad_function(task: Task, name: object) -> str:
    raise TaskError(f"[python] function = {name!r} is not a Python identifier",
                    file=str(task.root / "task.toml"), field="python.function")


def _load_request(task: Task, source: str, limits: Limits) -> dict[str, Any]:
    return {"op": "loadref", "source": source, "function": function_name(task),
            "inputs": [[p.name, type_tree(p.type)] for p in task.inputs],
            "outputs": [[p.name, type_tree(p.type)] for p in task.outputs],
            "case_seconds": limits.case_seconds}


def _run(worker: HeldWorker, inputs: list[dict[str, Any]], limits: Limits
         ) -> list[ReferenceOutcome]:
    out: list[ReferenceOutcome] = []
    for inp in inputs:
        try:
            r = worker.ask({"op": "ref", "input": inp}, limits.case_seconds + 2.0)
        except WorkerDied as e:
            died = "timeout" if "did not answer" in str(e) else "failed"
            out.append(ReferenceOutcome(kind=died, reason=str(e)))
            continue
        except LoadFailed as e:
            raise TaskError(f"the reference does not load: {e.message}",
                            file=f"reference/{REFERENCE_FILE}", line=e.line) from None
        kind = r.get("kind")
        if kind == "returned" and isinstance(r.get("output"), dict):
            out.append(ReferenceOutcome(kind="returned", output=r["output"]))
        elif kind in ("threw", "timeout", "failed"):
            out.append(ReferenceOutcome(kind=kind, reason=str(r.get("reason", ""))))
        else:
            out.append(ReferenceOutcome(kind="failed", reason=f"worker answered {r}"[:200]))
    return out


def reference_outcomes(task: Task, inputs: list[dict[str, Any]], limits: Limits,
                       twice: bool = True, source: str | None = None
                       ) -> list[ReferenceOutcome]:
    """``source``: run this text instead of the task's file (a mutant of it)."""
    path = reference_path(task)
    if source is None:
        if not path.is_file():
            return [ReferenceOutcome(kind="failed", reason=f"no reference/{REFERENCE_FILE}")
                    for _ in inputs]
        source = path.read_text(encoding="utf-8")
    load = _load_request(task, source, limits)
    first = SPARE_WORKERS.take(limits, load, "python reference")
    try:
        outs = _run(first, inputs, limits)
    finally:
        first.stop()
    if not twice or not inputs:
        return outs
    second = SPARE_WORKERS.take(limits, load, "python reference (second run)", seed=1)
    try:
        again = list(reversed(_run(second, list(reversed(inputs)), limits)))
    finally:
        second.stop()
    merged: list[ReferenceOutcome] = []
    for a, b in zip(outs, again, strict=True):
        if a.kind == "returned" and b.kind == "returned" and a.output != b.output:
            merged.append(ReferenceOutcome(
                kind="failed", reason="two runs of the reference gave different outputs "
                                      "(randomness, hash order or addresses decide it)"))
        elif a.kind != b.kind and "timeout" not in (a.kind, b.kind):
            merged.append(ReferenceOutcome(kind="failed", reason=f"two runs of the reference "
                                           f"disagree ({a.kind} and {b.kind})"))
        else:
            merged.append(a)
    return merged


def raw_outputs(task: Task, inputs: list[dict[str, Any]], limits: Limits) -> list[Any]:
    """What the reference returns on each input as plain Python values (``pytypes.unplain``),
    whatever the declared output type; None where it did not return. For learning the type
    of a function with no return annotation."""
    from .pytypes import unplain

    path = reference_path(task)
    load = _load_request(task, path.read_text(encoding="utf-8"), limits)
    worker = SPARE_WORKERS.take(limits, load, "python reference")
    out: list[Any] = []
    try:
        for inp in inputs:
            try:
                r = worker.ask({"op": "ref", "input": inp, "raw": True}, limits.case_seconds + 2)
            except (WorkerDied, LoadFailed):
                out.append(None)
                continue
            out.append(unplain(r["raw"]) if r.get("kind") == "returned" and "raw" in r
                       else None)
    finally:
        worker.stop()
    return out
