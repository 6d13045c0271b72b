"""Oracles: what says a made case is certainly wrong (outputs) or certainly invalid (inputs).

A judgement is three-valued, like a verdict: ``wrong=True`` (belongs in a soundness bucket),
``False`` (acceptable: a right output, a valid input) or ``None`` (cannot judge: the oracle
raised, timed out, or does not know). ``combine`` keeps a candidate only when at least one
oracle says wrong and none says acceptable, so an oracle that disagrees with another drops the
candidate instead of letting a questionable case in.
"""

from __future__ import annotations

import copy
import importlib.util
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from adequacy.errors import AdequacyError, TaskError
from adequacy.model.identity import params_key, strictly_valid

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


def load_module_function(path: Path, fn: str) -> Callable[..., Any]:
    """Import a task's reference/checker/validator file in-process and return ``fn`` from it.

    Task reference code is trusted like the task's own tests (the issue asks for in-process
    Python oracles); a broken file is a ``TaskError`` naming it.
    """
    name = f"_adequacy_oracle_{abs(hash(str(path.resolve()))):x}_{path.stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise TaskError("cannot import this file", file=str(path))
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except (Exception, SystemExit) as e:  # noqa: BLE001 - any import failure is the file's
        sys.modules.pop(name, None)  # problem; sys.exit() at import must not end the command
        raise TaskError(f"importing failed: {_short(e)}", file=str(path)) from e
    f = getattr(module, fn, None)
    if not callable(f):
        raise TaskError(f"defines no function {fn}()", file=str(path))
    return f


class CheckerOracle:
    """``check(input, output) -> bool``: the only oracle allowed when outputs are not unique."""

    def __init__(self, check: Callable[[dict[str, Any], dict[str, Any]], Any],
                 name: str = "checker") -> None:
        self.name = name
        self._check = check

    def judge_outputs(self, pairs: Sequence[tuple[dict[str, Any], dict[str, Any]]]
                      ) -> list[Judgement]:
        out: list[Judgement] = []
        for inp, outp in pairs:
            try:
                r = self._check(copy.deepcopy(inp), copy.deepcopy(outp))
            except Exception as e:  # noqa: BLE001 - a failing check is data, not a crash
                out.append(Judgement(None, f"checker raised {_short(e)}"))
                continue
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
    def run(inputs: list[dict[str, Any]]) -> list[Any]:
        res: list[Any] = []
        for inp in inputs:
            try:
                res.append(fn(inp))
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
        for inp in inputs:
            try:
                r = self._valid(copy.deepcopy(inp))
            except Exception as e:  # noqa: BLE001
                out.append(Judgement(None, f"validator raised {_short(e)}"))
                continue
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
