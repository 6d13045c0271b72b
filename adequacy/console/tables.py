"""How a command prints a table: ``--format plain|rich|json`` (default: rich only where it fits).

rich fits a table to the terminal by wrapping and cutting cells: at 80 columns ``compare``
printed every cell as ``meas…`` and ``[+1.…`` (the confidence intervals, the point of the
command, gone), ``run`` split task names mid-word, and in a pipe or a CI log (where rich
assumes 80 columns) the same happened to every reader of the log. The plain layout never cuts
or wraps a cell: columns are aligned, and a table wider than the screen is printed in slices of
columns that fit, each slice repeating the first (key) column, as R prints a wide data frame.
A single cell wider than the screen is printed whole.

``auto`` (the default) is rich on a terminal when the table fits its width unwrapped, plain
otherwise; ``plain`` and ``rich`` force one; ``json`` is the command's own JSON (``--json``
stays as its alias).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any
from weakref import WeakKeyDictionary

from rich.console import Console, Group
from rich.errors import MarkupError
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text


class OutputFormat(StrEnum):
    auto = "auto"
    plain = "plain"
    rich = "rich"
    json = "json"


FORMAT_HELP = ("auto, plain, rich or json. rich: boxes and colour; plain: aligned text that "
               "never cuts a cell; auto (default): rich on a terminal wide enough, else plain.")

GAP = "  "
UNLIMITED = 1 << 30
"""The width of a pipe: a plain table printed there is never sliced."""

_KEYS: WeakKeyDictionary[Table, int] = WeakKeyDictionary()


def key_columns(table: Table, n: int) -> Table:
    """Say that the first ``n`` columns name a row (task and spec): a slice of a wide table
    repeats them, so that its rows can be told apart. Default: 1."""
    _KEYS[table] = n
    return table


def resolve(fmt: OutputFormat, as_json: bool = False) -> OutputFormat:
    """``--json`` is ``--format json``."""
    return OutputFormat.json if as_json else fmt


def show(console: Console, renderable: Any, fmt: OutputFormat = OutputFormat.auto) -> None:
    """Print a table (or a group of tables and lines) in the format asked for."""
    if fmt is OutputFormat.rich or (fmt is OutputFormat.auto and _fits(console, renderable)):
        console.print(renderable)
        return
    # in a pipe or a file nobody's screen is 80 columns: one line per row, never sliced
    text = plain(renderable, console.width if console.is_terminal else UNLIMITED)
    console.file.write(text + ("\n" if text and not text.endswith("\n") else ""))
    console.file.flush()


def _fits(console: Console, renderable: Any) -> bool:
    if not console.is_terminal:
        return False
    return all(Measurement.get(console, console.options, t).maximum <= console.width
               for t in _tables(renderable))


def _tables(renderable: Any) -> list[Table]:
    if isinstance(renderable, Table):
        return [renderable]
    if isinstance(renderable, Group):
        return [t for r in renderable.renderables for t in _tables(r)]
    return []


def csv_text(renderable: Any) -> str:
    """The tables of a renderable as CSV (RFC 4180; a header row, then one row per row), the
    headers as one line each; lines of text around them are left out."""
    import csv
    import io

    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    for n, t in enumerate(_tables(renderable)):
        if n:
            buf.write("\n")
        w.writerow(" ".join(_text(c.header).split()) for c in t.columns)
        cols = [[_text(cell).replace("\n", " ") for cell in c.cells] for c in t.columns]
        for r in range(max((len(c) for c in cols), default=0)):
            w.writerow(col[r] if r < len(col) else "" for col in cols)
    return buf.getvalue()


def plain(renderable: Any, width: int = 80) -> str:
    """The plain text of a table, a line, or a group of them."""
    if isinstance(renderable, Group):
        parts = renderable.renderables
        # a blank line before every table but the first thing printed
        return "\n".join(("\n" if i and isinstance(r, Table) else "") + plain(r, width)
                         for i, r in enumerate(parts))
    if isinstance(renderable, Table):
        return plain_table(renderable, width)
    return _text(renderable)


def _text(cell: Any) -> str:
    if isinstance(cell, Text):
        return cell.plain
    if isinstance(cell, str):
        try:  # a cell given as a string is markup to rich ("[green]yes[/]")
            return Text.from_markup(cell).plain
        except MarkupError:  # "[/x]" in a message: text, not a broken style
            return cell
    return str(cell)


def plain_table(table: Table, width: int = 80) -> str:
    heads = [" ".join(_text(c.header).split()) for c in table.columns]
    cols = [[_text(cell).replace("\n", " ") for cell in c.cells] for c in table.columns]
    right = [c.justify == "right" for c in table.columns]
    widths = [max([len(h)] + [len(v) for v in col]) for h, col in zip(heads, cols, strict=True)]
    lines: list[str] = []
    if table.title is not None:
        lines.append(_text(table.title))
    if not heads:
        return "\n".join(lines)
    n_rows = max((len(c) for c in cols), default=0)
    for part in _slices(widths, width, _KEYS.get(table, 1)):
        def fmt(values: list[str], part: list[int] = part) -> str:
            cells = [values[i].rjust(widths[i]) if right[i] else values[i].ljust(widths[i])
                     for i in part]
            return GAP.join(cells).rstrip()

        if lines and len(lines) > (1 if table.title is not None else 0):
            lines.append("")
        lines.append(fmt(heads))
        lines.append(GAP.join("-" * widths[i] for i in part))
        for r in range(n_rows):
            lines.append(fmt([col[r] if r < len(col) else "" for col in cols]))
    return "\n".join(lines)


def _slices(widths: list[int], width: int, keys: int = 1) -> list[list[int]]:
    """Column indices per slice: the key columns in every slice, then as many more as fit."""
    keys = max(1, min(keys, len(widths)))
    if sum(widths) + len(GAP) * (len(widths) - 1) <= width or len(widths) <= keys:
        return [list(range(len(widths)))]
    head = list(range(keys))
    base = sum(widths[:keys]) + len(GAP) * (keys - 1)
    out: list[list[int]] = []
    cur, used = list(head), base
    for i in range(keys, len(widths)):
        if len(cur) > keys and used + len(GAP) + widths[i] > width:
            out.append(cur)
            cur, used = list(head), base
        cur.append(i)
        used += len(GAP) + widths[i]
    out.append(cur)
    return out
