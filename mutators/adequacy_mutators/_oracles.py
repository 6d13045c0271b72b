"""Oracles: what says a made case is certainly wrong (outputs) or certainly invalid (inputs).

A judgement is three-valued, like a verdict: ``wrong=True`` (belongs in a soundness bucket),
``False`` (acceptable: a right output, a valid input) or ``None`` (cannot judge: the oracle
raised, timed out, or does not know). ``combine`` keeps a candidate only when at least one
oracle says wrong and none says acceptable, so an oracle that disagrees with another drops the
candidate instead of letting a questionable case in.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from adequacy.errors import AdequacyError
from adequacy.model.identity import params_key, strictly_valid
from adequacy.sandbox.pycode import CALL_SECONDS, CodeOutcome, TaskFunction

from ._constraints import Constraints

__all__ = [
    "CheckerOracle", "ConstraintOracle", "InputOracle", "Judgement", "OutputOracle",
    "RecordedOracle", "ReferenceOracle", "ValidatorOracle", "combine", "load_module_function",
]


@dataclass(frozen=True)
class Judgement:
    wrong: bool | None
    """True: certainly wrong / invalid; False: acceptable; None: cannot judge."""
    reason: str = ""


@runtime_checkable
class OutputOracle(Protocol):
    """Judges (input, output) pairs in one batch (batching lets a JVM oracle stay warm)."""

    name: str

    def judge_outputs(self, pairs: Sequence[tuple[dict[str, Any], dict[str, Any]]]
                      ) -> list[Judgement]: ...


@runtime_checkable
class InputOracle(Protocol):
    """Judges inputs: wrong=True means the input breaks the task's precondition."""

    name: str

    def judge_inputs(self, inputs: Sequence[dict[str, Any]]) -> list[Judgement]: ...


def combine(judgements: Sequence[tuple[str, Judgement]]) -> tuple[bool, str]:
    """(keep, reason): the labelling rule shared by outputs and inputs."""
    for name, j in judgements:
        if j.wrong is False:
            return False, f"{name}: {j.reason or 'accepts'}"
    if any(j.wrong for _, j in judgements):
        return True, ", ".join(name for name, j in judgements if j.wrong)
    if not judgements:
        return False, "no oracle"
    name, j = judgements[0]
    return False, f"{name}: {j.reason or 'cannot judge'}"


def _short(e: BaseException) -> str:
    text = f"{type(e).__name__}: {e}"
    return text if len(text) <= 80 else text[:77] + "..."


def load_module_function(path: Path, fn: str, *, seconds: float = CALL_SECONDS) -> TaskFunction:
    """The task file's function ``fn`` as a handle that runs it in the sandbox
    (``adequacy.sandbox.pycode``): tasks are untrusted input, so their Python code is never
    imported into this process. Calling the handle like the function returns its value or
    raises ``CodeThrew`` (the code's own exception), ``CodeTimeout`` or ``CodeFailed``; a
    file that does not import or lacks ``fn`` is a ``TaskError`` naming it (and the line)."""
    return TaskFunction(path, fn, seconds=seconds, display=str(path)).load()


def _calls(fn: Callable[..., Any], calls: list[tuple[Any, ...]]) -> list[CodeOutcome]:
    """Outcomes of ``fn`` on each argument tuple: one sandboxed batch for a task's code, a
    loop for a plain function (tests, extra oracles written in Python by a caller)."""
    if isinstance(fn, TaskFunction):
        return fn.call_many(calls)
    out: list[CodeOutcome] = []
    for args in calls:
        try:
            out.append(CodeOutcome("returned", value=fn(*copy.deepcopy(args))))
        except Exception as e:  # noqa: BLE001 - a failing call is data
            out.append(CodeOutcome("threw", reason=_short(e), type_name=type(e).__name__))
    return out


def _raised(o: CodeOutcome) -> str:
    """How a call that gave no value reads in a reason (``raised ValueError: ...``)."""
    if o.kind == "threw":
        return f"raised {o.reason}"
    if o.kind == "timeout":
        return "raised a timeout (did not finish in time)"
    return f"raised no outcome ({o.reason})"


class CheckerOracle:
    """``check(input, output) -> bool``: the only oracle allowed when outputs are not unique."""

    def __init__(self, check: Callable[[dict[str, Any], dict[str, Any]], Any],
                 name: str = "checker") -> None:
        self.name = name
        self._check = check

    def judge_outputs(self, pairs: Sequence[tuple[dict[str, Any], dict[str, Any]]]
                      ) -> list[Judgement]:
        out: list[Judgement] = []
        for o in _calls(self._check, [(inp, outp) for inp, outp in pairs]):
            if o.kind != "returned":  # a failing check is data, not a crash
                out.append(Judgement(None, f"checker {_raised(o)}"))
                continue
            r = o.value
            if not isinstance(r, bool):
                out.append(Judgement(None, f"checker returned {type(r).__name__}, not bool"))
            else:
                out.append(Judgement(not r, "checker accepts" if r else "checker rejects"))
        return out


#: a reference run over a batch of inputs: one output dict per input, or an exception / None.
ReferenceRun = Callable[[list[dict[str, Any]]], Sequence[Any]]


class ReferenceOracle:
    """Output differs from the reference's output => wrong (valid only for unique outputs)."""

    def __init__(self, run: ReferenceRun, inputs: Sequence[Any], outputs: Sequence[Any],
                 name: str = "reference") -> None:
        self.name = name
        self._run = run
        self._inputs = list(inputs)
        self._outputs = list(outputs)
        self._cache: dict[str, Judgement | dict[str, Any]] = {}

    def _refs(self, inputs: Sequence[dict[str, Any]]) -> None:
        todo: dict[str, dict[str, Any]] = {}
        for inp in inputs:
            k = params_key(inp, self._inputs)
            if k not in self._cache:
                todo[k] = inp
        if not todo:
            return
        keys = list(todo)
        try:
            results = list(self._run([copy.deepcopy(todo[k]) for k in keys]))
        except AdequacyError as e:
            for k in keys:
                self._cache[k] = Judgement(None, f"reference unavailable: {_short(e)}")
            return
        if len(results) != len(keys):
            for k in keys:
                self._cache[k] = Judgement(None, "reference returned a wrong number of results")
            return
        for k, r in zip(keys, results, strict=True):
            r = getattr(r, "output", r)
            if isinstance(r, BaseException):
                self._cache[k] = Judgement(None, f"reference raised {_short(r)}")
            elif not isinstance(r, dict):
                self._cache[k] = Judgement(None, "reference gave no output (threw, timed out or crashed)")
            elif set(r) != {p.name for p in self._outputs} or not all(
                    strictly_valid(r[p.name], p.type) for p in self._outputs):
                self._cache[k] = Judgement(None, "reference output does not fit the schema")
            else:
                self._cache[k] = r

    def judge_outputs(self, pairs: Sequence[tuple[dict[str, Any], dict[str, Any]]]
                      ) -> list[Judgement]:
        self._refs([inp for inp, _ in pairs])
        out: list[Judgement] = []
        for inp, outp in pairs:
            ref = self._cache[params_key(inp, self._inputs)]
            if isinstance(ref, Judgement):
                out.append(ref)
                continue
            same = params_key(ref, self._outputs) == params_key(outp, self._outputs)
            out.append(Judgement(not same, "equals the reference output" if same
                                 else "differs from the reference output"))
        return out


def python_reference_run(fn: Callable[[dict[str, Any]], Any]) -> ReferenceRun:
    """A Python reference over a batch: its output per input, or the exception that says
    why there is none (``CodeThrew``, ``CodeTimeout``, ``CodeFailed``)."""
    def run(inputs: list[dict[str, Any]]) -> list[Any]:
        res: list[Any] = []
        for o in _calls(fn, [(inp,) for inp in inputs]):
            try:
                res.append(o.unwrap())
            except Exception as e:  # noqa: BLE001 - one failing input is data
                res.append(e)
        return res

    return run


class RecordedOracle:
    """The task's own correct outputs (post_complete) as the reference, for unique outputs.

    Used when no executable reference exists: with unique outputs, the recorded output is the
    only right one for its input. An input recorded with two different outputs cannot be judged.
    """

    def __init__(self, known: Sequence[tuple[dict[str, Any], dict[str, Any]]],
                 inputs: Sequence[Any], outputs: Sequence[Any], name: str = "recorded") -> None:
        self.name = name
        self._inputs = list(inputs)
        self._outputs = list(outputs)
        self._known: dict[str, set[str]] = {}
        for inp, outp in known:
            self._known.setdefault(params_key(inp, self._inputs), set()).add(
                params_key(outp, self._outputs))

    def judge_outputs(self, pairs: Sequence[tuple[dict[str, Any], dict[str, Any]]]
                      ) -> list[Judgement]:
        out: list[Judgement] = []
        for inp, outp in pairs:
            rec = self._known.get(params_key(inp, self._inputs), set())
            if not rec:
                out.append(Judgement(None, "no recorded output for this input"))
            elif len(rec) > 1:
                out.append(Judgement(None, "several recorded outputs for this input"))
            else:
                same = params_key(outp, self._outputs) in rec
                out.append(Judgement(not same, "equals the recorded output" if same
                                     else "differs from the recorded output"))
        return out


class ValidatorOracle:
    """``valid(input) -> bool`` from the task's reference/validator.py."""

    def __init__(self, valid: Callable[[dict[str, Any]], Any], name: str = "validator") -> None:
        self.name = name
        self._valid = valid

    def judge_inputs(self, inputs: Sequence[dict[str, Any]]) -> list[Judgement]:
        out: list[Judgement] = []
        for o in _calls(self._valid, [(inp,) for inp in inputs]):
            if o.kind != "returned":
                out.append(Judgement(None, f"validator {_raised(o)}"))
                continue
            r = o.value
            if not isinstance(r, bool):
                out.append(Judgement(None, f"validator returned {type(r).__name__}, not bool"))
            else:
                out.append(Judgement(not r, "validator accepts" if r else "validator rejects"))
        return out


class ConstraintOracle:
    """The task's stated constraints: breaking one => invalid; keeping all proves nothing."""

    def __init__(self, cons: Constraints, name: str = "constraints") -> None:
        self.name = name
        self._cons = cons

    def judge_inputs(self, inputs: Sequence[dict[str, Any]]) -> list[Judgement]:
        out: list[Judgement] = []
        for inp in inputs:
            broken = self._cons.violations(inp)
            out.append(Judgement(True, "breaks " + ", ".join(broken)) if broken
                       else Judgement(None, "keeps every stated constraint"))
        return out
