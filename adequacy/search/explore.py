"""Counterexample search: inputs and outputs on which a spec and an oracle (or two specs) differ.

``compare`` draws inputs from the task's type schema (fresh small values, and one-step
mutations of the task's own inputs), asks both judges about each input, then about outputs on
the inputs the oracle accepts (the reference's output, mutants of it and of recorded outputs,
fresh values), and keeps every pair of decided, differing words. Each kept disagreement is
then shrunk greedily (``adequacy.search.shrinking``): a smaller candidate is kept when the same
disagreement (same predicate, same two words) still holds, until no candidate does or the
budget ends. Everything runs against a wall-clock budget checked between batches; a batch's
engine run gets only the time that is left.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from adequacy.model.task import Task
from adequacy.model.verdicts import Bucket
from adequacy.search.oracles import Judge, OracleJudge, Pair, Word
from adequacy.search.shrinking import dict_candidates, size_key
from adequacy.search.space import Inputs, outputs_for, paired, possible, rng_for
from adequacy_mutators import params_key

__all__ = ["JudgeDisagreement", "SearchReport", "as_cases", "compare", "shrink"]

#: inputs per search batch (one engine run per judge per batch).
BATCH = 48
#: shrink candidates judged per round.
SHRINK_BATCH = 64


class JudgeDisagreement(BaseModel):
    """One input (pre) or input/output pair (post) the two judges decided differently."""

    model_config = ConfigDict(extra="forbid")

    predicate: Literal["pre", "post"]
    input: dict[str, Any]
    output: dict[str, Any] | None = None
    left: bool
    """The first judge's word (the spec under search: accepts?)."""
    right: bool
    """The second judge's word (the oracle: valid / right?)."""
    left_reason: str = ""
    right_reason: str = ""
    found: dict[str, Any] | None = None
    """The input (and output) as first found, before shrinking."""
    shrink_steps: int = 0
    existing: str | None = None
    """``bucket/id`` of a task case equal to it, when it is not new."""

    @property
    def bucket(self) -> Bucket:
        """The bucket the oracle's word puts it in (a case the left judge fails there)."""
        if self.predicate == "pre":
            return Bucket.pre_complete if self.right else Bucket.pre_sound
        return Bucket.post_complete if self.right else Bucket.post_sound


class SearchReport(BaseModel):
    model_config = ConfigDict(extra="forbid")

    task: str
    left: str
    right: str
    right_oracles: str = ""
    seed: int
    budget: float
    seconds: float = 0.0
    first_found_seconds: float | None = None
    inputs_compared: int = 0
    """Inputs both judges decided."""
    pairs_compared: int = 0
    """(input, output) pairs both judges decided, on inputs the gate accepted."""
    undecided: int = 0
    """Inputs or pairs on which one judge (or both) gave no word."""
    known: int = 0
    """Disagreements equal to a case of the task (not reported: ``score`` shows those)."""
    disagreements: list[JudgeDisagreement] = []
    exhausted: bool = False
    """The search stopped because the budget ran out (not because every bucket was found)."""


def _reference_source(task: Task) -> Judge | None:
    """The task's reference as a source of likely-right outputs (never as a judge here)."""
    from adequacy.errors import AdequacyError
    try:
        o = OracleJudge(task)
    except AdequacyError:
        return None
    return o if o.capabilities.reference_outputs else None


def _decided(a: Word, b: Word) -> bool:
    return a.value is not None and b.value is not None


class _Search:
    def __init__(self, task: Task, left: Judge, right: Judge, seed: int, budget: float,
                 gate: Literal["right", "both"], per_bucket: int) -> None:
        self.task, self.left, self.right = task, left, right
        self.seed, self.budget, self.gate, self.per_bucket = seed, budget, gate, per_bucket
        self.start = time.monotonic()
        self.deadline = self.start + budget
        for j in (left, right):
            if j.capabilities.deadline:
                j.set_deadline(self.deadline)
        self.oracle: Judge | None = (right if right.capabilities.reference_outputs
                                     else _reference_source(task))
        if self.oracle is not None and self.oracle.capabilities.deadline:
            self.oracle.set_deadline(self.deadline)
        self.report = SearchReport(task=task.id, left=left.name, right=right.name, seed=seed,
                                   budget=budget, right_oracles=right.describe)
        self.found: dict[tuple[str, bool, bool], list[JudgeDisagreement]] = {}
        self.pool = [c.output for c in task.all_cases() if c.output is not None]
        self.existing = {self._case_key(c.bucket, c.input, c.output): c.key
                         for c in task.all_cases()}
        self.rng = rng_for(seed, task.id, "outputs")

    def _case_key(self, bucket: Bucket, inp: dict[str, Any], out: dict[str, Any] | None
                  ) -> tuple[str, str, str]:
        return (bucket.value, params_key(inp, self.task.inputs),
                params_key(out, self.task.outputs) if out is not None else "")

    def _known(self, d: JudgeDisagreement) -> bool:
        """A case of the task already: the search is for cases beyond them (``score`` shows
        the spec failing the task's own)."""
        return self._case_key(d.bucket, d.input, d.output) in self.existing

    def left_time(self) -> float:
        return self.deadline - time.monotonic()

    def _keep(self, d: JudgeDisagreement) -> None:
        if self._known(d):
            self.report.known += 1
            return
        key = (d.predicate, d.left, d.right)
        lst = self.found.setdefault(key, [])
        if len(lst) < self.per_bucket:
            lst.append(d)
            if self.report.first_found_seconds is None:
                self.report.first_found_seconds = time.monotonic() - self.start

    def _all_found(self) -> bool:
        return len(self.found) == 4 and all(len(v) >= self.per_bucket
                                            for v in self.found.values())

    def _gate(self, a: Word, b: Word) -> bool:
        return b.value is True and (self.gate == "right" or a.value is True)

    def search(self) -> None:
        gen = Inputs(self.task, self.seed)
        stop_at = self.start + self.budget * 0.5
        while time.monotonic() < (stop_at if self.found else self.deadline):
            batch = gen.batch(BATCH)
            if not batch:  # every small input drawn: the space is searched, not the budget
                return
            rw = self.right.inputs(batch)
            lw = self.left.inputs(batch)
            valid: list[tuple[dict[str, Any], Word, Word]] = []
            for inp, a, b in zip(batch, lw, rw, strict=True):
                if not _decided(a, b):
                    self.report.undecided += 1
                else:
                    self.report.inputs_compared += 1
                    if a.value != b.value:
                        self._keep(JudgeDisagreement(predicate="pre", input=inp, left=bool(a.value),
                                                right=bool(b.value), left_reason=a.reason,
                                                right_reason=b.reason))
                if self._gate(a, b):
                    valid.append((inp, a, b))
            if valid and self.left_time() > 0:
                self._post(valid)
            if self._all_found():
                return
        self.report.exhausted = True

    def _post(self, valid: list[tuple[dict[str, Any], Word, Word]]) -> None:
        refs: list[Any] = ([None] * len(valid) if self.oracle is None
                           else self.oracle.reference([v[0] for v in valid]))
        pairs: list[Pair] = []
        for (inp, _, _), ref in zip(valid, refs, strict=True):
            for o in outputs_for(self.task, inp, ref, self.pool, self.rng, self.seed):
                pairs.append((inp, o))
        if not pairs:
            return
        rw = self.right.outputs(pairs)
        lw = self.left.outputs(pairs)
        for (inp, o), a, b in zip(pairs, lw, rw, strict=True):
            if not _decided(a, b):
                self.report.undecided += 1
                continue
            self.report.pairs_compared += 1
            if a.value != b.value:
                self._keep(JudgeDisagreement(predicate="post", input=inp, output=o,
                                        left=bool(a.value), right=bool(b.value),
                                        left_reason=a.reason, right_reason=b.reason))

    # ------------------------------------------------------------------ shrinking

    def _still(self, d: JudgeDisagreement, cands: list[tuple[dict[str, Any], dict[str, Any] | None]]
               ) -> list[tuple[dict[str, Any], dict[str, Any] | None, Word, Word]]:
        """The candidates on which the same disagreement holds, with both words."""
        ins = [i for i, _ in cands]
        if d.predicate == "pre":
            rw = self.right.inputs(ins)
            keep = [(c, w) for c, w in zip(cands, rw, strict=True) if w.value is d.right]
            if not keep:
                return []
            lw = self.left.inputs([c[0] for c, _ in keep])
            return [(i, o, a, b) for ((i, o), b), a in zip(keep, lw, strict=True)
                    if a.value is d.left]
        # post: the input must still pass the gate, then the pair keep both words
        rin = self.right.inputs(ins)
        lin = (self.left.inputs(ins) if self.gate == "both"
               else [Word(True)] * len(ins))
        gated = [c for c, a, b in zip(cands, lin, rin, strict=True) if self._gate(a, b)]
        if not gated:
            return []
        pairs = [(i, o) for i, o in gated if o is not None]
        rw = self.right.outputs(pairs)
        keep2 = [(p, w) for p, w in zip(pairs, rw, strict=True) if w.value is d.right]
        if not keep2:
            return []
        lw = self.left.outputs([p for p, _ in keep2])
        return [(p[0], p[1], a, b) for (p, b), a in zip(keep2, lw, strict=True)
                if a.value is d.left]

    def _key(self, i: dict[str, Any], o: dict[str, Any] | None) -> tuple[Any, ...]:
        ki = size_key(i, [p.name for p in self.task.inputs])
        ko = size_key(o, [p.name for p in self.task.outputs]) if o else (0, 0, "")
        return (ki[0] + ko[0], ki[1] + ko[1], ki[2], ko[2])

    def shrink(self, d: JudgeDisagreement) -> JudgeDisagreement:
        cur_i, cur_o = d.input, d.output
        d = d.model_copy(update={"found": {"input": d.input, "output": d.output}})
        steps = 0
        while self.left_time() > 0:
            cur_key = self._key(cur_i, cur_o)
            cands: list[tuple[dict[str, Any], dict[str, Any] | None]] = list(
                paired(self.task, cur_i, cur_o))
            for i2 in dict_candidates(cur_i, self.task.inputs):
                cands.append((i2, cur_o))
                if len(cands) >= SHRINK_BATCH // 2:
                    break
            if d.predicate == "post" and self.oracle is not None and d.right:
                refs = self.oracle.reference([i for i, _ in cands])
                cands += [(i, r) for (i, _), r in zip(list(cands), refs, strict=True)
                          if isinstance(r, dict)]
            if cur_o is not None:
                for o2 in dict_candidates(cur_o, self.task.outputs):
                    cands.append((cur_i, o2))
                    if len(cands) >= SHRINK_BATCH:
                        break
            seen: set[tuple[Any, ...]] = set()
            smaller = []
            for i, o in cands:
                k = self._key(i, o)
                if k < cur_key and k not in seen and possible(self.task, i, o):
                    seen.add(k)
                    smaller.append((i, o))
            if not smaller:
                break
            held = [h for h in self._still(d, smaller) if self._case_key(
                d.bucket, h[0], h[1] if d.predicate == "post" else None) not in self.existing]
            if not held:
                break
            i, o, a, b = min(held, key=lambda t: self._key(t[0], t[1]))
            cur_i, cur_o = i, o
            d = d.model_copy(update={"input": i, "output": o, "left_reason": a.reason,
                                     "right_reason": b.reason})
            steps += 1
        return d.model_copy(update={"shrink_steps": steps})

    def run(self) -> SearchReport:
        self.search()
        out: list[JudgeDisagreement] = []
        seen: set[tuple[Any, ...]] = set()
        for key in sorted(self.found, key=str):
            for d in self.found[key]:
                s = self.shrink(d) if self.left_time() > 0 else d
                k = (s.predicate, s.left, s.right, params_key(s.input, self.task.inputs),
                     params_key(s.output, self.task.outputs) if s.output else "")
                if k in seen:
                    continue
                seen.add(k)
                ex = self.existing.get(self._case_key(s.bucket, s.input, s.output))
                out.append(s.model_copy(update={"existing": ex}) if ex else s)
        self.report.disagreements = out
        self.report.seconds = time.monotonic() - self.start
        return self.report


def compare(task: Task, left: Judge, right: Judge, *, seed: int = 0, budget: float = 10.0,
            gate: Literal["right", "both"] = "right", per_bucket: int = 1) -> SearchReport:
    """Search, then shrink, disagreements of ``left`` (a spec) with ``right`` (an oracle or a
    second spec) within ``budget`` seconds; half the budget at most goes to search once
    something is found. ``gate``: post is compared on inputs the right judge accepts
    (``right``: explore against an oracle) or both accept (``both``: two specs)."""
    return _Search(task, left, right, seed, budget, gate, per_bucket).run()


def shrink(task: Task, left: Judge, right: Judge, found: JudgeDisagreement, *, deadline: float,
           gate: Literal["right", "both"] = "right", seed: int = 0) -> JudgeDisagreement:
    """``found`` (a disagreement from anywhere: a solver's model, a user's case) shrunk as a
    sampled one is, until ``deadline`` (``time.monotonic()``): each step keeps the same
    predicate and both words, on an input the gate still accepts. The result names the task's
    equal case in ``existing`` when it is one (``score`` already shows it failing)."""
    s = _Search(task, left, right, seed, max(0.0, deadline - time.monotonic()), gate, 1)
    s.deadline = deadline
    d = s.shrink(found) if s.left_time() > 0 else found.model_copy(update={
        "found": {"input": found.input, "output": found.output}})
    ex = s.existing.get(s._case_key(d.bucket, d.input, d.output))
    return d.model_copy(update={"existing": ex}) if ex else d


def as_cases(task: Task, found: Sequence[JudgeDisagreement], seed: int) -> list[Any]:
    """New task cases (origin ``explored``) from the disagreements that are not cases yet."""
    from adequacy.model.task import Case
    from adequacy.model.values import content_hash
    valid_in = {params_key(c.input, task.inputs): c.bucket != Bucket.pre_sound
                for c in task.all_cases() if c.bucket != Bucket.post_sound}
    out = []
    for d in found:
        if d.existing:
            continue
        b = d.bucket
        rec = valid_in.get(params_key(d.input, task.inputs))
        if rec is not None and rec != (b != Bucket.pre_sound):
            continue  # the task records the input the other way: for the audit, not for --add
        h = content_hash(b.value, params_key(d.input, task.inputs),
                         params_key(d.output, task.outputs) if d.output else "")
        out.append(Case(id=f"x{seed}-{h[:10]}", bucket=b, input=d.input,
                        output=d.output if b.predicate == "post" else None,
                        origin="explored", visible=False))
    return out
