"""The Houdini writer (JML): template clauses, minus the ensures clauses the prover cannot prove.

Houdini (Flanagan and Leino, 2001) starts from a set of candidate annotations and removes those
the verifier cannot establish until the rest verifies. Our candidates are the template writer's
(true on the visible valid cases); the verifier is KeY, reached through the ``verify``
capability. Preconditions are assumptions about callers, which a proof of the body cannot
refute, so they stay; each ensures clause is proved alone under them, and since contracts are
conjunctive, the conjunction of the proved ones is proved too (checked once at the end).
KeY is incomplete: a clause of a method with loops and no loop invariant is usually dropped
even when true, which is exactly the study's Houdini behaviour.
"""

from __future__ import annotations

import time

from adequacy.backend import Limits
from adequacy.tasks import Task

from .candidates import Clause
from .render import spec_file
from .templates import template_clauses
from .verifier import prove, prover_for, why_no_prover
from .writer import WrittenSpec


class HoudiniWriter:
    name = "houdini"

    def __init__(self, proof_seconds: float = 30.0) -> None:
        self.limits = Limits(spec_seconds=proof_seconds)

    def write(self, task: Task, samples: int = 1) -> list[WrittenSpec]:
        start = time.monotonic()

        def done(text: str | None, notes: list[str], error: str | None = None
                 ) -> list[WrittenSpec]:
            return [WrittenSpec(task_id=task.id, writer=self.name, text=text, error=error,
                                notes=notes, seconds=time.monotonic() - start)]

        if task.language != "jml":
            return done(None, [], "houdini needs a prover of specs against a method body; "
                        f"{why_no_prover(task.language)}" if prover_for(task.language) is None
                        else "houdini is implemented for JML tasks only")
        if prover_for("jml") is None:
            return done(None, [], f"houdini: {why_no_prover('jml')}")
        try:
            clauses, notes = template_clauses(task)
            pre = [c for c in clauses if c.where == "pre"]
            kept: list[Clause] = []
            for c in (c for c in clauses if c.where == "post"):
                proof = prove(task, spec_file(task, [*pre, c]), self.limits)
                if proof.result == "verified":
                    kept.append(c)
                else:
                    notes.append(f"dropped ({proof.result}): {_short(task, c)}")
            final = spec_file(task, [*pre, *kept])
            if kept:
                last = prove(task, final, self.limits)
                notes.append(f"conjunction of {len(kept)} ensures: {last.result}")
            return done(final, notes)
        except Exception as e:  # noqa: BLE001 - one odd task must not stop a batch
            return done(None, [], f"{type(e).__name__}: {e}")


def _short(task: Task, c: Clause) -> str:
    from .render import Jml
    return Jml.atom(c.atom)
