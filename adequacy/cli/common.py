"""What every command shares: the two consoles, the one-line error, the verdict cache path.

Imported by every command module when the app is built, so it imports rich and nothing of
the library: a command pays for the library parts it uses, when it runs.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from rich.console import Console
from rich.text import Text

if TYPE_CHECKING:
    from adequacy.scoring.cache import VerdictCache

class PipeConsole(Console):
    """A console that never wraps a line it does not print to a terminal: in a pipe, a CI log
    or a file, rich assumes 80 columns and broke every long line (a task's case counts, an
    engine's reason, a path) in two, which ``grep`` and a reader of the log then see cut.
    On a terminal it wraps as rich does."""

    def print(self, *objects: Any, soft_wrap: bool | None = None, **kwargs: Any) -> None:
        if soft_wrap is None and not self.is_terminal:
            soft_wrap = True
        super().print(*objects, soft_wrap=soft_wrap, **kwargs)


out = PipeConsole()
err = PipeConsole(stderr=True)


def say_error(msg: str, prefix: str = "error: ") -> None:
    """One line on stderr: no wrapping at the terminal's width, no rich markup in the message
    (``[jml]`` in a message is text, not a style)."""
    text = "; ".join(ln.strip() for ln in msg.splitlines() if ln.strip())
    err.print(Text(prefix, style="bold red") + Text(text), soft_wrap=True, highlight=False)


def fail(msg: str, code: int = 2) -> typer.Exit:
    say_error(msg)
    return typer.Exit(code)


def default_cache(no_cache: bool, cache: Path | None) -> str | None:
    if no_cache:
        return None
    from adequacy.scoring.cache import default_cache_dir
    return str(cache or default_cache_dir() / "verdicts.sqlite")


def open_cache(path: str | None) -> tuple[VerdictCache | None, str | None]:
    """The cache and its path, or (None, None) after one warning when it is unusable: a cache
    is an optimisation and never stops scoring."""
    if path is None:
        return None, None
    from adequacy.scoring.cache import VerdictCache
    c = VerdictCache(path)
    return (None, None) if c.broken else (c, path)
