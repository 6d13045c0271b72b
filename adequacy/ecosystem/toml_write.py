"""Writing the few TOML files an export needs (``tomllib`` only reads).

Values are scalars, lists of scalars and tables of those; every file written is parsed back
with ``tomllib`` before it is kept, so a value this writer renders wrongly is an error here and
never a file Harbor refuses later.
"""

from __future__ import annotations

import json
import re
import tomllib
from typing import Any

_BARE = re.compile(r"^[A-Za-z0-9_-]+$")


def key(k: str) -> str:
    return k if _BARE.match(k) else string(k)


def string(s: str) -> str:
    """A TOML basic string: JSON's escapes are TOML's, except that TOML also refuses a raw
    DEL and any surrogate escape (so no ``ensure_ascii``)."""
    return json.dumps(s, ensure_ascii=False).replace("\x7f", "\\u007f")


def value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if v != v or v in (float("inf"), float("-inf")):
            raise ValueError(f"TOML value {v!r}: not a finite number")
        return repr(v)
    if isinstance(v, str):
        return string(v)
    if isinstance(v, list | tuple):
        return "[" + ", ".join(value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{key(k)} = {value(x)}" for k, x in v.items()) + " }"
    raise TypeError(f"no TOML form for {type(v).__name__}")


def table(name: str, items: dict[str, Any]) -> str:
    """``[name]`` and its keys (a nested dict becomes an inline table)."""
    lines = [f"[{name}]"] + [f"{key(k)} = {value(v)}" for k, v in items.items() if v is not None]
    return "\n".join(lines) + "\n"


def array_table(name: str, items: dict[str, Any]) -> str:
    lines = [f"[[{name}]]"] + [f"{key(k)} = {value(v)}" for k, v in items.items()
                               if v is not None]
    return "\n".join(lines) + "\n"


def checked(text: str) -> str:
    """``text`` after parsing it back; a writer bug is an error, not a broken file."""
    tomllib.loads(text)
    return text
