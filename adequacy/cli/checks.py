"""Range checks for the commands' numeric options, refused with one line and exit 2.

A negative ``--case-timeout`` makes every case time out, so gold specs "fail"; ``--workers 0``
hangs a pool; ``--per-case 0`` writes no mutants and leaves a spec that says nothing passing.
The parser's own range errors print usage and a framed message over several lines; these print the
one ``error:`` line every other input error prints.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import typer
from rich.text import Text

from adequacy.cli.common import err as _err

Check = Callable[[typer.Context, typer.CallbackParam, Any], Any]


def _refuse(param: typer.CallbackParam, value: Any, want: str) -> typer.Exit:
    name = max(param.opts, key=len) if param.opts else str(param.name)
    _err.print(Text("error: ", style="bold red") + Text(f"{name} must be {want}, got {value}"),
               soft_wrap=True, highlight=False)
    return typer.Exit(2)


def at_least(lo: float) -> Check:
    """Values >= ``lo`` (``None``, an option left unset, passes)."""
    def check(ctx: typer.Context, param: typer.CallbackParam, value: Any) -> Any:
        if value is not None and not ctx.resilient_parsing and not value >= lo:
            raise _refuse(param, value, f">= {lo:g}")
        return value
    return check


def positive(ctx: typer.Context, param: typer.CallbackParam, value: Any) -> Any:
    """Values > 0 (a timeout of 0 seconds times every case out); NaN is refused too."""
    if value is not None and not ctx.resilient_parsing and not value > 0:
        raise _refuse(param, value, "> 0")
    if value is not None and value == float("inf"):
        raise _refuse(param, value, "a finite number")
    return value


def fraction(ctx: typer.Context, param: typer.CallbackParam, value: Any) -> Any:
    """Thresholds such as Harness@t: a share of cases, 0 to 1."""
    if value is not None and not ctx.resilient_parsing and not 0 <= value <= 1:
        raise _refuse(param, value, "between 0 and 1")
    return value
