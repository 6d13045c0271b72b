"""``adequacy task from FILE --function NAME DEST``: a task from an annotated program.

The backend whose skeleton has the program's suffix (``.rs``, ``.java``) converts it
(``Backend.task_from_program``); this command then scores the program's own contract
(``specs/original.*``) on the cases it derived, so the user sees at once whether the contract
accepts what the program's tests say.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Annotated, Any

import typer

from adequacy.cli.common import fail, out


def task_from(
    program: Annotated[Path, typer.Argument(help="An annotated program (its functions carry "
                                            "their contracts; main holds tests).")],
    dest: Annotated[Path, typer.Argument(help="The task folder to write.")],
    function: Annotated[str, typer.Option("--function", "-f", help="The function that "
                                          "becomes the task.")],
    task_id: Annotated[str | None, typer.Option("--id", help="The task's id (default: "
                                                "FILE's stem and the function).")] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace DEST.")] = False,
    extra: Annotated[list[Path] | None, typer.Option("--with", help="Another file of the "
                     "program that the function uses (its classes are added).")] = None,
) -> None:
    """Write a task from an annotated program: the function's signature, its contract as
    specs/original.*, cases from the program's tests; then score that contract on them."""
    from adequacy.errors import AdequacyError
    from adequacy.extensions import registry
    from adequacy.scoring.options import ScoreOptions
    from adequacy.scoring.runner import score_spec
    from adequacy.taskdirs.load import load_task

    if not program.is_file():
        raise fail(f"{program}: no such file")
    suffix = program.suffix
    found = [b for b in registry.registry().backends.values()
             if Path(b.task_files.skeleton).suffix == suffix]
    if not found:
        raise fail(f"{program}: no backend writes tasks from {suffix or 'suffix-less'} files")
    if dest.exists():
        if not force:
            raise fail(f"{dest} exists (--force replaces it)")
        if dest.is_symlink() or not (dest / "task.toml").is_file():
            raise fail(f"{dest} exists and is not a task folder: not replacing it")
        inside = [p for p in [program, *(extra or [])]
                  if p.resolve().is_relative_to(dest.resolve())]
        if inside:  # replacing DEST would delete the very file it is to be written from
            raise fail(f"{inside[0]} is inside {dest}: --force would delete it; write the "
                       "task elsewhere, or move the program out first")
        shutil.rmtree(dest)
    try:
        summary = None
        for b in found:
            summary = b.task_from_program(program, function, dest, task_id, extra or [])
            if summary is not None:
                break
        if summary is None:
            raise fail(f"{program}: the {found[0].language} backend cannot write tasks from "
                       "programs")
        task = load_task(dest)
    except AdequacyError as e:
        if dest.exists() and not (dest / "task.toml").is_file():
            shutil.rmtree(dest, ignore_errors=True)
        raise fail(str(e)) from None
    out.print(summary, highlight=False, soft_wrap=True)
    original = next((dest / "specs").glob("original.*"), None)
    if original is None:
        return
    rep = score_spec(task, original.read_text(encoding="utf-8"), str(original),
                     ScoreOptions())
    out.print(f"the program's own contract ({original.name}): {contract_verdict(rep)}",
              highlight=False, soft_wrap=True)


def contract_verdict(rep: Any) -> str:
    """Whether the contract passed the cases derived from its program (the sound buckets are
    empty until ``mutate`` or ``cases generate`` fills them, so ``passed_all`` cannot say)."""
    if rep.status != "scored":
        why = rep.error or (rep.invalid.message if rep.invalid else "")
        return f"{rep.status}: {why.splitlines()[0] if why else ''}"
    total = sum(s.total for s in rep.buckets.values())
    passed = sum(s.passed for s in rep.buckets.values())
    unknown = sum(s.unknown for s in rep.buckets.values())
    empty = [b.value for b, s in rep.buckets.items() if not s.total]
    tail = f"; empty: {', '.join(empty)} (adequacy mutate fills post_sound)" if empty else ""
    return f"passed {passed} of {total} cases ({unknown} unknown){tail}"


def register(app: typer.Typer) -> None:
    from adequacy.cli.tasks import task_app
    task_app.command("from")(task_from)
