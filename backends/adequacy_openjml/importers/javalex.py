"""Compact spelling of a Java test harness, so that its Scanner statements can be matched exactly.

The harnesses of the Spec-Harness records differ in layout (line breaks inside stream chains,
``java.util.`` prefixes, comments). Lexing and re-joining the tokens with a space only between two
word tokens gives one spelling per statement, which the reader and printer templates then match
literally: matching literally, not loosely, is what lets an unfamiliar pattern fail loudly instead
of being misread.
"""

from __future__ import annotations

import re

from adequacy.plugin import DatasetError

_OPS = sorted(["::", "->", "==", "!=", "<=", ">=", "&&", "||", "++", "--", "+=", "-=", "*=",
               "/=", "...", "<<", ">>"], key=len, reverse=True)


def is_word(tok: str) -> bool:
    return bool(tok) and (tok[0].isalnum() or tok[0] in "_$")


def tokenize(code: str) -> list[str]:
    """Java tokens; comments dropped, string and char literals kept whole."""
    toks: list[str] = []
    i, n = 0, len(code)
    while i < n:
        c = code[i]
        if c.isspace():
            i += 1
        elif code.startswith("//", i):
            j = code.find("\n", i)
            i = n if j < 0 else j
        elif code.startswith("/*", i):
            j = code.find("*/", i + 2)
            i = n if j < 0 else j + 2
        elif c in "\"'":
            j = i + 1
            while j < n and code[j] != c:
                j += 2 if code[j] == "\\" else 1
            toks.append(code[i:j + 1])
            i = j + 1
        elif c.isalnum() or c in "_$":
            j = i
            while j < n and (code[j].isalnum() or code[j] in "_$"):
                j += 1
            toks.append(code[i:j])
            i = j
        else:
            op = next((o for o in _OPS if code.startswith(o, i)), c)
            toks.append(op)
            i += len(op)
    return toks


def compact(code: str) -> str:
    """Tokens joined with a space only where two word tokens meet; package prefixes dropped."""
    toks = tokenize(code)
    out: list[str] = []
    prev = ""
    for t in toks:
        if out and is_word(prev) and is_word(t):
            out.append(" ")
        out.append(t)
        prev = t
    text = "".join(out)
    # '.' splits qualified names into tokens; drop the packages the harnesses spell out.
    return re.sub(r"\bjava\.util\.(?:stream\.)?|\bjava\.lang\.", "", text)


def main_body(test_code: str) -> str:
    """The compact body of ``main`` (between its braces), or raise DatasetError."""
    text = compact(test_code)
    m = re.search(r"static void main\(String(?:\[\])?\w*(?:\[\])?(?:\.\.\.)?\s?\w*\)(?:throws[\w,. ]+)?\{",
                  text)
    if not m:
        raise DatasetError("test_code has no main method")
    i = m.end()
    depth = 1
    j = i
    while j < len(text) and depth:
        ch = text[j]
        if ch in "\"'":
            k = j + 1
            while k < len(text) and text[k] != ch:
                k += 2 if text[k] == "\\" else 1
            j = k + 1
            continue
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        j += 1
    if depth:
        raise DatasetError("unbalanced braces in test_code main")
    return text[i:j - 1]
