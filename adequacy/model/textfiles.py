"""Reading untrusted text: spec files, task files, JSON lines written by language models.

Every failure becomes an ``InputError`` naming the file (and the line where there is one), so the
CLI prints one line and a batch stores an error record instead of a traceback. Limits, and why:

- a spec file is read up to ``max_spec_bytes()`` (default 1 MiB, ``ADEQUACY_MAX_SPEC_BYTES`` or
  ``--max-spec-bytes``): ``score TASK /dev/zero`` must not read until memory runs out;
- JSON integers may have up to ``MAX_INT_DIGITS`` digits: Python refuses to convert more than
  4,300 by default (conversion is quadratic), and docs/tasks.md promises integers of any size;
- JSON may nest ``MAX_JSON_DEPTH`` deep: deeper values overflow recursive code downstream.

A UTF-8 byte-order mark is dropped: editors on some systems write one.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from adequacy.errors import InputError, JsonError
from adequacy.model.values import MAX_INT_DIGITS

DEFAULT_MAX_SPEC_BYTES = 1 << 20
MAX_JSON_DEPTH = 100
BOM = b"\xef\xbb\xbf"


def max_spec_bytes() -> int:
    """The spec size cap: ``ADEQUACY_MAX_SPEC_BYTES`` when set to a positive integer."""
    raw = os.environ.get("ADEQUACY_MAX_SPEC_BYTES", "")
    try:
        n = int(raw)
    except ValueError:
        return DEFAULT_MAX_SPEC_BYTES
    return n if n > 0 else DEFAULT_MAX_SPEC_BYTES


def read_text(path: str | Path, what: str = "file", max_bytes: int | None = None) -> str:
    """The file's text (UTF-8, BOM dropped), or an ``InputError`` saying why not."""
    p = Path(path)
    name = str(p)
    if p.is_dir():
        raise InputError(f"is a folder, expected a {what}", file=name)
    if not p.exists():
        raise InputError(f"{what} does not exist", file=name)
    if p.is_fifo() or p.is_socket():  # opening one would wait for a writer forever
        raise InputError(f"is a pipe or socket, expected a {what}", file=name)
    try:
        with p.open("rb") as f:
            data = f.read() if max_bytes is None else f.read(max_bytes + 1)
    except OSError as e:
        raise InputError(f"cannot read {what}: {e.strerror or e}", file=name) from None
    except MemoryError:
        raise InputError(f"{what} too large to read", file=name) from None
    if max_bytes is not None and len(data) > max_bytes:
        raise InputError(f"{what} is larger than {max_bytes} bytes (the limit; raise it with "
                         "--max-spec-bytes or ADEQUACY_MAX_SPEC_BYTES)", file=name)
    return decode(data, name, what)


def decode(data: bytes, name: str, what: str = "file") -> str:
    if data.startswith(BOM):
        data = data[len(BOM):]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        col = e.start - (data.rfind(b"\n", 0, e.start) + 1) + 1
        raise InputError(f"{what} is not UTF-8 text (byte 0x{data[e.start]:02x} at column "
                         f"{col})", file=name, line=line) from None


def read_spec(path: str | Path, max_bytes: int | None = None) -> str:
    """A spec file's text, capped at ``max_bytes`` (default ``max_spec_bytes()``)."""
    return read_text(path, "spec file", max_bytes or max_spec_bytes())


def _depth(value: Any) -> int:
    """Nesting depth, without recursion (the value may be deep)."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, (list, dict)):
            d += 1
            deepest = max(deepest, d)
            if deepest > MAX_JSON_DEPTH:
                return deepest
            stack.extend((x, d) for x in (v.values() if isinstance(v, dict) else v))
    return deepest


def parse_json(text: str) -> Any:
    """``json.loads`` with integers of up to ``MAX_INT_DIGITS`` digits and nesting of up to
    ``MAX_JSON_DEPTH``; any failure is a one-line ``JsonError``.

    Both guards cost little: the digit cap is Python's own conversion limit (raised to
    ``MAX_INT_DIGITS`` by ``adequacy.model.values``), and the depth is walked only when the text has
    more opening brackets than the cap (depth can never exceed their count).
    """
    try:
        value = json.loads(text)
    except json.JSONDecodeError as e:
        raise JsonError(f"not valid JSON: {e.msg} (column {e.colno})") from None
    except RecursionError:
        raise JsonError(f"JSON nested too deeply (at most {MAX_JSON_DEPTH} levels)") from None
    except ValueError as e:
        msg = str(e)
        if "integer string conversion" in msg:  # Python's digit limit
            digits = msg.split("value has ")[-1].split(" ")[0]
            raise JsonError(f"integer of {digits} digits (at most {MAX_INT_DIGITS} are "
                            "accepted)") from None
        raise JsonError(f"not valid JSON: {msg.splitlines()[0]}") from None
    if text.count("[") + text.count("{") > MAX_JSON_DEPTH and _depth(value) > MAX_JSON_DEPTH:
        raise JsonError(f"JSON nested too deeply (at most {MAX_JSON_DEPTH} levels)")
    return value
