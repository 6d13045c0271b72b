"""``adequacy task validate`` and ``task new``: check task folders; make a task to fill in, or
write the skeleton a task's ``task.toml`` implies.

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
    task: Annotated[Path, typer.Argument(help="Task folder (made when it does not exist; its "
                                         "name is the task's id).")],
    lang: Annotated[str | None, typer.Option("--lang", help="The task's language (an "
                    "installed backend's; default: the only one installed).")] = None,
    inputs: Annotated[list[str] | None, typer.Option("--input", metavar="NAME=TYPE", help=
                      "An argument, in order (repeat): --input a=i64 --input xs=seq<i64>.")]
    = None,
    outputs: Annotated[list[str] | None, typer.Option("--output", metavar="NAME=TYPE", help=
                       "An output field (repeat); a return value is result=TYPE.")] = None,
    title: Annotated[str, typer.Option(help="The task's title (default: from its name).")]
    = "",
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing skeleton.")]
    = False,
) -> None:
    """Make a task to fill in, or write the skeleton an existing task.toml implies.

    A folder without task.toml: writes task.toml (the signature from --input/--output, or a
    commented template to fill in when none is given), statement.md, the four empty
    tests/*.jsonl and the language's skeleton. A folder with task.toml: writes the skeleton
    (skeleton.rs, Solution.java) from it. Exit 2 on any problem."""
    from adequacy.extensions import registry
    from adequacy.taskdirs.scaffold import example_case, new_task, parse_params

    if not (task / "task.toml").is_file():
        installed = list(dict.fromkeys(b.language for b in registry.registry().backends.values()))
        try:
            ins = parse_params(inputs or [], "--input")
            outs = parse_params(outputs or [], "--output")
            if lang is None and len(installed) != 1 and (ins or outs):
                raise AdequacyError(f"--lang: which language? installed: "
                                    f"{', '.join(installed)}")
            language = lang or (installed[0] if installed else "")
            if language not in installed:
                raise AdequacyError(f"--lang {language!r}: no installed backend scores it "
                                    f"(installed: {', '.join(installed) or 'none'})")
            scaffold = new_task(task, language, installed, ins, outs, title)
        except AdequacyError as e:
            raise _fail(str(e)) from None
        except OSError as e:
            raise _fail(f"{e.filename or task}: {e.strerror or e}") from None
        typer.echo(f"wrote {', '.join(str(task / w) for w in scaffold.written)}")
        if scaffold.template:
            typer.echo(f"next: fill in [signature.input] and [signature.output] in "
                       f"{task / 'task.toml'}, then run `adequacy task new {task}` again "
                       "for the skeleton")
            return
        if scaffold.skeleton_note:
            typer.echo(f"note: {scaffold.skeleton_note}")
        typer.echo(f"next: say what the function must do in {task / 'statement.md'}; add "
                   f"cases to {task / 'tests'}/*.jsonl, one JSON object a line, e.g. "
                   f"{example_case(ins, outs)} (docs/tasks.md); then `adequacy task validate "
                   f"{task}`")
        return
    if inputs or outputs or lang:
        raise _fail(f"{task / 'task.toml'} exists: edit its signature there (--lang, --input "
                    "and --output make a new task)")
    from adequacy.taskdirs.load import _read_header

    errors: list[Located] = []
    try:
        head = _read_header(task, errors)
    except (OSError, UnicodeDecodeError) as e:
        raise _fail(f"{task / 'task.toml'}: cannot read: {e}") from None
    if head is None:
        raise _fail(str(errors[0]))
    task_language = head.get("language")
    sig = head.get("signature") or {}
    if isinstance(sig, dict) and not (sig.get("input") or sig.get("output")):
        raise _fail(f"{task / 'task.toml'}: [signature.input] and [signature.output] are "
                    "empty: fill them in first (docs/tasks.md)")
    made = None
    try:
        made = registry.registry().owner(str(task_language)).new_skeleton(task)
    except BackendError:
        pass
    except AdequacyError as e:
        raise _fail(str(e)) from None
    if made is None:
        raise _fail(f"{task / 'task.toml'}: no backend writes skeletons for language "
                    f"{task_language!r}")
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
