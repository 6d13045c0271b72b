"""rustc's diagnostics as one model, for every engine that runs rustc (exec_spec through cargo,
the ``verus`` binary): its JSON messages (``--error-format=json``, and inside cargo's
``compiler-message`` records) and its human format."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Diagnostic:
    level: str
    """``error``, ``warning``, ``note``..."""
    message: str
    line: int | None
    """Line of the primary span (in ``in_file`` when the reader asked for one)."""
    file: str | None = None
    code: str | None = None
    """rustc's error code (``E0277``), when it has one."""
    lines: list[int] = field(default_factory=list)
    """Every line any span of the diagnostic or of its children touches (primary first)."""
    rendered: str = ""
    package: str = ""
    """cargo's package id of the crate being compiled (the spec's crate, or vstd...)."""


def json_objects(text: str) -> Iterator[dict[str, Any]]:
    """The JSON objects of a tool's output, one per line; other lines (progress, a torn last
    line) are skipped. rustc's ``--error-format=json`` and cargo's ``--message-format=json``
    both write this way."""
    for raw in text.splitlines():
        raw = raw.strip()
        if not raw.startswith("{"):
            continue
        try:
            obj = json.loads(raw)
        except json.JSONDecodeError:
            continue
        if isinstance(obj, dict):
            yield obj


def from_json(msg: dict[str, Any], package: str = "", in_file: str | None = None
              ) -> Diagnostic:
    """One rustc JSON diagnostic. ``in_file``: the line is that of the first primary span in a
    file whose name ends so (None when no primary span is there); otherwise the first primary
    span's (or the first span's) line and file."""
    spans = [s for s in msg.get("spans") or [] if isinstance(s, dict)]
    prim = [s for s in spans if s.get("is_primary")]
    if in_file is None:
        first = (prim or spans)[:1]
    else:
        first = [s for s in prim if str(s.get("file_name", "")).endswith(in_file)][:1]
    line = int(first[0].get("line_start") or 0) or None if first else None
    touched = [int(s.get("line_start") or 0) for s in prim + [s for s in spans if s not in prim]]
    for child in msg.get("children") or []:
        touched += [int(s.get("line_start") or 0) for s in child.get("spans") or []]
    code = msg.get("code")
    return Diagnostic(level=str(msg.get("level", "")), message=str(msg.get("message", "")),
                      line=line, file=first[0].get("file_name") if first else None,
                      code=code.get("code") if isinstance(code, dict) else None,
                      lines=[ln for ln in touched if ln], rendered=str(msg.get("rendered") or ""),
                      package=package)


def parse_json(text: str) -> list[Diagnostic]:
    """rustc JSON diagnostics, one object per line (other lines are ignored)."""
    return [from_json(obj) for obj in json_objects(text)
            if "level" in obj and "message" in obj and "spans" in obj]


_ARROW = re.compile(r"^\s*-->\s*(.+?):(\d+):(\d+)\s*$")
_MORE = re.compile(r"^\s*:::\s*(.+?):(\d+):(\d+)")
_HEAD = re.compile(r"^(error|warning|note)(\[([A-Z]\d+)\])?:\s*(.*)$")


def parse_text(text: str) -> list[Diagnostic]:
    """The human format: ``error[E0425]: msg`` then ``--> file:line:col`` (and more
    ``-->``/``:::`` lines)."""
    out: list[Diagnostic] = []
    cur: Diagnostic | None = None
    for raw in text.splitlines():
        h = _HEAD.match(raw)
        if h:
            cur = Diagnostic(h.group(1), h.group(4).strip(), None, code=h.group(3))
            out.append(cur)
            continue
        a = _ARROW.match(raw)
        if a and cur is not None:
            ln = int(a.group(2))
            if cur.line is None:
                cur.line, cur.file = ln, a.group(1)
            cur.lines.append(ln)
            continue
        m = _MORE.match(raw)
        if m and cur is not None:
            cur.lines.append(int(m.group(2)))
    return out
