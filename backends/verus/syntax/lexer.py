"""Tokenizer for the Rust/Verus surface syntax.

The lexer must accept every token of ordinary Rust, not just spec code: skeleton and corpus
files carry exec functions whose bodies the parser skips by matching braces, and a stray
lifetime or raw string there must not derail it.
"""

from __future__ import annotations

from dataclasses import dataclass

from adequacy.errors import SpecInvalid

# Longest first: the lexer takes the first entry that matches.
PUNCTS = [
    "<==>", "=~~=", "..=", "...", "==>", "<==", "=~=", "===", "!==", "&&&", "|||", "<<=", ">>=",
    "::", "->", "=>", "==", "!=", "<=", ">=", "&&", "||", "<<", ">>", "+=", "-=", "*=", "/=",
    "%=", "^=", "&=", "|=", "..",
    "+", "-", "*", "/", "%", "^", "!", "&", "|", "=", "<", ">", "@", ".", ",", ";", ":", "#",
    "$", "?", "~", "(", ")", "[", "]", "{", "}",
]

_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", "0": "\0", "'": "'", '"': '"'}


@dataclass(slots=True)
class Token:
    kind: str
    """ident | int | float | char | str | bytestr | bytechar | lifetime | punct | eof"""
    value: object
    """Decoded value: identifier text, int, float, str (chars), bytes, punct text."""
    text: str
    """Source text, used for normalisation and messages."""
    line: int
    col: int

    def is_p(self, p: str) -> bool:
        return self.kind == "punct" and self.value == p

    def is_kw(self, k: str) -> bool:
        return self.kind == "ident" and self.value == k


def _fail(msg: str, path: str | None, line: int) -> SpecInvalid:
    return SpecInvalid(msg, file=path, line=line)


def tokenize(text: str, path: str | None = None) -> list[Token]:
    """Split ``text`` into tokens; comments and whitespace vanish."""
    toks: list[Token] = []
    i, n, line, line_start = 0, len(text), 1, 0

    def decode_escape(j: int) -> tuple[str, int]:
        # text[j] == '\\'
        c = text[j + 1] if j + 1 < n else ""
        if c in _ESCAPES:
            return _ESCAPES[c], j + 2
        if c == "x":
            return chr(int(text[j + 2:j + 4], 16)), j + 4
        if c == "u" and j + 2 < n and text[j + 2] == "{":
            k = text.index("}", j + 3)
            return chr(int(text[j + 3:k].replace("_", ""), 16)), k + 1
        if c == "\n":  # line continuation inside strings
            k = j + 2
            while k < n and text[k] in " \t\r\n":
                k += 1
            return "", k
        raise _fail(f"unknown escape '\\{c}'", path, line)

    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            line_start = i + 1
            i += 1
            continue
        if c.isspace():
            i += 1
            continue
        col = i - line_start + 1
        start, start_line = i, line
        if text.startswith("//", i):
            while i < n and text[i] != "\n":
                i += 1
            continue
        if text.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if text.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif text.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    if text[i] == "\n":
                        line += 1
                        line_start = i + 1
                    i += 1
            if depth:
                raise _fail("unterminated block comment", path, start_line)
            continue
        # raw strings r"..", r#".."#, br".."
        if c in "rb" and (text.startswith('r"', i) or text.startswith("r#", i)
                          or text.startswith('br"', i) or text.startswith("br#", i)):
            j = i + (2 if c == "b" else 1)
            hashes = 0
            while j < n and text[j] == "#":
                hashes += 1
                j += 1
            if j < n and text[j] == '"':
                close = '"' + "#" * hashes
                k = text.find(close, j + 1)
                if k < 0:
                    raise _fail("unterminated raw string", path, start_line)
                body = text[j + 1:k]
                line += body.count("\n")
                i = k + len(close)
                kind = "bytestr" if c == "b" else "str"
                val: object = body.encode() if c == "b" else body
                toks.append(Token(kind, val, text[start:i], start_line, col))
                continue
        if c == '"' or (c == "b" and text.startswith('b"', i)):
            j = i + (2 if c == "b" else 1)
            out: list[str] = []
            while True:
                if j >= n:
                    raise _fail("unterminated string literal", path, start_line)
                ch = text[j]
                if ch == '"':
                    j += 1
                    break
                if ch == "\\":
                    s, j = decode_escape(j)
                    out.append(s)
                    continue
                if ch == "\n":
                    line += 1
                    line_start = j + 1
                out.append(ch)
                j += 1
            i = j
            s = "".join(out)
            if c == "b":
                toks.append(Token("bytestr", s.encode("latin-1", "replace"), text[start:i],
                                  start_line, col))
            else:
                toks.append(Token("str", s, text[start:i], start_line, col))
            continue
        if c == "'" or (c == "b" and text.startswith("b'", i)):
            j = i + (2 if c == "b" else 1)
            if j < n and text[j] == "\\":
                s, k = decode_escape(j)
                if k >= n or text[k] != "'":
                    raise _fail("bad character literal", path, line)
                i = k + 1
                kind = "bytechar" if c == "b" else "char"
                toks.append(Token(kind, ord(s) if c == "b" else s, text[start:i], line, col))
                continue
            if j + 1 < n and text[j + 1] == "'" and text[j] != "\n":
                i = j + 2
                kind = "bytechar" if c == "b" else "char"
                toks.append(Token(kind, ord(text[j]) if c == "b" else text[j], text[start:i],
                                  line, col))
                continue
            if c == "'":
                k = j
                while k < n and (text[k].isalnum() or text[k] == "_"):
                    k += 1
                if k == j:
                    raise _fail("stray quote", path, line)
                i = k
                toks.append(Token("lifetime", text[j:k], text[start:i], line, col))
                continue
        if c.isalpha() or c == "_":
            j = i
            while j < n and (text[j].isalnum() or text[j] == "_"):
                j += 1
            word = text[i:j]
            i = j
            toks.append(Token("ident", word, word, line, col))
            continue
        if c.isdigit():
            after_dot = bool(toks) and toks[-1].is_p(".")
            j = i
            if text.startswith(("0x", "0o", "0b"), i):
                j = i + 2
                while j < n and (text[j].isalnum() or text[j] == "_"):
                    j += 1
                raw = text[i:j]
                base = {"x": 16, "o": 8, "b": 2}[raw[1]]
                digits = raw[2:].replace("_", "")
                k = 0
                valid = "0123456789abcdefABCDEF"[: base + (6 if base == 16 else 0)]
                while k < len(digits) and digits[k] in valid:
                    k += 1
                suffix = digits[k:]
                try:
                    v = int(digits[:k], base)
                except ValueError as e:
                    raise _fail(f"bad integer literal {raw!r}", path, line) from e
                toks.append(Token("int", (v, suffix or None), raw, line, col))
                i = j
                continue
            while j < n and (text[j].isdigit() or text[j] == "_"):
                j += 1
            is_float = False
            if (not after_dot and j + 1 < n and text[j] == "." and text[j + 1].isdigit()):
                is_float = True
                j += 1
                while j < n and (text[j].isdigit() or text[j] == "_"):
                    j += 1
            if not after_dot and j < n and text[j] in "eE" and is_float:
                k = j + 1
                if k < n and text[k] in "+-":
                    k += 1
                if k < n and text[k].isdigit():
                    j = k
                    while j < n and text[j].isdigit():
                        j += 1
            num = text[i:j]
            k = j
            while k < n and (text[k].isalnum() or text[k] == "_"):
                k += 1
            suffix = text[j:k]
            i = k
            if is_float or suffix in ("f32", "f64"):
                toks.append(Token("float", float(num.replace("_", "")), text[start:i], line, col))
            else:
                toks.append(Token("int", (int(num.replace("_", "")), suffix or None),
                                  text[start:i], line, col))
            continue
        for p in PUNCTS:
            if text.startswith(p, i):
                toks.append(Token("punct", p, p, line, col))
                i += len(p)
                break
        else:
            raise _fail(f"unexpected character {c!r}", path, line)
    toks.append(Token("eof", None, "", line, 1))
    return toks


def normalize_tokens(toks: list[Token]) -> str:
    """One space between tokens: comments and layout no longer matter."""
    return " ".join(t.text for t in toks if t.kind != "eof")
