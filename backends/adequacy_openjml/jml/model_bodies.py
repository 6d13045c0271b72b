"""The value of a model method body of the two shapes the engines read as one expression.

KeY 2.12.3 reads a model method's body only as one ``return`` ("missing 'return' at 'if'"),
and rac compiles such a body with exact arithmetic (``engines/rac/model_math.py``); both take
the shape from here, so they agree on which bodies they read."""

from __future__ import annotations

import re

_RETURN = re.compile(r"\{\s*return\b(?P<e>[^;{}]*);\s*\}$", re.S)
_IF_ELSE = re.compile(
    r"\{\s*if\s*(?P<c>\(.*\))\s*\{?\s*return\b(?P<a>[^;{}]*);\s*\}?\s*else\s*\{?"
    r"(?:\s*assert\b[^;{}]*;)*\s*return\b(?P<b>[^;{}]*);\s*\}?\s*\}$", re.S)


def body_value(flat: str) -> tuple[str, str, str] | str | None:
    """For a body ``{ if (C) { return A; } else { assert X; return B; } }``: ``(C)``, ``A``
    and ``B`` (the ``assert`` is a check on the body, not part of the value it defines); for
    ``{ return E; }``: ``E``; else None. ``flat`` is the body's text, JML's ``@`` margins
    removed."""
    i = _IF_ELSE.match(flat)
    if i is not None and balanced(i.group("c")):
        return i.group("c"), i.group("a").strip(), i.group("b").strip()
    r = _RETURN.match(flat)
    return r.group("e").strip() if r is not None else None


def balanced(s: str) -> bool:
    """``s`` is one parenthesised group: ``(`` at the start closed by the ``)`` at its end."""
    depth = 0
    for k, ch in enumerate(s):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth == 0 and k < len(s) - 1:
            return False
    return depth == 0
