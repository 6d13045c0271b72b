"""``adequacy task validate`` and ``task new``: check task folders; write the skeleton a task's
``task.toml`` implies.

A new Verus task has a schema but no ``skeleton.rs``, and writing one by hand invites the
struct drift the front end then rejects; the backend generates it from the schema instead.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.text import Text

from adequacy.cli.common import err, fail, out, say_error
from adequacy.errors import AdequacyError, BackendError, Located, TaskError

if TYPE_CHECKING:
    from adequacy.model.task import Task

task_app = typer.Typer(no_args_is_help=True, rich_markup_mode=None,
                       context_settings={"help_option_names": ["-h", "--help"]},
                       help="Work with task folders.")


def _fail(msg: str) -> typer.Exit:
    typer.echo(f"error: {msg}", err=True)
    return typer.Exit(2)


def _backend_task_errors(task: Task) -> list[str]:
    """What the language's backend finds wrong with the task itself: the checks ``score``
    runs on it before any spec (JML: its Solution.java reads, the ``[jml]`` table names a
    method it has), so ``validate`` cannot say ok where ``score`` exits 2."""
    from adequacy.extensions import registry
    try:
        backend = registry.registry().owner(task.language)
    except AdequacyError as e:
        # the loader accepts such a task (its files are None), but nothing could score it
        toml = task.root / "task.toml"
        return [str(TaskError(str(e), file=str(toml), line=_language_line(toml),
                              field="language"))]
    try:
        backend.check_task(task)
    except AdequacyError as e:
        return [str(e)]
    return []


def _language_line(toml: Path) -> int | None:
    try:
        lines = toml.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    return next((i for i, line in enumerate(lines, 1)
                 if line.split("=", 1)[0].strip() == "language"), None)


def task_validate(
    paths: Annotated[list[Path], typer.Argument(help="Task folders (or folders of tasks).")],
) -> None:
    """Check task folders; print every problem with file, line and field. Exit 2 on any."""
    from adequacy.taskdirs.discovery import discover_tasks
    from adequacy.taskdirs.load import check_task
    try:
        folders = discover_tasks(paths)
    except AdequacyError as why:
        raise fail(str(why)) from None
    bad = 0
    for f in folders:
        task, errors = check_task(f)
        if errors:
            bad += 1
            for e in errors:
                err.print(Text(str(e), style="red"), soft_wrap=True, highlight=False)
        else:
            assert task is not None
            own = _backend_task_errors(task)
            if own:
                bad += 1
                for msg in own:
                    say_error(msg)
                continue
            n = {b.value: len(c) for b, c in task.cases.items()}
            if not sum(n.values()):
                # nothing to score: every metric would be undefined and `score` exits 1
                bad += 1
                say_error(f"{f}: no cases (tests/*.jsonl are missing or empty): there is "
                           "nothing to score a spec against")
                continue
            empty = [k for k, v in n.items() if not v
                     and not (task.every_input_valid and k == "pre_sound")]
            if empty:
                err.print(Text("warning: ", style="yellow") + Text(
                    f"{f}: no {', '.join(empty)} cases: those metrics are undefined and "
                    "`score` exits 1 (`adequacy cases generate` and `adequacy mutate` fill the "
                    "sound buckets)"),
                    soft_wrap=True, highlight=False)
            out.print(f"ok  {f}  ({task.id}: " + ", ".join(f"{k} {v}" for k, v in n.items())
                      + ")", highlight=False)
    out.print(f"{len(folders) - bad} of {len(folders)} tasks valid", highlight=False)
    if bad:
        raise typer.Exit(2)


def task_new(
    task: Annotated[Path, typer.Argument(help="Task folder holding task.toml.")],
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing skeleton.")]
    = False,
) -> None:
    """Write the task's skeleton file (the one its backend names) from task.toml; exit 2 on any
    problem."""
    from adequacy.extensions import registry
    from adequacy.taskdirs.load import _read_header

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
        made = registry.registry().owner(str(language)).new_skeleton(task)
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


def register(app: typer.Typer) -> None:
    task_app.command("validate")(task_validate)
    task_app.command("new")(task_new)
