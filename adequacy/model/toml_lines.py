"""Lines of keys in a TOML file, since ``tomllib`` gives no positions.

Task files and study files both report errors at ``file:line``; this is the one reading of
where a key or table sits that both use (best effort: a key on a line of its own)."""

from __future__ import annotations

import re
from typing import Any, NamedTuple

# Linear-time patterns: the name is taken greedily and stripped afterwards. The earlier
# ``\[\s*([^\]]+?)\s*\]`` backtracked cubically on a '[' line with no ']' (a valid TOML file can
# hold one inside a multi-line string): 2,000 spaces took 3.8 s, 20,000 about an hour.
_ARRAY_TABLE = re.compile(r"^\[\[([^\]]+)\]\]")
_TABLE = re.compile(r"^\[([^\]]+)\]")
_KEY = re.compile(r"^[\"']?([A-Za-z0-9_.-]+?)[\"']?\s*=")


class KeyLine(NamedTuple):
    table: tuple[Any, ...]
    """The enclosing table's parts (an array-of-tables entry adds its index); for a header line,
    the table it opens."""
    own: tuple[str, ...]
    """The key's dotted parts as written on its line; empty for a header line."""
    line: int

    @property
    def path(self) -> tuple[Any, ...]:
        return (*self.table, *self.own)


def key_lines(text: str) -> list[KeyLine]:
    out: list[KeyLine] = []
    table: tuple[Any, ...] = ()
    counts: dict[tuple[str, ...], int] = {}
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if m := _ARRAY_TABLE.match(line):
            parts = tuple(p.strip() for p in m.group(1).strip().split("."))
            counts[parts] = counts.get(parts, -1) + 1
            table = (*parts, counts[parts])
            out.append(KeyLine(table, (), n))
        elif m := _TABLE.match(line):
            table = tuple(p.strip() for p in m.group(1).strip().split("."))
            out.append(KeyLine(table, (), n))
        elif m := _KEY.match(line):
            out.append(KeyLine(table, tuple(m.group(1).split(".")), n))
    return out


def line_of(text: str, loc: tuple[Any, ...]) -> int | None:
    """The line a validation error's location points at (its deepest key found)."""
    lines = key_lines(text)
    for depth in range(len(loc), 0, -1):
        for k in lines:
            if k.path == tuple(loc[:depth]):
                return k.line
    return None


def key_line(text: str, key: str, table: str | None = None) -> int | None:
    """The first line of ``key`` (``key = ...`` or ``key.sub = ...``): directly inside
    ``[table]`` when given, anywhere otherwise. A ``key`` written ``[name]`` finds that table's
    header (or the first of its sub-tables')."""
    lines = key_lines(text)
    if key.startswith("["):
        want = tuple(key.strip("[]").split("."))
        return next((k.line for k in lines if not k.own and k.table[:len(want)] == want),
                    None)
    scope = tuple(table.split(".")) if table is not None else None
    return next((k.line for k in lines if k.own and k.own[0] == key
                 and (scope is None or k.table == scope)), None)
