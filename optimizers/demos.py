"""Worked examples for few-shot families: gold specs of training tasks, never the task at hand.

Golds come from the bundled examples (``examples/<lang>/<task>/specs/gold.*``), from
``examples/verina-gold/<task id>.rs`` and ``examples/sgb-gold/<task id>.java`` for imported
VERINA and SpecGenBench tasks, or from a task's own ``specs/gold.*``. A demonstration is the
program's inputs for that task (statement, skeleton or class, visible cases) with the gold as
the answer.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

import dspy

from adequacy.errors import TaskError
from adequacy.tasks import Task, load_task

from .extract import SPEC_EXT
from .programs import task_inputs

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
GOLD_DIRS = {"verus": "verina-gold", "jml": "sgb-gold"}


def gold_text(task: Task, examples: Path = EXAMPLES) -> str | None:
    ext = SPEC_EXT.get(task.language, "txt")
    for p in (task.root / "specs" / f"gold.{ext}",
              examples / GOLD_DIRS.get(task.language, "-") / f"{task.id}.{ext}"):
        if p.is_file():
            return p.read_text(encoding="utf-8")
    return None


def bundled_tasks(language: str, examples: Path = EXAMPLES) -> list[Task]:
    folder = examples / language
    out: list[Task] = []
    if folder.is_dir():
        for d in sorted(folder.iterdir()):
            if (d / "task.toml").exists():
                try:
                    out.append(load_task(d))
                except TaskError:
                    continue
    return out


def demo(task: Task, gold: str) -> dspy.Example:
    fence = "rust" if task.language == "verus" else "java"
    return dspy.Example(task_id=task.id, **task_inputs(task),
                        spec=f"```{fence}\n{gold.strip()}\n```").with_inputs(
        *task_inputs(task).keys())


def demos_from(tasks: Iterable[Task], exclude: Sequence[str] = (), k: int | None = None,
               examples: Path = EXAMPLES) -> list[dspy.Example]:
    """Demonstrations from ``tasks`` that have a gold, leaving out the ids in ``exclude``."""
    out: list[dspy.Example] = []
    for t in tasks:
        if t.id in exclude:
            continue
        g = gold_text(t, examples)
        if g is not None:
            out.append(demo(t, g))
        if k is not None and len(out) >= k:
            break
    return out


def default_pool(language: str, extra: Iterable[Task] = ()) -> list[Task]:
    """Bundled examples of the language, then any extra (training) tasks of the language."""
    return bundled_tasks(language) + [t for t in extra if t.language == language]
