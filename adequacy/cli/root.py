"""The ``adequacy`` Typer app: the root, its groups, and every command module registered.

Building it imports typer, rich and the command modules, whose library imports wait until a
command runs (``tests/core/test_cli_startup.py`` checks that no pydantic model, plugin or
backend is imported here).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Annotated

import typer
from typer.main import get_command_name

from adequacy.cli import (
    admin,
    cases,
    data,
    experiment,
    explore,
    export,
    gym,
    optimize,
    packages,
    report,
    scoring,
    strength,
    task_from,
    tasks,
)
from adequacy.cli.common import out

# Plain (click) help: typer's rich help shows every flag as `--json <bool>`, which reads as if
# it took a value. `-h` is accepted everywhere.
_CTX = {"help_option_names": ["-h", "--help"]}
app = typer.Typer(add_completion=False, no_args_is_help=True, rich_markup_mode=None,
                  context_settings=_CTX, pretty_exceptions_enable=False,
                  help="Measure whether a formal specification says what it should.")


def _version(value: bool) -> None:
    if value:
        from adequacy.version import __version__

        out.print(f"adequacy {__version__}", highlight=False)
        raise typer.Exit(0)


@app.callback()
def _root(
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                          help="Print the version and exit.")] = False,
) -> None:
    """Measure whether a formal specification says what it should."""


app.add_typer(tasks.task_app, name="task")
app.add_typer(admin.cache_app, name="cache")
for _module in (admin, scoring, data, tasks, task_from, report, optimize, gym, packages,
                experiment, explore, cases, export, strength):
    _module.register(app)


def app_for(args: Sequence[str]) -> typer.Typer:
    """The app with only the command ``args`` names, or the whole app.

    Typer turns every registered command into a click command before it parses anything (a
    quarter of the start-up of a score, paid by every call an optimizer or agent makes); a run
    of one command needs only that one. Help, no command, or a name that is not a command gets
    the whole app, so listings and click's "No such command" (with its suggestions) are
    unchanged."""
    if not args or args[0].startswith("-"):
        return app
    name = args[0]
    commands = [c for c in app.registered_commands
                if (c.name or (get_command_name(c.callback.__name__) if c.callback else None))
                == name]
    groups = [g for g in app.registered_groups
              if (g.name or (g.typer_instance.info.name if g.typer_instance else None)) == name]
    if len(commands) + len(groups) != 1:
        return app
    one = copy.copy(app)
    one.registered_commands = commands
    one.registered_groups = groups
    return one
