"""Java's translation of a raw file into its input characters (JLS 3.3 and 3.4).

Why first: javac, KeY and OpenJML replace ``\\uXXXX`` escapes before they lex anything, so
``// note \\u000a return 42;`` is a comment followed by a statement to them. A front end that
lexed the raw text would check one program and let the engines read another. The rule: a
backslash starts an escape when an even number of raw backslashes precedes it and one or more
``u`` follow, then exactly four hex digits; the character an escape produces never starts
another escape. Line terminators are CR, LF and CR LF; all become LF so every reader counts
lines alike.
"""

from __future__ import annotations

import re

from adequacy.plugin import SpecInvalid

_ESCAPE = re.compile(r"(?<!\\)((?:\\\\)*)\\u+([0-9a-fA-F]{4})?")


def java_input(text: str, file: str | None = None) -> str:
    """The input characters of a raw Java file; a malformed escape is ``SpecInvalid``."""
    if "\\u" in text:
        def one(m: re.Match[str]) -> str:
            if m.group(2) is None:
                line = text.count("\n", 0, m.start()) + 1
                raise SpecInvalid("illegal unicode escape (\\u must be followed by four hex "
                                  "digits, JLS 3.3)", file=file, line=line)
            return m.group(1) + chr(int(m.group(2), 16))

        text = _ESCAPE.sub(one, text)
        text = _join_surrogates(text)
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


def _join_surrogates(text: str) -> str:
    """``\\ud83d\\ude00`` is one character to Java (UTF-16); a lone surrogate stays as it is."""
    if not any(0xD800 <= ord(c) <= 0xDFFF for c in text):
        return text
    try:
        return text.encode("utf-16", "surrogatepass").decode("utf-16")
    except UnicodeDecodeError:
        return text

