"""The routing table and the filters: judged cases into buckets (Verus-SpecGym, section 3.1).

| case | judge says | bucket |
|---|---|---|
| official test input | (validator accepts) | ``pre_complete`` |
| official test input + jury answer | (checker accepts) | ``post_complete`` |
| hack input | validator rejects | ``pre_sound`` |
| hack input | validator accepts | ``pre_complete`` |
| hack input + hacked output | checker accepts | ``post_complete`` |
| hack input + hacked output | checker rejects | ``post_sound`` |

Then, per bucket: duplicates dropped (same canonical value, official cases first), at most
``max_per_bucket`` kept by a seeded sample, and a task needs ``min_per_bucket`` cases in each
bucket (``pre_sound`` exempt when the task declares every input valid).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from adequacy.model.task import Case, Param
from adequacy.model.values import encode
from adequacy.model.verdicts import Bucket


@dataclass
class Drop:
    """One case (or one half of a case) not kept, and why."""

    case: str
    stage: str
    """``input``, ``output``, ``duplicate``, ``judge``, ``sample``..."""
    reason: str
    """The reason's kind, counted in the report (``syntactically invalid hack``)."""
    detail: str


@dataclass
class Routed:
    """Cases per bucket in routing order, and everything dropped on the way."""

    cases: dict[Bucket, list[Case]] = field(default_factory=lambda: {b: [] for b in Bucket})
    drops: list[Drop] = field(default_factory=list)

    def add(self, bucket: Bucket, case: Case) -> None:
        self.cases[bucket].append(case)

    def drop(self, case: str, stage: str, reason: str, detail: str) -> None:
        self.drops.append(Drop(case, stage, reason, detail))

    def reasons(self) -> Counter[str]:
        return Counter(d.reason for d in self.drops)


def _key(case: Case, inputs: list[Param], outputs: list[Param]) -> str:
    parts = [encode(case.input[p.name], p.type) for p in inputs]
    if case.output is not None:
        parts += [encode(case.output[p.name], p.type) for p in outputs]
    return "\x00".join(parts)


def deduplicate(routed: Routed, inputs: list[Param], outputs: list[Param]) -> None:
    """Keep the first case of each value in each bucket (official tests come first)."""
    for b, cases in routed.cases.items():
        seen: dict[str, str] = {}
        kept = []
        for c in cases:
            k = _key(c, inputs, outputs)
            if k in seen:
                routed.drop(c.id, "duplicate", "duplicate case",
                            f"{b.value}: {c.id} repeats {seen[k]}")
                continue
            seen[k] = c.id
            kept.append(c)
        routed.cases[b] = kept


def sample(routed: Routed, limit: int, seed: int) -> None:
    """At most ``limit`` cases per bucket, chosen by a seeded draw, in their original order."""
    for b, cases in routed.cases.items():
        if len(cases) <= limit:
            continue
        rng = random.Random(f"{seed}:{b.value}")
        keep = set(rng.sample(range(len(cases)), limit))
        for i, c in enumerate(cases):
            if i not in keep:
                routed.drop(c.id, "sample", "sampled out",
                            f"{b.value}: more than {limit} cases")
        routed.cases[b] = [c for i, c in enumerate(cases) if i in keep]


def too_few(routed: Routed, minimum: int, every_input_valid: bool) -> str | None:
    """Why the task has too few cases (None when each bucket holds ``minimum``)."""
    short = [f"{b.value} {len(cs)}" for b, cs in routed.cases.items()
             if len(cs) < minimum and not (b is Bucket.pre_sound and every_input_valid)]
    if short:
        return f"fewer than {minimum} cases in: {', '.join(short)}"
    return None


def case(bucket: Bucket, cid: str, inp: dict[str, Any], out: dict[str, Any] | None,
         origin: str, visible: bool) -> Case:
    return Case(id=cid, bucket=bucket, input=inp, output=out if bucket.predicate == "post"
                else None, origin=origin, visible=visible)
