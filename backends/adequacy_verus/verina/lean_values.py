"""VERINA's value strings (Lean `repr`-like text) to typed JSON and back.

VERINA stores a test value either as a JSON scalar/array (``5``, ``true``, ``[1, 2]``) or as Lean
text (``"#[1, -2]"``, ``"some (0, 1)"``, ``"[('a', 2)]"``, ``"⟨[(1, 10)]⟩"``). A top-level
``String`` or ``Char`` value is stored raw (``"abc"``, ``"x"``): VERINA splices it into Lean
source with quotes added. Nested strings and chars are Lean literals with quotes and escapes.

Every parsed value is printed back with ``print_value`` and compared with the source text token by
token (so up to whitespace and redundant parentheses around a single atom, as in ``some (0)``);
a mismatch means the parser dropped or invented something, and the value does not convert.
"""

from __future__ import annotations

import json
from typing import Any

from adequacy.plugin import DatasetError, ValueTypeError, validate

from .lean_types import LeanType, schema_type

_INT_HEADS = {"Int", "Nat", "UInt8", "UInt16", "UInt32", "UInt64", "Int8", "Int16", "Int32",
              "Int64", "USize"}
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", '"': '"', "'": "'", "0": "\0"}
_PUNCT = {"(", ")", "[", "]", ",", "⟨", "⟩", "#["}
_UNESCAPES = {v: "\\" + k for k, v in _ESCAPES.items() if k != "0"}


class LeanValueError(DatasetError):
    """A value string that does not parse, does not fit its type, or fails the round trip."""


def _tokenize(text: str) -> list[str]:
    """Tokens: punctuation, ``#[``, numbers (with a leading ``-``), identifiers, and string and
    char literals kept with their quotes (so that two spellings compare exactly)."""
    out: list[str] = []
    i = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c.isspace():
            i += 1
        elif text.startswith("#[", i):
            out.append("#[")
            i += 2
        elif c in "[](),⟨⟩":
            out.append(c)
            i += 1
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            if j >= n:
                raise LeanValueError(f"unterminated {c} literal in {text!r}")
            out.append(text[i:j + 1])
            i = j + 1
        elif c.isdigit() or (c == "-" and i + 1 < n and text[i + 1].isdigit()):
            j = i + 1
            while j < n and (text[j].isalnum() or text[j] in "._"):
                j += 1
            out.append(text[i:j])
            i = j
        elif c.isalpha() or c == "_":
            j = i
            while j < n and (text[j].isalnum() or text[j] in "._"):
                j += 1
            out.append(text[i:j])
            i = j
        else:
            raise LeanValueError(f"unexpected character {c!r} in {text!r}")
    return out


def _unquote(tok: str) -> str:
    body = tok[1:-1]
    out: list[str] = []
    i = 0
    while i < len(body):
        c = body[i]
        if c != "\\":
            out.append(c)
            i += 1
            continue
        if i + 1 >= len(body):
            raise LeanValueError(f"dangling backslash in literal {tok}")
        e = body[i + 1]
        if e in _ESCAPES:
            out.append(_ESCAPES[e])
            i += 2
        elif e == "x" and i + 4 <= len(body):
            out.append(chr(int(body[i + 2:i + 4], 16)))
            i += 4
        elif e == "u" and body[i + 2:i + 3] == "{":
            end = body.index("}", i)
            out.append(chr(int(body[i + 3:end], 16)))
            i = end + 1
        else:
            raise LeanValueError(f"unknown escape \\{e} in literal {tok}")
    return "".join(out)


def _quote(s: str, q: str) -> str:
    body = "".join(_UNESCAPES.get(c, c) if c in (q, "\\", "\n", "\t", "\r") else c for c in s)
    return q + body + q


def parse_text(text: str, lt: LeanType) -> Any:
    """Parse Lean value text of type ``lt`` into the JSON convention of ``adequacy.model.values``."""
    toks = _tokenize(text)
    pos = 0

    def peek() -> str | None:
        return toks[pos] if pos < len(toks) else None

    def take(expected: str | None = None) -> str:
        nonlocal pos
        if pos >= len(toks):
            raise LeanValueError(f"{text!r} ends early" + (f" (expected {expected!r})"
                                                          if expected else ""))
        t = toks[pos]
        if expected is not None and t != expected:
            raise LeanValueError(f"expected {expected!r} but found {t!r} in {text!r}")
        pos += 1
        return t

    def seq(open_tok: str, elem: LeanType) -> list[Any]:
        take(open_tok)
        items: list[Any] = []
        if peek() == "]":
            take()
            return items
        while True:
            items.append(value(elem))
            t = take()
            if t == "]":
                return items
            if t != ",":
                raise LeanValueError(f"expected ',' or ']' but found {t!r} in {text!r}")

    def value(t: LeanType) -> Any:
        h = t.head
        if peek() == "(" and h != "Prod":
            take("(")
            v = value(t)
            take(")")
            return v
        if h in _INT_HEADS:
            tok = take()
            try:
                return int(tok)
            except ValueError:
                raise LeanValueError(f"expected an integer of type {h} but found {tok!r} in "
                                     f"{text!r}") from None
        if h == "Bool":
            tok = take()
            if tok not in ("true", "false"):
                raise LeanValueError(f"expected true or false but found {tok!r} in {text!r}")
            return tok == "true"
        if h in ("Char", "String"):
            tok = take()
            q = "'" if h == "Char" else '"'
            if not (len(tok) >= 2 and tok[0] == q and tok[-1] == q):
                raise LeanValueError(f"expected a {h} literal but found {tok!r} in {text!r}")
            s = _unquote(tok)
            if h == "Char" and len(s) != 1:
                raise LeanValueError(f"char literal {tok} is not one character")
            return s
        if h in ("List", "Array"):
            return seq("#[" if h == "Array" else "[", t.args[0])
        if h == "Option":
            tok = take()
            if tok == "none":
                return None
            if tok != "some":
                raise LeanValueError(f"expected none or some but found {tok!r} in {text!r}")
            return {"some": value(t.args[0])}
        if h == "Prod":
            take("(")
            items = []
            for i, a in enumerate(t.args):
                if i:
                    take(",")
                items.append(value(a))
            take(")")
            return items
        if h == "Map":
            take("⟨")
            entries = seq("[", LeanType("Prod", t.args))
            take("⟩")
            return entries
        raise LeanValueError(f"no value syntax for Lean type {t}")

    result = value(lt)
    if pos != len(toks):
        raise LeanValueError(f"unexpected {toks[pos]!r} after the value in {text!r}")
    return result


def print_value(v: Any, lt: LeanType) -> str:
    """Lean text for a JSON value, as VERINA spells it (``#[1, 2]``, ``some 3``, ``('a', 2)``)."""
    h = lt.head
    if h in _INT_HEADS:
        return str(v)
    if h == "Bool":
        return "true" if v else "false"
    if h == "Char":
        return _quote(v, "'")
    if h == "String":
        return _quote(v, '"')
    if h in ("List", "Array"):
        inner = ", ".join(print_value(e, lt.args[0]) for e in v)
        return ("#[" if h == "Array" else "[") + inner + "]"
    if h == "Option":
        if v is None:
            return "none"
        inner = print_value(v["some"], lt.args[0])
        # a product prints its own parentheses; Lean wraps negative numbers and applications
        wrap = lt.args[0].head == "Option" or (lt.args[0].head != "Prod" and inner.startswith("-"))
        return f"some ({inner})" if wrap else f"some {inner}"
    if h == "Prod":
        return "(" + ", ".join(print_value(e, a) for e, a in zip(v, lt.args, strict=True)) + ")"
    if h == "Map":
        return "⟨" + print_value(v, LeanType("List", (LeanType("Prod", lt.args),))) + "⟩"
    raise LeanValueError(f"no value syntax for Lean type {lt}")


def _normal_tokens(text: str) -> list[str]:
    """Tokens with parentheses around a single atom dropped: ``some (0)`` ~ ``some 0``."""
    toks = _tokenize(text)
    changed = True
    while changed:
        changed = False
        for i in range(len(toks) - 2):
            if toks[i] == "(" and toks[i + 2] == ")" and toks[i + 1] not in _PUNCT:
                del toks[i + 2]
                del toks[i]
                changed = True
                break
    return toks


def _from_json(raw: Any, lt: LeanType) -> Any:
    """A value VERINA stored as native JSON (``5``, ``true``, ``[1, 2]``); strings inside a JSON
    array are Lean text again."""
    h = lt.head
    if isinstance(raw, str):
        return parse_text(raw, lt)
    if h in _INT_HEADS and isinstance(raw, int) and not isinstance(raw, bool):
        return raw
    if h == "Bool" and isinstance(raw, bool):
        return raw
    if h in ("List", "Array") and isinstance(raw, list):
        return [_from_json(e, lt.args[0]) for e in raw]
    raise LeanValueError(f"JSON value {json.dumps(raw)[:40]} does not fit Lean type {lt}")


def convert(raw: Any, lt: LeanType) -> Any:
    """One VERINA value to typed JSON, checked: parses, round-trips, fits the 64-bit image.

    Raises ``LeanValueError`` with the reason otherwise.
    """
    ty = schema_type(lt)
    if isinstance(raw, str) and lt.head == "String":
        value: Any = raw
    elif isinstance(raw, str) and lt.head == "Char" and len(raw) == 1:
        value = raw
    elif isinstance(raw, str):
        value = parse_text(raw, lt)
        printed = print_value(value, lt)
        if _normal_tokens(printed) != _normal_tokens(raw):
            raise LeanValueError(f"round trip failed: {raw!r} printed back as {printed!r}")
        if parse_text(printed, lt) != value:
            raise LeanValueError(f"round trip failed: {printed!r} parses differently")
    else:
        value = _from_json(raw, lt)
        if value != raw and not isinstance(raw, list):
            raise LeanValueError(f"round trip failed for {raw!r}")
    try:
        validate(value, ty)
    except ValueTypeError as e:
        raise LeanValueError(f"{e.message} (Lean {lt})") from None
    return value
