"""``adequacy task new``: write the skeleton a task's ``task.toml`` implies.

A new Verus task has a schema but no ``skeleton.rs``, and writing one by hand invites the
struct drift the front end then rejects; the backend generates it from the schema instead.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from adequacy import plugins
from adequacy.errors import AdequacyError, BackendError, Located


def _fail(msg: str) -> typer.Exit:
    typer.echo(f"error: {msg}", err=True)
    return typer.Exit(2)


def task_new(
    task: Annotated[Path, typer.Argument(help="Task folder holding task.toml.")],
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing skeleton.")]
    = False,
) -> None:
    """Write the task's skeleton file (the one its backend names) from task.toml; exit 2 on any
    problem."""
    from adequacy.tasks import _read_header

    if not (task / "task.toml").is_file():
        raise _fail(f"{task}: not a task folder (no task.toml)")
    errors: list[Located] = []
    try:
        head = _read_header(task, errors)
    except (OSError, UnicodeDecodeError) as e:
        raise _fail(f"{task / 'task.toml'}: cannot read: {e}") from None
    if head is None:
        raise _fail(str(errors[0]))
    language = head.get("language")
    made = None
    try:
        made = plugins.registry().owner(str(language)).new_skeleton(task)
    except BackendError:
        pass
    except AdequacyError as e:
        raise _fail(str(e)) from None
    if made is None:
        raise _fail(f"{task / 'task.toml'}: no backend writes skeletons for language "
                    f"{language!r}")
    name, text = made
    dest = task / name
    if dest.exists() and dest.read_bytes().strip() and not force:
        raise _fail(f"{dest} exists; pass --force to overwrite it")
    dest.write_text(text, encoding="utf-8")
    (task / "tests").mkdir(exist_ok=True)
    typer.echo(f"wrote {dest}")
