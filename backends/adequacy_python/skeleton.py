"""The skeleton a Python task's ``task.toml`` implies (``adequacy task new``).

The skeleton is the file a spec completes: the task's function (its signature and docstring,
no body: the spec does not implement it) and the two predicates, ``pre`` over the inputs and
``post`` over the inputs and the outputs, each returning ``True`` until written.
"""

from __future__ import annotations

import keyword
import textwrap
import tomllib
from pathlib import Path
from typing import Any

from adequacy.plugin import Task, TaskError, Type, parse_type

from .pytypes import annotation, problem


def _fail(task_dir: Path, msg: str, fld: str | None = None) -> TaskError:
    return TaskError(msg, file=str(task_dir / "task.toml"), field=fld)


def read_signature(task_dir: Path) -> tuple[dict[str, Any], list[tuple[str, Type]],
                                             list[tuple[str, Type]]]:
    """task.toml's header and typed signature, before a skeleton exists."""
    path = task_dir / "task.toml"
    if not path.is_file():
        raise _fail(task_dir, "missing task.toml")
    try:
        head = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise _fail(task_dir, f"TOML: {e}") from None
    if head.get("language") != "python":
        raise _fail(task_dir, f"task new writes skeleton.py for python tasks; this task's "
                    f"language is {head.get('language')!r}", "language")
    sig = head.get("signature")
    if not isinstance(sig, dict):
        raise _fail(task_dir, "missing [signature] table with input and output tables",
                    "signature")
    parts: dict[str, list[tuple[str, Type]]] = {}
    for part in ("input", "output"):
        table = sig.get(part, {})
        if not isinstance(table, dict):
            raise _fail(task_dir, "must be a table of name = \"type\"", f"signature.{part}")
        parts[part] = []
        for name, text in table.items():
            where = f"signature.{part}.{name}"
            if not isinstance(text, str):
                raise _fail(task_dir, f"type must be a string, got {text!r}", where)
            if not name.isidentifier() or keyword.iskeyword(name):
                raise _fail(task_dir, f"{name!r} is not a Python parameter name", where)
            try:
                t = parse_type(text, head.get("structs") or {})
            except Exception as e:  # noqa: BLE001 - the type language's own message
                raise _fail(task_dir, str(e), where) from None
            why = problem(t)
            if why:
                raise _fail(task_dir, why, where)
            parts[part].append((name, t))
    if not parts["output"]:
        raise _fail(task_dir, "a task needs at least one output", "signature.output")
    return head, parts["input"], parts["output"]


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
