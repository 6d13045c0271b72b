"""The skeleton a Python task's ``task.toml`` implies (``adequacy task new``).

The skeleton is the file a spec completes: the task's function (its signature and docstring,
no body: the spec does not implement it) and the two predicates, ``pre`` over the inputs and
``post`` over the inputs and the outputs, each returning ``True`` until written.
"""

from __future__ import annotations

import keyword
import textwrap
from pathlib import Path
from typing import Any

from adequacy.plugin import Task, TaskError, Type
from adequacy.plugin import read_signature as plugin_read_signature

from .pytypes import annotation, problem


def read_signature(task_dir: Path) -> tuple[dict[str, Any], list[tuple[str, Type]],
                                             list[tuple[str, Type]]]:
    """task.toml's table and typed signature before a skeleton exists (checked as
    ``load_task`` checks them, with file and line), then what Python cannot take."""
    head, inputs, outputs = plugin_read_signature(task_dir)
    where = str(task_dir / "task.toml")
    if head.get("language") != "python":
        raise TaskError(f"task new writes skeleton.py for python tasks; this task's language "
                        f"is {head.get('language')!r}", file=where, field="language")
    for part, params in (("input", inputs), ("output", outputs)):
        for p in params:
            fld = f"signature.{part}.{p.name}"
            if not p.name.isidentifier() or keyword.iskeyword(p.name):
                raise TaskError(f"{p.name!r} is not a Python parameter name", file=where,
                                field=fld)
            why = problem(p.type)
            if why:
                raise TaskError(why, file=where, field=fld)
    return head, [(p.name, p.type) for p in inputs], [(p.name, p.type) for p in outputs]


def function_of(head: dict[str, Any]) -> str:
    table = head.get("python") or {}
    name = table.get("function", "solve") if isinstance(table, dict) else "solve"
    return name if isinstance(name, str) and name.isidentifier() else "solve"


def generate(function: str, inputs: list[tuple[str, Type]], outputs: list[tuple[str, Type]],
             doc: str) -> str:
    params = ", ".join(f"{n}: {annotation(t)}" for n, t in inputs)
    if len(outputs) == 1:
        ret = annotation(outputs[0][1])
    else:
        ret = "tuple[" + ", ".join(annotation(t) for _, t in outputs) + "]"
    post_params = ", ".join([*(f"{n}: {annotation(t)}" for n, t in inputs),
                             *(f"{n}: {annotation(t)}" for n, t in outputs)])
    body = textwrap.indent(doc.strip().replace('"""', "'''") or "The task's function.", "    ")
    return (f"from __future__ import annotations\n\n\n"
            f"def {function}({params}) -> {ret}:\n"
            f'    """\n{body}\n    """\n\n\n'
            f"def pre({params}) -> bool:\n"
            f'    """Which inputs {function} accepts."""\n'
            f"    return True\n\n\n"
            f"def post({post_params}) -> bool:\n"
            f'    """Which outputs are correct for such an input."""\n'
            f"    return True\n")


def skeleton_for_folder(task_dir: Path) -> str:
    head, inputs, outputs = read_signature(task_dir)
    statement = task_dir / "statement.md"
    doc = statement.read_text(encoding="utf-8") if statement.is_file() else \
        str(head.get("title", ""))
    return generate(function_of(head), inputs, outputs, doc)


def skeleton_for(task: Task) -> str:
    return generate(str(task.settings.get("function", "solve")),
                    [(p.name, p.type) for p in task.inputs],
                    [(p.name, p.type) for p in task.outputs], task.statement or task.title)
