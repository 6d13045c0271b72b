"""The template writer (the study's Daikon row): schema clauses true on the visible valid cases.

``candidates.daikon_clauses`` filters with a Python evaluation of each clause; before a spec is
returned, the real default engine scores it on the same visible valid cases, and when it
rejects one (an evaluation the engine sees differently) each clause is checked alone and only
those the engine accepts are kept. So the writer's promise, "every kept clause holds on every
visible valid case", is the engine's judgement, not ours.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from adequacy.extensions.registry import registry
from adequacy.extensions.writers import WrittenSpec, visible_cases
from adequacy.model.task import Task
from adequacy.model.verdicts import Bucket
from adequacy.scoring.runner import score_spec

from .candidates import Clause, daikon_clauses


def _accepts_valid(task: Task, clauses: Sequence[Clause]) -> bool:
    valid = [c for c in visible_cases(task)
             if c.bucket.value in ("pre_complete", "post_complete")]
    if not valid:
        return True
    text = registry().owner(task.language).render_clauses(task, clauses)
    rep = score_spec(task, text, cases=valid,
                     empty_by_design=[Bucket.pre_sound, Bucket.post_sound])
    return rep.status == "scored" and rep.passed_all


def template_clauses(task: Task) -> tuple[list[Clause], list[str]]:
    """The kept clauses and notes on what the engine check removed."""
    clauses = registry().owner(task.language).renderable_clauses(task, daikon_clauses(task))
    notes = [f"{len(clauses)} candidate clause(s) true on the visible valid cases"]
    if clauses and not _accepts_valid(task, clauses):
        kept = [c for c in clauses if _accepts_valid(task, [c])]
        notes.append(f"engine check dropped {len(clauses) - len(kept)} clause(s)")
        clauses = kept
    return clauses, notes


class TemplateWriter:
    """Deterministic: one spec per task whatever ``samples`` says."""

    name = "templates"

    def write(self, task: Task, samples: int = 1) -> list[WrittenSpec]:
        start = time.monotonic()
        try:
            clauses, notes = template_clauses(task)
            text = registry().owner(task.language).render_clauses(task, clauses)
        except Exception as e:  # noqa: BLE001 - one odd task must not stop a batch
            return [WrittenSpec(task_id=task.id, writer=self.name, error=f"{type(e).__name__}: "
                                f"{e}", seconds=time.monotonic() - start)]
        return [WrittenSpec(task_id=task.id, writer=self.name, text=text, notes=notes,
                            seconds=time.monotonic() - start)]
