"""Worked examples for few-shot families: gold specs of training tasks, never the task at hand.

Golds and bundled example tasks come from the language's backend (``Backend.gold_spec``,
``Backend.example_tasks``: a task's own ``specs/gold.*`` or a dataset's gold folder). A demonstration is the
program's inputs for that task (statement, skeleton or class, visible cases) with the gold as
the answer.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import dspy

from adequacy.errors import BackendError, TaskError
from adequacy.extensions import registry
from adequacy.extensions.backend import Backend
from adequacy.model.task import Task
from adequacy.taskdirs.load import load_task

from .programs import task_inputs


def _owner(language: str) -> Backend | None:
    try:
        return registry.registry().owner(language)
    except BackendError:
        return None


def gold_text(task: Task) -> str | None:
    b = _owner(task.language)
    return b.gold_spec(task) if b is not None else None


def bundled_tasks(language: str) -> list[Task]:
    b = _owner(language)
    out: list[Task] = []
    for d in b.example_tasks() if b is not None else []:
        try:
            out.append(load_task(d))
        except TaskError:
            continue
    return out


def demo(task: Task, gold: str) -> dspy.Example:
    b = _owner(task.language)
    fence = b.writer_texts().fence if b is not None else ""
    return dspy.Example(task_id=task.id, **task_inputs(task),
                        spec=f"```{fence}\n{gold.strip()}\n```").with_inputs(
        *task_inputs(task).keys())


def demos_from(tasks: Iterable[Task], exclude: Sequence[str] = (), k: int | None = None
               ) -> list[dspy.Example]:
    """Demonstrations from ``tasks`` that have a gold, leaving out the ids in ``exclude``."""
    out: list[dspy.Example] = []
    for t in tasks:
        if t.id in exclude:
            continue
        g = gold_text(t)
        if g is not None:
            out.append(demo(t, g))
        if k is not None and len(out) >= k:
            break
    return out


def default_pool(language: str, extra: Iterable[Task] = ()) -> list[Task]:
    """Bundled examples of the language, then any extra (training) tasks of the language."""
    return bundled_tasks(language) + [t for t in extra if t.language == language]
