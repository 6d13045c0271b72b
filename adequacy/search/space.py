"""Where counterexample search looks: candidate inputs and outputs, and which are possible.

Inputs are the task's own, one-step mutations of them (the mutators' typed operators), fresh
small values of the input types and near-valid invalid inputs (the mutators' boundary
candidates), never the same one twice. Outputs for a valid input are the reference's output,
mutants of it or of a recorded output, a fresh value and a recorded output of another case.
``possible`` keeps out outputs no method can produce (an input array's post-state of another
length), and ``paired`` shrinks an input array together with its post-state.
"""

from __future__ import annotations

import random
from typing import Any

from adequacy.model.random_values import random_value
from adequacy.model.task import Task
from adequacy.model.types import SeqType
from adequacy_mutators import (
    invalid_candidates,
    mutate_once,
    output_mutants,
    params_key,
    parse_constraints,
)
from adequacy_mutators._outputs import in_place_fixed

__all__ = ["Inputs", "outputs_for", "paired", "possible", "rng_for"]

def rng_for(seed: int, *parts: str) -> random.Random:
    return random.Random("\x1f".join([str(seed), *parts]))


class Inputs:
    """Fresh and mutated inputs, never the same one twice."""

    def __init__(self, task: Task, seed: int) -> None:
        self.task = task
        self.rng = rng_for(seed, task.id, "inputs")
        self.seeds = [c.input for c in task.all_cases()]
        self.seen: set[str] = set()
        self.cons = None
        self.queue: list[dict[str, Any]] = list(self.seeds)

    def _fresh(self) -> dict[str, Any]:
        size = self.rng.choice([0, 1, 2, 3, 3, 4, 5])
        return {p.name: random_value(p.type, self.rng, size) for p in self.task.inputs}

    def _mutant(self) -> dict[str, Any] | None:
        if not self.seeds:
            return None
        base = dict(self.rng.choice(self.seeds))
        p = self.rng.choice(self.task.inputs)
        got = mutate_once(base[p.name], p.type, self.rng)
        if got is None:
            return None
        base[p.name] = got[1]
        return base

    def batch(self, n: int) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        tries = 0
        while len(out) < n and tries < 20 * n:
            tries += 1
            if self.queue:
                cand: dict[str, Any] | None = self.queue.pop()
            else:
                r = self.rng.random()
                if r < 0.45:
                    cand = self._fresh()
                elif r < 0.9:
                    cand = self._mutant()
                else:
                    base = self.rng.choice(self.seeds) if self.seeds else self._fresh()
                    got = invalid_candidates(base, self.task.inputs, parse_constraints(
                        self.task.constraints, self.task.inputs), 2, self.rng.randrange(1 << 30))
                    self.queue += [g.input for g in got]
                    continue
            if cand is None:
                continue
            k = params_key(cand, self.task.inputs)
            if k in self.seen:
                continue
            self.seen.add(k)
            out.append(cand)
        return out


def possible(task: Task, inp: dict[str, Any], out: dict[str, Any] | None) -> bool:
    """Whether a method could produce ``out`` on ``inp`` at all: an output field that is an
    input ``array``'s post-state (same name) keeps the array's length and null-ness, whatever
    the output's own kind (a ``seq`` view of the array included). A spec that rightly says
    nothing about the length is not to be caught on an output no method can give."""
    if out is None:
        return True
    arrays = {p.name for p in task.inputs if isinstance(p.type, SeqType)
              and p.type.kind == "array"}
    return all(_same_shape(out.get(n), inp.get(n)) for n in arrays if n in out)


def outputs_for(task: Task, inp: dict[str, Any], ref: dict[str, Any] | str | None,
                 pool: list[dict[str, Any]], rng: random.Random, seed: int) -> list[dict[str, Any]]:
    """Outputs worth asking about for a valid input: the reference's, mutants, fresh values."""
    fixed = in_place_fixed(task.outputs, inp, task.inputs)
    outs: list[dict[str, Any]] = []
    base = ref if isinstance(ref, dict) else (rng.choice(pool) if pool else None)
    if isinstance(ref, dict):
        outs.append(ref)
    if base is not None:
        outs += [m.value for m in output_mutants(base, task.outputs, 2, seed,
                                                 salt=params_key(inp, task.inputs), inputs=inp,
                                                 input_params=task.inputs)]
    fresh = {p.name: random_value(p.type, rng, rng.choice([0, 1, 2, 3])) for p in task.outputs}
    if all(_same_shape(fresh.get(f), before) for f, before in fixed.items()):
        outs.append(fresh)
    if pool:
        outs.append(rng.choice(pool))
    seen: set[str] = set()
    uniq = []
    for o in outs:
        k = params_key(o, task.outputs)
        if k not in seen and possible(task, inp, o):
            seen.add(k)
            uniq.append(o)
    return uniq


def _same_shape(value: Any, before: Any) -> bool:
    if before is None or value is None:
        return value is None and before is None
    return isinstance(value, list) and isinstance(before, list) and len(value) == len(before)


def paired(task: Task, inp: dict[str, Any], out: dict[str, Any] | None
            ) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Shrink an input array and its post-state together (halves, one index dropped from
    both), which ``possible`` requires and one field at a time cannot reach."""
    if out is None:
        return []
    got: list[tuple[dict[str, Any], dict[str, Any]]] = []
    for p in task.inputs:
        a, b = inp.get(p.name), out.get(p.name)
        if not (isinstance(a, list) and isinstance(b, list) and len(a) == len(b) and a):
            continue
        n = len(a)
        cuts = [(0, n // 2), (n // 2, n)] if n > 1 else []
        pieces = [(a[x:y], b[x:y]) for x, y in cuts]
        pieces += [(a[:i] + a[i + 1:], b[:i] + b[i + 1:]) for i in range(min(n, 16))]
        for a2, b2 in pieces:
            got.append(({**inp, p.name: a2}, {**out, p.name: b2}))
    return got
