"""Tokens of Java and of JML annotation text, with the source line of each token.

One lexer serves both, since JML expressions are Java expressions plus a few operators
(``==>``, ``<==``, ``<==>``, ``<=!=>``, ``<:``) and backslash keywords (``\\result``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from adequacy.plugin import SpecInvalid

# Longest first so that maximal munch picks ``<=!=>`` before ``<=``.
OPERATORS = sorted([
    "<=!=>", "<==>", ">>>=", "==>", "<==", "<<=", ">>=", ">>>", "...", "->", "::",
    "==", "!=", "<=", ">=", "&&", "||", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=",
    "^=", "<<", ">>", "<:", "{|", "|}", "..",
    "+", "-", "*", "/", "%", "=", "<", ">", "!", "~", "?", ":", ";", ",", ".", "(", ")", "[",
    "]", "{", "}", "&", "|", "^", "@",
], key=len, reverse=True)
_FAST = re.compile(r"(?P<ws>[^\S\n]+)|(?P<id>[^\W\d][\w$]*|\$[\w$]*)"
                   r"|(?P<bs>\\[A-Za-z_][A-Za-z0-9_]*)|(?P<op>"
                   + "|".join(re.escape(op) for op in OPERATORS) + ")")
"""Whitespace, names, backslash keywords and operators in one match (maximal munch: the
operators are listed longest first); numbers and literals keep their own scanners."""


@dataclass(slots=True, unsafe_hash=True)
class Token:
    """One token; never changed after the lexer made it (not ``frozen``: a frozen dataclass
    costs three times as much to build, and a big spec has a million tokens)."""

    kind: str
    """``ident``, ``backslash`` (``\\result``), ``int``, ``float``, ``char``, ``string``,
    ``op``, ``jml`` (a whole annotation, only from the source reader) or ``eof``."""
    text: str
    line: int
    pos: int = 0
    """Offset in the text the lexer was given (the source reader maps it back)."""

    def is_op(self, *ops: str) -> bool:
        return self.kind == "op" and self.text in ops

    def is_ident(self, *names: str) -> bool:
        return self.kind == "ident" and (not names or self.text in names)


def tokenize(text: str, first_line: int = 1, file: str | None = None,
             split_shifts: bool = False) -> list[Token]:
    """Tokens of ``text`` (no comments allowed inside: the source reader removed them).

    ``split_shifts`` lexes ``>>`` as two ``>`` (Java generics in declarations).
    """
    toks: list[Token] = []
    i = 0
    n = len(text)
    line = first_line
    fast = _FAST.match
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
            continue
        start = i
        if c.isdigit() or (c == "." and i + 1 < n and text[i + 1].isdigit()):
            i, kind = _number(text, i)
            toks.append(Token(kind, text[start:i], line, start))
            continue
        if c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                if text[j] == "\\":
                    j += 1
                if j < n and text[j] == "\n":
                    raise SpecInvalid("unterminated literal", file=file, line=line)
                j += 1
            if j >= n:
                raise SpecInvalid("unterminated literal", file=file, line=line)
            i = j + 1
            toks.append(Token("string" if c == '"' else "char", text[start:i], line, start))
            continue
        m = fast(text, i)
        if m is None:
            raise SpecInvalid(f"unexpected character {c!r}", file=file, line=line)
        i = m.end()
        kind = m.lastgroup or ""
        if kind == "ws":
            continue
        if kind == "op":
            op = m.group()
            if split_shifts and op in (">>", ">>>", ">>=", ">>>="):
                op = ">"
                i = start + 1
            toks.append(Token("op", op, line, start))
        else:
            toks.append(Token("ident" if kind == "id" else "backslash", m.group(), line, start))
    toks.append(Token("eof", "", line, n))
    return toks


def _number(text: str, i: int) -> tuple[int, str]:
    n = len(text)
    kind = "int"
    if text.startswith(("0x", "0X", "0b", "0B"), i):
        i += 2
        while i < n and (text[i].isalnum() or text[i] == "_"):
            i += 1
        return i, kind
    while i < n and (text[i].isdigit() or text[i] == "_"):
        i += 1
    if i < n and text[i] == "." and not text.startswith("..", i):
        kind = "float"
        i += 1
        while i < n and (text[i].isdigit() or text[i] == "_"):
            i += 1
    if i < n and text[i] in "eE":
        kind = "float"
        i += 1
        if i < n and text[i] in "+-":
            i += 1
        while i < n and text[i].isdigit():
            i += 1
    if i < n and text[i] in "lL":
        i += 1
    elif i < n and text[i] in "fFdD":
        kind = "float"
        i += 1
    return i, kind


BRACKETS = {"(": ")", "[": "]", "{": "}"}
"""Each opening bracket and the one that closes it."""
_CLOSERS = frozenset(BRACKETS.values())


def matching_bracket(toks: Sequence[Token], k: int) -> int | None:
    """Index of the bracket closing the one at ``k``, every kind properly nested inside;
    None when it is never closed or a bracket of another kind closes first."""
    want: list[str] = []
    for j in range(k, len(toks)):
        t = toks[j]
        if t.kind == "op" and t.text in BRACKETS:
            want.append(BRACKETS[t.text])
        elif t.kind == "op" and t.text in _CLOSERS:
            if not want or want.pop() != t.text:
                return None
            if not want:
                return j
    return None


def closing(toks: Sequence[Token], k: int, open_: str, close: str) -> int | None:
    """Index of the ``close`` that balances the ``open_`` at ``k``, counting that pair only
    (a scan of a method's tokens, where other brackets may be cut off); None if never."""
    depth = 0
    for j in range(k, len(toks)):
        if toks[j].is_op(open_):
            depth += 1
        elif toks[j].is_op(close):
            depth -= 1
            if depth == 0:
                return j
    return None
