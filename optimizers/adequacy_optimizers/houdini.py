"""The Houdini writer: template clauses, minus the postconditions the prover cannot prove.

Houdini (Flanagan and Leino, 2001) starts from a set of candidate annotations and removes those
the verifier cannot establish until the rest verifies. Our candidates are the template writer's
(true on the visible valid cases); the verifier is the language's most faithful available
prover (the backend's ``verifiers``: KeY for JML, the ``verus`` binary for Verus). Preconditions are assumptions about callers, which a proof of the body cannot
refute, so they stay; each ensures clause is proved alone under them, and since contracts are
conjunctive, the conjunction of the proved ones is proved too (checked once at the end).
KeY is incomplete: a clause of a method with loops and no loop invariant is usually dropped
even when true, which is exactly the study's Houdini behaviour.
"""

from __future__ import annotations

import time

from adequacy.extensions.backend import Limits
from adequacy.extensions.registry import registry
from adequacy.extensions.writers import WrittenSpec
from adequacy.model.task import Task

from .candidates import Clause
from .templates import template_clauses
from .verifier import prove, prover_for, why_no_prover


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

        if prover_for(task.language) is None:
            return done(None, [], "houdini needs a prover of specs against a method body; "
                        f"{why_no_prover(task.language)}")
        try:
            backend = registry().owner(task.language)
            clauses, notes = template_clauses(task)
            pre = [c for c in clauses if c.where == "pre"]
            kept: list[Clause] = []
            for c in (c for c in clauses if c.where == "post"):
                proof = prove(task, backend.render_clauses(task, [*pre, c]), self.limits)
                if proof.result == "verified":
                    kept.append(c)
                else:
                    notes.append(f"dropped ({proof.result}): {backend.clause_text(c)}")
            final = backend.render_clauses(task, [*pre, *kept])
            if kept:
                last = prove(task, final, self.limits)
                notes.append(f"conjunction of {len(kept)} postconditions: {last.result}")
            return done(final, notes)
        except Exception as e:  # noqa: BLE001 - one odd task must not stop a batch
            return done(None, [], f"{type(e).__name__}: {e}")

