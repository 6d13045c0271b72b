"""``adequacy cases generate``: valid pairs from a task's reference and labelled invalid inputs.

The library (``adequacy_mutators.generate_task``) is imported when the command runs, so that
building the command line stays cheap (``tests/core/test_cli_startup.py``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from adequacy.cli.checks import at_least
from adequacy.cli.common import fail, out

#: most valid pairs one run adds to a task.
MAX_VALID = 10_000

cases_app = typer.Typer(no_args_is_help=True, rich_markup_mode=None,
                        context_settings={"help_option_names": ["-h", "--help"]},
                        help="Make cases for tasks (docs/cases.md).")


def summary(rep: object) -> str:
    """One line per task: what was added, and why fewer or an ``every_input_valid``."""
    from adequacy_mutators import GenerateReport

    assert isinstance(rep, GenerateReport)
    line = (f"{rep.task}: +{rep.valid_added} valid pairs (post_complete now {rep.valid_total}),"
            f" pre_sound +{rep.pre_sound_added} (now {rep.pre_sound_total}); seed {rep.seed}; "
            f"reference: {rep.reference or 'none'}; input oracles: "
            f"{', '.join(rep.input_oracles) or 'none'}")
    if rep.inferred_every_input_valid:
        line += f"\n  every_input_valid: {rep.every_input_valid_reason}"
    elif rep.every_input_valid:
        line += "\n  every_input_valid (already set)"
    for n in rep.notes:
        line += f"\n  note: {n}"
    if not rep.written:
        line += "\n  (nothing written)"
    return line


def generate(
    tasks: Annotated[list[Path], typer.Argument(help="Task folders.")],
    valid: Annotated[int, typer.Option("--valid", callback=at_least(0),
                                       help="Valid input/output pairs to add per task.")] = 50,
    seed: Annotated[int, typer.Option(help="Generator seed (same seed, same cases).")] = 0,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Report only; write nothing.")
                       ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON report per line.")] = False,
) -> None:
    """Add valid pairs (the reference's outputs on inputs shaped like the task's own) and
    invalid inputs an oracle confirms; mark a task whose reference is total every_input_valid."""
    from adequacy.console import progress
    from adequacy.errors import AdequacyError
    from adequacy_mutators import generate_task

    if valid > MAX_VALID:
        raise fail(f"--valid must be at most {MAX_VALID}, got {valid} (every pair is a case "
                   "that every score runs)")
    for t in tasks:
        if not (t / "task.toml").is_file():
            raise fail(f"{t}: not a task folder (no task.toml)")
    with progress.terminal(), progress.steps("cases generate", len(tasks), "tasks") as bar:
        for t in tasks:
            bar.note(f"now: {t.name}")
            try:
                rep = generate_task(t, valid=valid, seed=seed, write=not dry_run)
            except AdequacyError as e:
                raise fail(str(e)) from None
            bar.advance()
            if as_json:
                typer.echo(rep.model_dump_json())
            else:
                out.print(summary(rep), highlight=False, markup=False, soft_wrap=True)


def register(app: typer.Typer) -> None:
    cases_app.command("generate")(generate)
    app.add_typer(cases_app, name="cases")
