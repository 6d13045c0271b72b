"""Judges: who says whether an input is valid and an output right, for cases nobody wrote.

Counterexample search compares two judges on the same made-up inputs and outputs. A
``SpecJudge`` is a spec, evaluated through the normal scoring path (``runner.score_spec``:
the engine chain, its limits and sandbox), so a spec under search is exactly as contained as
a spec being scored. An ``OracleJudge`` is the task's own evidence: its validator and
``[constraints]`` for inputs, its reference, checker and recorded outputs for outputs. Each
word is three-valued: ``True`` (valid / right), ``False`` (invalid / wrong), ``None`` (cannot
say, with the reason); only decided words on both sides make a disagreement.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from adequacy.errors import AdequacyError, SpecInvalid
from adequacy.extensions.backend import Limits
from adequacy.extensions.judges import Judge, JudgeCapabilities, Pair, Word
from adequacy.model.task import Case, Task
from adequacy.model.verdicts import Bucket, Truth
from adequacy.scoring.cache import VerdictCache
from adequacy.scoring.options import ScoreOptions
from adequacy_mutators import (
    CheckerOracle,
    ConstraintOracle,
    RecordedOracle,
    ValidatorOracle,
    params_key,
    parse_constraints,
    strictly_valid,
)
from adequacy_mutators._oracles import load_module_function

__all__ = ["Judge", "OracleJudge", "Pair", "SpecJudge", "Word"]


class SpecJudge(Judge):
    """A spec's precondition on inputs and postcondition on pairs, scored in batches.

    Each call is one ``score_spec`` over the batch (one engine run: a JVM engine pays its start
    once per batch, not per case) under ``deadline``: every engine of the chain gets only the
    time left (compiles included), and past it none runs, so a budget holds even when an
    engine is slow. The verdict cache is not used by default: made-up cases would fill it
    with entries no later run asks for.
    """

    capabilities = JudgeCapabilities(deadline=True)

    def __init__(self, task: Task, text: str, path: str | None, options: ScoreOptions,
                 cache: VerdictCache | None = None, name: str | None = None) -> None:
        self.task = task
        self.text = text
        self.path = path
        self.name = name or (path or "spec")
        self.options = options
        self.cache = cache
        self.deadline: float | None = None
        self.calls = 0

    def set_deadline(self, deadline: float) -> None:
        self.deadline = deadline

    def _score(self, cases: list[Case]) -> list[Word]:
        from adequacy.scoring.runner import score_spec
        if not cases:
            return []
        self.calls += 1
        rep = score_spec(self.task, self.text, self.path, self.options, cache=self.cache,
                         cases=cases, deadline=self.deadline)
        if rep.status == "invalid" and rep.invalid is not None:
            inv = rep.invalid
            raise SpecInvalid(inv.message, file=inv.file or self.path, line=inv.line)
        if rep.status != "scored":
            first = (rep.error or "scoring failed").splitlines()[0]
            raise AdequacyError(f"{self.name}: {first}")
        by_id = {v.case_id: v for v in rep.verdicts}
        out: list[Word] = []
        for c in cases:
            v = by_id.get(c.id)
            if v is None or v.value == Truth.unknown:
                out.append(Word(None, f"unknown: {v.reason if v else 'no verdict'}"))
            else:
                out.append(Word(v.value == Truth.true,
                                f"{'accepts' if v.value == Truth.true else 'rejects'}"))
        return out

    def inputs(self, inputs: Sequence[dict[str, Any]]) -> list[Word]:
        return self._score([Case(id=f"q{i}", bucket=Bucket.pre_complete, input=inp)
                            for i, inp in enumerate(inputs)])

    def outputs(self, pairs: Sequence[Pair]) -> list[Word]:
        return self._score([Case(id=f"q{i}", bucket=Bucket.post_complete, input=i_, output=o)
                            for i, (i_, o) in enumerate(pairs)])


THREW = "reference threw"
"""How a reference's exception (an overflow of a JML reference included) is reported: the one
reference answer that makes an input invalid."""


class OracleJudge(Judge):
    """The task's own oracles, with one rule for inputs and one for outputs.

    Inputs: a validator decides (unless a broken ``[constraints]`` entry contradicts it: then
    no word); without one, the task's own cases (an input of a valid bucket is valid, of
    ``pre_sound`` invalid), a broken constraint or a reference that gives no output (threw,
    did not terminate) says invalid, and a reference that terminates with an output fitting
    the schema says valid; ``every_input_valid`` says valid. Outputs: the checker, the
    reference (outputs unique) and the recorded outputs; any two that disagree give no word.
    """

    name = "reference"

    def __init__(self, task: Task, *, reference: bool = True) -> None:
        self.task = task
        self.cons = parse_constraints(task.constraints, task.inputs)
        ref_dir = task.reference_dir
        self.validator = (ValidatorOracle(load_module_function(ref_dir / "validator.py",
                                                               "valid"))
                          if (ref_dir / "validator.py").is_file() else None)
        self.constraints = ConstraintOracle(self.cons) if self.cons else None
        self.checker = (CheckerOracle(load_module_function(ref_dir / "checker.py", "check"))
                        if (ref_dir / "checker.py").is_file() else None)
        known = [(c.input, c.output) for c in task.cases.get(Bucket.post_complete, [])
                 if c.output is not None]
        self.recorded = (RecordedOracle(known, task.inputs, task.outputs)
                         if self.cons.unique_output else None)
        self._ref_fn: Any = None
        self._backend: Any = None
        if not reference:
            pass
        elif (ref_dir / "reference.py").is_file():
            self._ref_fn = load_module_function(ref_dir / "reference.py", "reference")
        else:
            from adequacy.extensions.registry import registry
            try:
                b = registry().backend_for(task.language)
            except AdequacyError:
                b = None
            if b is not None and b.runs_references():
                self._backend = b
        self.deadline: float | None = None
        """``time.monotonic()`` past which the reference is not run (a search's budget)."""
        self._refs: dict[str, dict[str, Any] | str] = {}
        self._recorded_in: dict[str, bool] = {}
        for c in task.all_cases():
            if c.bucket != Bucket.post_sound:
                k = params_key(c.input, task.inputs)
                self._recorded_in.setdefault(k, c.bucket != Bucket.pre_sound)
        names = [n for n, x in (("validator", self.validator), ("constraints", self.constraints),
                                ("reference", self.has_reference), ("checker", self.checker),
                                ("recorded outputs", self.recorded)) if x]
        self.describe = ", ".join(names) or "no oracle"
        self.capabilities = JudgeCapabilities(deadline=True,
                                              reference_outputs=self.has_reference)

    def set_deadline(self, deadline: float) -> None:
        self.deadline = deadline

    @property
    def has_reference(self) -> bool:
        return self._ref_fn is not None or self._backend is not None

    def reference(self, inputs: Sequence[dict[str, Any]]) -> list[dict[str, Any] | str]:
        """The reference's output per input, or the reason it gave none (kept per input)."""
        keys = [params_key(i, self.task.inputs) for i in inputs]
        todo = {k: i for k, i in zip(keys, inputs, strict=True) if k not in self._refs}
        if todo and not self.has_reference:
            for k in todo:
                self._refs[k] = "no reference"
        elif todo:
            ks = list(todo)
            got: list[Any]
            if self._ref_fn is not None:
                got = []
                for o in self._ref_fn.call_many([(todo[k],) for k in ks]):
                    if o.kind == "returned":
                        got.append(o.value)
                    elif o.kind == "threw" and o.type_name not in ("RecursionError",
                                                                   "MemoryError"):
                        got.append(f"{THREW} {o.type_name or o.reason}")
                    else:  # a timeout or a crash says nothing about the input
                        got.append(f"reference gave no outcome ({o.kind}: {o.reason})")
            elif self.deadline is not None and self.deadline - time.monotonic() <= 0:
                # out of time: no word on these inputs, and none kept (a later call may run)
                return [self._refs.get(k, "reference not run: out of time") for k in keys]
            else:
                lim = None
                if self.deadline is not None:
                    left = self.deadline - time.monotonic()
                    lim = Limits(spec_seconds=left, case_seconds=min(Limits().case_seconds,
                                                                     left))
                try:
                    outs = self._backend.reference_outcomes(self.task,
                                                            [todo[k] for k in ks], lim)
                    got = [o.output if o.kind == "returned" else
                           f"{THREW} {o.reason}" if o.kind == "threw" else
                           f"reference gave no outcome ({o.kind}: {o.reason})" for o in outs]
                except AdequacyError as e:
                    got = [f"reference unavailable: {str(e).splitlines()[0]}"] * len(ks)
            for k, r in zip(ks, got, strict=True):
                self._refs[k] = self._fit(r)
        return [self._refs[k] for k in keys]

    def _fit(self, r: Any) -> dict[str, Any] | str:
        if isinstance(r, str):
            return r
        if not isinstance(r, dict):
            return "reference gave no output (threw, timed out or crashed)"
        names = {p.name for p in self.task.outputs}
        if set(r) != names or not all(strictly_valid(r[p.name], p.type)
                                      for p in self.task.outputs):
            return "reference output does not fit the schema"
        return r

    def inputs(self, inputs: Sequence[dict[str, Any]]) -> list[Word]:
        n = len(inputs)
        val = self.validator.judge_inputs(inputs) if self.validator else [None] * n
        con = self.constraints.judge_inputs(inputs) if self.constraints else [None] * n
        need_ref = self.validator is None and not self.task.every_input_valid
        refs = self.reference(inputs) if need_ref and self.has_reference else [None] * n
        out: list[Word] = []
        for inp, v, c, r in zip(inputs, val, con, refs, strict=True):
            broken = c is not None and c.wrong
            rec = self._recorded_in.get(params_key(inp, self.task.inputs))
            if v is not None and v.wrong is not None:
                if broken and v.wrong is False:
                    out.append(Word(None, f"validator accepts but constraints say {c.reason}"
                                    if c else "oracles disagree"))
                else:
                    out.append(Word(not v.wrong, v.reason))
            elif rec is not None:
                out.append(Word(rec, "a recorded " + ("valid" if rec else "invalid")
                                + " input of the task"))
            elif broken and c is not None:
                out.append(Word(False, f"constraints: {c.reason}"))
            elif self.task.every_input_valid:
                out.append(Word(True, "every input is valid (task)"))
            elif isinstance(r, dict):
                out.append(Word(True, "the reference terminates with an output"))
            elif isinstance(r, str) and r.startswith(THREW):
                # a reference that timed out, crashed or gave an output outside the schema
                # says nothing about the input (docs/cases.md)
                out.append(Word(False, r))
            else:
                out.append(Word(None, "no input oracle decides"))
        return out

    def outputs(self, pairs: Sequence[Pair]) -> list[Word]:
        words: list[list[tuple[str, Any]]] = [[] for _ in pairs]
        if self.checker is not None:
            for w, j in zip(words, self.checker.judge_outputs(pairs), strict=True):
                w.append(("checker", j))
        if self.cons.unique_output:
            refs = self.reference([i for i, _ in pairs])
            for w, (_, o), r in zip(words, pairs, refs, strict=True):
                if isinstance(r, dict):
                    same = params_key(r, self.task.outputs) == params_key(o, self.task.outputs)
                    w.append(("reference", _J(not same, "equals the reference output" if same
                                              else "differs from the reference output")))
            if self.recorded is not None:
                for w, j in zip(words, self.recorded.judge_outputs(pairs), strict=True):
                    w.append(("recorded", j))
        out: list[Word] = []
        for w in words:
            decided = [(n, j) for n, j in w if j.wrong is not None]
            if not decided:
                out.append(Word(None, "no output oracle decides"))
            elif len({j.wrong for _, j in decided}) > 1:
                out.append(Word(None, "output oracles disagree: " + "; ".join(
                    f"{n} {j.reason}" for n, j in decided)))
            else:
                n, j = decided[0]
                out.append(Word(not j.wrong, f"{n}: {j.reason}" if not j.reason.startswith(n)
                                else j.reason))
        return out


@dataclass(frozen=True)
class _J:
    wrong: bool | None
    reason: str

