"""Candidate clauses as spec files: each language's backend writes them (``render_clauses``)."""

from __future__ import annotations

from collections.abc import Sequence

from adequacy import plugins
from adequacy.tasks import Task

from .candidates import Clause


def renderable(task: Task, clauses: Sequence[Clause]) -> list[Clause]:
    """The clauses the task's language can state for it (none when its backend renders none)."""
    return plugins.registry().owner(task.language).renderable_clauses(task, clauses)


def spec_file(task: Task, clauses: Sequence[Clause]) -> str:
    """A whole spec file stating ``clauses``; ``ExtractionError`` when the language's backend
    writes no template specs."""
    return plugins.registry().owner(task.language).render_clauses(task, clauses)


def clause_text(task: Task, clause: Clause) -> str:
    return plugins.registry().owner(task.language).clause_text(clause)


__all__ = ["clause_text", "renderable", "spec_file"]
