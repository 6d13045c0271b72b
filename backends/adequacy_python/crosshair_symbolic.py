"""Symbolic questions about Python specs, answered with CrossHair's own facilities.

``diff --symbolic`` and the symbolic side of ``explore`` ask a backend for an input where two
specs decide differently, or another output a postcondition admits. Z3 needs an encoding of
the language; Python has CrossHair, which executes Python itself symbolically, so no encoder
is written here: ``crosshair diffbehavior`` compares two functions (each spec's predicate
wrapped in one) and names an input where they return different values, and ``crosshair
check`` on a probe with a PEP 316 postcondition names an output the postcondition admits.

CrossHair searches; it never proves that no such input exists, so an empty search is
``unknown`` (never ``none``), and what it finds is a claim that core's search confirms with
the concrete engines before reporting it.
"""

from __future__ import annotations

import time
from typing import Any

from adequacy.plugin import LoadedSpec, Task

from . import crosshair_run
from .pytypes import annotation, type_tree
from .runtime.pyvalues import ValueMismatch, encode
from .sandboxing import RUNTIME

NAME = "crosshair"


def _params(task: Task, with_outputs: bool) -> tuple[str, list[str]]:
    ps = list(task.inputs) + (list(task.outputs) if with_outputs else [])
    return ", ".join(f"{p.name}: {annotation(p.type)}" for p in ps), [p.name for p in ps]


def _call(module: str, fn: str, names: list[str]) -> str:
    return f"{module}.{fn}({', '.join(f'{n}={n}' for n in names)})"


def _ranges(task: Task) -> str:
    conds = crosshair_run.range_conditions(task)
    return f"    if not ({' and '.join(conds)}):\n        return None\n" if conds else ""


def _encode(task: Task, values: dict[str, Any], with_outputs: bool
            ) -> tuple[dict[str, Any], dict[str, Any] | None] | None:
    try:
        inp = {p.name: encode(values[p.name], type_tree(p.type), p.name) for p in task.inputs}
        if not with_outputs:
            return inp, None
        out = {p.name: encode(values[p.name], type_tree(p.type), p.name) for p in task.outputs}
        return inp, out
    except (ValueMismatch, KeyError):
        return None


def find_difference(task: Task, a: LoadedSpec, b: LoadedSpec, predicate: str, gate: str,
                    seconds: float, memory_mb: int = 2048
                    ) -> tuple[dict[str, Any], dict[str, Any] | None] | str:
    """An input (and, for ``post``, an output) where ``a`` and ``b`` decide ``predicate``
    differently (for ``post`` on an input the ``gate`` spec's precondition accepts: ``a``,
    ``b`` or ``none``), or why none was found."""
    with_out = predicate == "post"
    params, names = _params(task, with_out)
    gate_call = {"a": _call("adq_a", "_adq_pre", [p.name for p in task.inputs]),
                 "b": _call("adq_b", "_adq_pre", [p.name for p in task.inputs]),
                 "none": "True"}[gate if with_out else "none"]
    fn = "_adq_post" if with_out else "_adq_pre"
    target = "import adq_a\nimport adq_b\n\n\n"
    for name, mod in (("left", "adq_a"), ("right", "adq_b")):
        target += (f"def {name}({params}) -> bool:\n{_ranges(task)}"
                   f"    return bool({gate_call}) and {_call(mod, fn, names)}\n\n\n")
    files = {"adq_a.py": crosshair_run.spec_module(a.text, task),
             "adq_b.py": crosshair_run.spec_module(b.text, task), "adq_target.py": target}
    out = crosshair_run.run(["diffbehavior", "adq_target.left", "adq_target.right",
                             "--per_condition_timeout", f"{seconds:g}"], files, seconds,
                            memory_mb)
    for line in out.text.splitlines():
        if line.strip().startswith("Given: ("):
            inner = line.strip()[len("Given: "):].rstrip(",")
            values = crosshair_run.parse_call("f" + inner, names)
            if values is not None:
                found = _encode(task, values, with_out)
                if found is not None:
                    return found
    if out.result.timed_out:
        return f"CrossHair did not finish within {seconds + 30:g}s"
    return f"CrossHair found no difference within {seconds:g}s (it searches; it does not prove)"


def find_other_output(task: Task, a: LoadedSpec, inp: dict[str, Any], output: dict[str, Any],
                      seconds: float, memory_mb: int = 2048) -> dict[str, Any] | str:
    """An output other than ``output`` that ``a``'s postcondition accepts on ``inp``."""
    import json

    params = ", ".join(f"{p.name}: {annotation(p.type)}" for p in task.outputs)
    names = [p.name for p in task.outputs]
    decoded = json.dumps({"input": inp, "output": output})
    target = (
        "import json\n\nimport adq_a\nimport pyvalues\n\n"
        f"_CASE = json.loads({decoded!r})\n"
        f"_IN = {{n: pyvalues.decode(v, t) for (n, t), v in zip({[[p.name, type_tree(p.type)] for p in task.inputs]!r}, "
        f"[_CASE['input'][p] for p in {[p.name for p in task.inputs]!r}])}}\n"
        f"_OUT = {{n: pyvalues.decode(v, t) for (n, t), v in zip({[[p.name, type_tree(p.type)] for p in task.outputs]!r}, "
        f"[_CASE['output'][p] for p in {names!r}])}}\n\n\n"
        f"def probe({params}) -> bool:\n"
        '    """\n    post: not __return__\n    """\n'
        f"    mine = {{{', '.join(f'{n!r}: {n}' for n in names)}}}\n"
        "    return mine != _OUT and adq_a._adq_post(**_IN, **mine)\n")
    files = {"adq_a.py": crosshair_run.spec_module(a.text, task), "adq_target.py": target,
             "pyvalues.py": (RUNTIME / "pyvalues.py").read_text()}
    out = crosshair_run.run(["check", "adq_target.probe", "--analysis_kind", "PEP316",
                             "--per_condition_timeout", f"{seconds:g}"], files, seconds,
                            memory_mb)
    for call in crosshair_run.calls_in(out.text, "probe"):
        values = crosshair_run.parse_call(call, names)
        if values is None:
            continue
        try:
            return {p.name: encode(values[p.name], type_tree(p.type), p.name)
                    for p in task.outputs}
        except ValueMismatch:
            continue
    return f"CrossHair found no other output within {seconds:g}s (it searches; it does not prove)"


class CrossHairSymbolic:
    """``Backend.symbolic()`` for Python: the questions of ``adequacy.plugin.Question``
    answered by CrossHair (imported from the plugin API when a question comes, so that this
    module loads where core has no symbolic capability yet)."""

    name = NAME

    def version(self) -> str:
        from pathlib import Path

        from adequacy.plugin import engine_version

        here = Path(__file__)
        return engine_version(crosshair_run.version(), here, here.with_name("crosshair_run.py"),
                              RUNTIME)

    def find(self, task: Task, q: Any, limits: Any) -> Any:
        from adequacy.plugin import Answer  # type: ignore[attr-defined,unused-ignore]

        t0 = time.monotonic()
        seconds = float(getattr(limits, "query_seconds", 5.0))
        memory = int(getattr(limits, "memory_mb", 2048))
        why = crosshair_run.available()
        if why:
            return Answer(status="unknown", reason=why)
        if q.kind == "differ" and q.b is not None:
            got = find_difference(task, q.a, q.b, q.predicate, q.gate, seconds, memory)
            if isinstance(got, str):
                return Answer(status="unknown", reason=got, queries=1,
                              seconds=time.monotonic() - t0)
            return Answer(status="found", input=got[0], output=got[1], queries=1,
                          seconds=time.monotonic() - t0)
        if q.kind == "other_output" and q.input is not None and q.output is not None:
            other = find_other_output(task, q.a, q.input, q.output, seconds, memory)
            if isinstance(other, str):
                return Answer(status="unknown", reason=other, queries=1,
                              seconds=time.monotonic() - t0)
            return Answer(status="found", input=q.input, output=other, queries=1,
                          seconds=time.monotonic() - t0)
        return Answer(status="unknown", reason=f"CrossHair answers no {q.kind!r} question")

    def decide(self, task: Task, q: Any, limits: Any) -> Any:
        from adequacy.plugin import Decision  # type: ignore[attr-defined,unused-ignore]

        return Decision(value=None, reason="cases are decided by the exec engine (Python's own "
                                           "semantics); CrossHair only searches")
