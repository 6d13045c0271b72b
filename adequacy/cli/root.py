"""The ``adequacy`` Typer app: the root, its groups, and every command module registered.

Building it imports typer, rich and the command modules, whose library imports wait until a
command runs (``tests/core/test_cli_startup.py`` checks that no pydantic model, plugin or
backend is imported here).
"""

from __future__ import annotations

from typing import Annotated

import typer

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
