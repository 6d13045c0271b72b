"""Tokenizer for Rust/Verus source, following rustc's lexer (edition 2021) token for token.

Specs are hostile input that ends up in front of rustc (the exec_spec engine compiles them), so
the policy checker must read exactly the tokens rustc reads. A lexer that is lenient or merely
approximate is a hole: if it takes the text after ``cr"\\"`` for the inside of a string while
rustc has already closed the raw C string, code hides from the policy. Hence:

- every literal form is lexed with rustc's extents: strings, raw strings with up to 255 ``#``,
  byte, byte-string, C-string and raw C-string literals, char and byte literals, lifetimes and
  labels (``'a`` vs ``'a'``), raw identifiers, numbers with bases, exponents and suffixes,
  nested block comments and doc comments, the shebang line, a leading byte order mark and
  CRLF pairs;
- whatever rustc rejects while lexing (bad escapes, bare CR in strings, unknown characters,
  reserved prefixes such as ``foo"..."`` or ``foo#``, ``'ab'``, bidi control characters, empty
  or malformed numbers ...) is rejected here too, with file:line; a few forms that only a later
  edition reserves (``#"``, ``##``) are rejected as well, so the reading never depends on the
  edition.

The rules follow the Rust Reference's lexical chapters and rustc's ``rustc_lexer``; the
cross-checked model of mattheww/lexeywan settled the corner cases (greedy nesting of block
comments, NFC-normalised identifiers, reserved single-quoted forms).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Any

from adequacy.plugin import SpecInvalid

# Longest first: the lexer takes the first entry that matches. rustc lexes single characters and
# glues adjacent ones in the parser; taking the longest run of adjacent characters is the same.
PUNCTS = [
    "<==>", "=~~=", "..=", "...", "==>", "<==", "=~=", "===", "!==", "&&&", "|||", "<<=", ">>=",
    "::", "->", "=>", "==", "!=", "<=", ">=", "&&", "||", "<<", ">>", "+=", "-=", "*=", "/=",
    "%=", "^=", "&=", "|=", "..",
    "+", "-", "*", "/", "%", "^", "!", "&", "|", "=", "<", ">", "@", ".", ",", ";", ":", "#",
    "$", "?", "~", "(", ")", "[", "]", "{", "}",
]
_PUNCT_BY_FIRST = {c: [p for p in PUNCTS if p[0] == c] for c in {p[0] for p in PUNCTS}}

#: Unicode Pattern_White_Space: what rustc skips between tokens (not Python's ``isspace``).
WHITESPACE = frozenset("\t\n\x0b\x0c\r \x85\u200e\u200f\u2028\u2029")
#: Text-direction controls: rustc denies them in comments and literals and cannot lex them
#: elsewhere; they make source read differently from what compiles.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
#: ``r#`` cannot make these identifiers (rustc rejects them).
NO_RAW = frozenset({"_", "crate", "self", "super", "Self"})

_SIMPLE_ESCAPES = {"0": "\0", "t": "\t", "n": "\n", "r": "\r", '"': '"', "'": "'", "\\": "\\"}
_HEX = frozenset("0123456789abcdefABCDEF")
_MAX_INT_DIGITS = 1000
#: Fast path only: a run of ASCII identifier characters (non-ASCII goes through XID checks).
_ASCII_IDENT_RUN = re.compile(r"[A-Za-z0-9_]*")


@dataclass(slots=True)
class Token:
    kind: str
    """ident | int | float | char | str | bytestr | cstr | bytechar | lifetime | punct | eof"""
    value: Any
    """Decoded value: identifier (NFC), (int, suffix), float, str, bytes, int (byte), punct."""
    text: str
    """Source text, used for normalisation and messages."""
    line: int
    col: int
    raw: bool = False
    """``r#ident`` identifiers and ``r"..."`` strings."""
    suffix: str | None = None
    """Literal suffix (``u8`` in ``5u8``, ``x`` in ``"a"x``)."""
    start: int = -1
    """Offset of the token's first character in the lexed text (-1: made by the parser), so
    a tool can edit the text at a node (spec mutants) and leave the rest as written."""

    def is_p(self, p: str) -> bool:
        return self.kind == "punct" and self.value == p

    def is_kw(self, k: str) -> bool:
        return self.kind == "ident" and self.value == k and not self.raw


def is_id_start(c: str) -> bool:
    """XID_Start or ``_``, from Python's Unicode database. Python 3.11 knows Unicode 14, rustc a
    later version; XID properties are stable across versions, so characters assigned since are
    refused here although rustc takes them: stricter, never a different reading."""
    if c < "\x80":
        return c.isalpha() or c == "_"
    return c.isidentifier()  # XID_Start


def is_id_continue(c: str) -> bool:
    if c < "\x80":
        return c.isalnum() or c == "_"
    return ("a" + c).isidentifier()  # XID_Continue


class _Lexer:
    def __init__(self, text: str, path: str | None) -> None:
        # Input format (Reference "Input format"): UTF-8 (a str holding lone surrogates, as
        # surrogateescape decoding makes, is not), BOM removal, then CRLF normalisation.
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as e:
            line = text.count("\n", 0, e.start) + 1
            raise SpecInvalid("the file is not valid UTF-8", file=path, line=line) from None
        if text.startswith("\ufeff"):
            text = text[1:]
        self.text = text.replace("\r\n", "\n")
        self.n = len(self.text)
        self.path = path
        self.toks: list[Token] = []
        self.line = 1
        self.line_start = 0

    # ------------------------------------------------------------ helpers
    def at(self, j: int) -> str:
        return self.text[j] if j < self.n else ""

    def fail(self, msg: str, line: int | None = None) -> SpecInvalid:
        return SpecInvalid(msg, file=self.path, line=line or self.line)

    def advance_lines(self, start: int, end: int) -> None:
        """Account for newlines inside a multi-line token or comment."""
        k = self.text.count("\n", start, end)
        if k:
            self.line += k
            self.line_start = self.text.rindex("\n", start, end) + 1

    def ident_end(self, j: int) -> int:
        while True:
            m = _ASCII_IDENT_RUN.match(self.text, j)
            j = m.end() if m else j
            if j < self.n and self.text[j] >= "\x80" and is_id_continue(self.text[j]):
                j += 1
                continue
            return j

    def suffix_end(self, j: int) -> int:
        return self.ident_end(j + 1) if j < self.n and is_id_start(self.text[j]) else j

    # ------------------------------------------------------------ driver
    def run(self) -> list[Token]:
        i = self.shebang_end()
        text, n = self.text, self.n
        while i < n:
            c = text[i]
            if c == "\n":
                self.line += 1
                self.line_start = i + 1
                i += 1
                continue
            if c in WHITESPACE:
                i += 1
                while i < n and text[i] == " ":
                    i += 1
                continue
            if c in BIDI_CONTROLS:
                raise self.fail(f"text-direction control character U+{ord(c):04X} is not "
                                "allowed (rustc rejects it)")
            if c == "/" and self.at(i + 1) == "/":
                i = self.line_comment(i)
            elif c == "/" and self.at(i + 1) == "*":
                i = self.block_comment(i)
            elif c == "r" and self.at(i + 1) == "#" and is_id_start(self.at(i + 2)):
                i = self.raw_ident(i)
            elif c == "r" and self.at(i + 1) in ('"', "#"):
                i = self.raw_string(i, i, "str")
            elif c == "b" and self.at(i + 1) == "'":
                i = self.quoted(i, i + 1, "bytechar")
            elif c == "b" and self.at(i + 1) == '"':
                i = self.quoted(i, i + 1, "bytestr")
            elif c == "b" and self.at(i + 1) == "r" and self.at(i + 2) in ('"', "#"):
                i = self.raw_string(i, i + 1, "bytestr")
            elif c == "c" and self.at(i + 1) == '"':
                i = self.quoted(i, i + 1, "cstr")
            elif c == "c" and self.at(i + 1) == "r" and self.at(i + 2) in ('"', "#"):
                i = self.raw_string(i, i + 1, "cstr")
            elif is_id_start(c):
                i = self.ident(i)
            elif "0" <= c <= "9":
                i = self.number(i)
            elif c == "'":
                i = self.lifetime_or_char(i)
            elif c == '"':
                i = self.quoted(i, i, "str")
            elif c == "#" and self.at(i + 1) in ('"', "#"):
                raise self.fail(f"'#{self.at(i + 1)}' is reserved (Rust 2024 guarded string "
                                "literals); separate the tokens")
            elif c in _PUNCT_BY_FIRST:
                for p in _PUNCT_BY_FIRST[c]:
                    if text.startswith(p, i):
                        self.toks.append(Token("punct", p, p, self.line, i - self.line_start + 1,
                                               start=i))
                        i += len(p)
                        break
            else:
                raise self.fail(f"unexpected character {c!r} (U+{ord(c):04X})")
        self.toks.append(Token("eof", None, "", self.line, 1, start=len(self.text)))
        return self.toks

    def add(self, kind: str, value: object, start: int, end: int, line: int, col: int,
            raw: bool = False, suffix: str | None = None) -> int:
        self.toks.append(Token(kind, value, self.text[start:end], line, col, raw, suffix, start))
        return end

    # ------------------------------------------------------------ shebang and comments
    def shebang_end(self) -> int:
        """Reference "Shebang removal": a first line ``#!...`` is dropped unless the next token
        after ``#!`` (skipping whitespace and non-doc comments) is ``[`` (an inner attribute)."""
        text = self.text
        if not text.startswith("#!"):
            return 0
        j = 2
        while j < self.n:
            if text[j] in WHITESPACE:
                j += 1
            elif text.startswith("//", j) and not (text.startswith(("///", "//!"), j)
                                                   and not text.startswith("////", j)):
                k = text.find("\n", j)
                j = self.n if k < 0 else k
            elif text.startswith("/*", j) and not self.block_is_doc(j):
                j = self.block_comment_end(j)
                if j < 0:
                    break
            else:
                break
        if j < self.n and text[j] == "[":
            return 0
        k = text.find("\n")
        return self.n if k < 0 else k

    def line_comment(self, i: int) -> int:
        k = self.text.find("\n", i)
        end = self.n if k < 0 else k
        body = self.text[i + 2:end]
        doc = (body.startswith("/") and not body.startswith("//")) or body.startswith("!")
        self.check_comment_text(body, doc)
        return end

    def block_is_doc(self, i: int) -> bool:
        nxt, nxt2 = self.at(i + 2), self.at(i + 3)
        return nxt == "!" or (nxt == "*" and nxt2 not in ("*", "/"))

    def block_comment_end(self, i: int) -> int:
        """End of the block comment at ``i`` (nested, matched greedily as rustc does), or -1."""
        text, depth, j = self.text, 1, i + 2
        while j < self.n:
            if text.startswith("/*", j):
                depth += 1
                j += 2
            elif text.startswith("*/", j):
                depth -= 1
                j += 2
                if depth == 0:
                    return j
            else:
                j += 1
        return -1

    def block_comment(self, i: int) -> int:
        end = self.block_comment_end(i)
        if end < 0:
            raise self.fail("unterminated block comment")
        self.check_comment_text(self.text[i + 2:end - 2], self.block_is_doc(i))
        self.advance_lines(i, end)
        return end

    def check_comment_text(self, body: str, doc: bool) -> None:
        for ch in BIDI_CONTROLS:
            if ch in body:
                raise self.fail(f"text-direction control character U+{ord(ch):04X} in a comment "
                                "(rustc denies it)")
        if doc and "\r" in body:
            raise self.fail("bare CR in a doc comment (rustc rejects it)")

    # ------------------------------------------------------------ identifiers and lifetimes
    def raw_ident(self, i: int) -> int:
        line, col = self.line, i - self.line_start + 1
        end = self.ident_end(i + 3)
        name = unicodedata.normalize("NFC", self.text[i + 2:end])
        if name in NO_RAW:
            raise self.fail(f"'r#{name}' is not a valid raw identifier")
        return self.add("ident", name, i, end, line, col, raw=True)

    def ident(self, i: int) -> int:
        line, col = self.line, i - self.line_start + 1
        end = self.ident_end(i + 1)
        word = self.text[i:end]
        nxt = self.at(end)
        if nxt in ('"', "'", "#"):
            raise self.fail(f"prefix '{word}' before {nxt!r} is reserved since Rust 2021 "
                            "(put a space after the identifier)")
        return self.add("ident", unicodedata.normalize("NFC", word), i, end, line, col)

    def lifetime_or_char(self, i: int) -> int:
        nxt, nxt2 = self.at(i + 1), self.at(i + 2)
        if nxt == "\\" or (nxt2 == "'" and nxt not in ("", "'")):
            return self.quoted(i, i, "char")
        line, col = self.line, i - self.line_start + 1
        if nxt == "r" and nxt2 == "#" and is_id_start(self.at(i + 3)):
            end = self.ident_end(i + 4)
            name = self.text[i + 3:end]
            if name in NO_RAW:
                raise self.fail(f"'r#{name} is not a valid raw lifetime")
            raw = True
        elif is_id_start(nxt):
            end = self.ident_end(i + 2)
            name, raw = self.text[i + 1:end], False
        else:
            raise self.fail("stray quote: not a character literal nor a lifetime "
                            f"(found {self.text[i:i + 3]!r})")
        if self.at(end) == "'":
            raise self.fail(f"character literal {self.text[i:end + 1]!r} may only contain one "
                            "character")
        if self.at(end) == "#":
            raise self.fail(f"lifetime prefix {self.text[i:end + 1]!r} is reserved")
        return self.add("lifetime", name, i, end, line, col, raw=raw)

    # ------------------------------------------------------------ quoted literals
    def quoted(self, start: int, q: int, kind: str) -> int:
        """A non-raw literal whose opening quote is at ``q``: ``'..'``, ``b'..'``, ``".."``,
        ``b".."`` or ``c".."``. Extent as rustc: a backslash always takes the next character."""
        text, quote = self.text, self.text[q]
        line, col = self.line, start - self.line_start + 1
        j = q + 1
        while True:
            if j >= self.n or (quote == "'" and text[j] == "\n"):
                what = "character" if quote == "'" else "string"
                raise self.fail(f"unterminated {what} literal", line)
            ch = text[j]
            if ch == quote:
                break
            j += 2 if ch == "\\" else 1
        body = text[q + 1:j]
        end = self.suffix_end(j + 1)
        suffix = text[j + 1:end] or None
        if suffix == "_":
            raise self.fail("'_' is not a valid literal suffix", line)
        self.check_literal_text(body, line)
        value = self.unescape(body, kind, line)
        self.advance_lines(start, end)
        return self.add(kind, value, start, end, line, col, suffix=suffix)

    def check_literal_text(self, body: str, line: int) -> None:
        for ch in BIDI_CONTROLS:
            if ch in body:
                raise self.fail(f"text-direction control character U+{ord(ch):04X} in a literal "
                                "(rustc denies it)", line)
        if "\r" in body:
            raise self.fail("bare CR in a literal (write \\r)", line)

    def unescape(self, body: str, kind: str, line: int) -> object:
        """Decode escapes as rustc does for ``kind``; anything rustc refuses is refused."""
        is_bytes = kind in ("bytechar", "bytestr")
        single = kind in ("char", "bytechar")
        out: list[int | str] = []
        j, n = 0, len(body)
        while j < n:
            ch = body[j]
            if ch != "\\":
                if single and ch in "\n\t":
                    raise self.fail(f"a {kind} literal must escape {ch!r}", line)
                if is_bytes and ord(ch) > 127:
                    raise self.fail(f"non-ASCII character {ch!r} in a byte literal", line)
                if single and ch == "'":
                    raise self.fail("a character literal must escape \"'\"", line)
                out.append(ch)
                j += 1
                continue
            e = body[j + 1:j + 2]
            if e in _SIMPLE_ESCAPES:
                out.append(_SIMPLE_ESCAPES[e])
                j += 2
            elif e == "x":
                hx = body[j + 2:j + 4]
                if len(hx) != 2 or not all(h in _HEX for h in hx):
                    raise self.fail(f"bad escape {body[j:j + 4]!r} (\\x needs two hex digits)",
                                    line)
                v = int(hx, 16)
                if v > 0x7F and kind in ("char", "str"):
                    raise self.fail(f"escape {body[j:j + 4]!r} is out of range (at most \\x7f "
                                    "in a character or string)", line)
                out.append(v if kind in ("bytechar", "bytestr", "cstr") else chr(v))
                j += 4
            elif e == "u":
                if is_bytes:
                    raise self.fail("unicode escape in a byte literal", line)
                k = j + 2
                if body[k:k + 1] != "{":
                    raise self.fail("bad unicode escape (expected \\u{...})", line)
                close = body.find("}", k)
                digits = body[k + 1:close] if close > 0 else ""
                hexd = digits.replace("_", "")
                if (close < 0 or not digits or digits[0] == "_" or not 1 <= len(hexd) <= 6
                        or not all(h in _HEX for h in hexd)):
                    raise self.fail(f"bad unicode escape {body[j:close + 1]!r}", line)
                v = int(hexd, 16)
                if v > 0x10FFFF or 0xD800 <= v <= 0xDFFF:
                    raise self.fail(f"unicode escape {body[j:close + 1]!r} is not a character",
                                    line)
                out.append(chr(v))
                j = close + 1
            elif e == "\n" and not single:
                j += 2
                while j < n and body[j] in "\t\n\r ":
                    j += 1
            else:
                raise self.fail(f"unknown escape '\\{e}'", line)
        if single:
            if len(out) != 1:
                raise self.fail(f"a {kind} literal must hold exactly one character", line)
            v0 = out[0]
            return v0 if isinstance(v0, int) or kind == "char" else ord(v0)
        if kind == "str":
            return "".join(str(x) for x in out)
        data = bytearray()
        for x in out:
            if isinstance(x, int):
                data.append(x)
            else:
                data.extend(x.encode("utf-8"))
        if kind == "cstr" and 0 in data:
            raise self.fail("a C string literal cannot contain a NUL byte", line)
        return bytes(data)

    def raw_string(self, start: int, r: int, kind: str) -> int:
        """``r"..."``, ``r#"..."#`` (up to 255 ``#``), ``br..``, ``cr..`` (``r`` at index ``r``):
        no escapes at all; the first ``"`` followed by as many ``#`` as opened ends it."""
        text = self.text
        line, col = self.line, start - self.line_start + 1
        j = r + 1
        while j < self.n and text[j] == "#":
            j += 1
        hashes = j - r - 1
        if self.at(j) != '"':
            raise self.fail(f"bad raw string: expected '\"' after {text[start:j]!r}")
        if hashes > 255:
            raise self.fail("a raw string may have at most 255 '#'")
        close = '"' + "#" * hashes
        k = text.find(close, j + 1)
        if k < 0:
            raise self.fail("unterminated raw string literal")
        body = text[j + 1:k]
        end = self.suffix_end(k + len(close))
        suffix = text[k + len(close):end] or None
        if suffix == "_":
            raise self.fail("'_' is not a valid literal suffix")
        self.check_literal_text(body, line)
        value: object = body
        if kind == "bytestr":
            if any(ord(ch) > 127 for ch in body):
                raise self.fail("non-ASCII character in a raw byte string", line)
            value = body.encode("ascii")
        elif kind == "cstr":
            if "\0" in body:
                raise self.fail("a C string literal cannot contain a NUL byte", line)
            value = body.encode("utf-8")
        self.advance_lines(start, end)
        return self.add(kind, value, start, end, line, col, raw=True, suffix=suffix)

    # ------------------------------------------------------------ numbers
    def digits(self, j: int, allowed: str) -> tuple[int, bool]:
        """Skip digits of ``allowed`` and underscores; (end, saw a digit)."""
        seen = False
        while j < self.n and (self.text[j] in allowed or self.text[j] == "_"):
            seen = True if self.text[j] != "_" else seen
            j += 1
        return j, seen

    def number(self, i: int) -> int:
        """rustc_lexer's ``number``: base prefix, digits, then a fraction and/or exponent only
        where they cannot be a range (``1..2``) or a method call (``1.max(2)``)."""
        text = self.text
        line, col = self.line, i - self.line_start + 1
        dec = "0123456789"
        base, j = 10, i + 1
        if text[i] == "0" and self.at(i + 1) in ("b", "o", "x"):
            base = {"b": 2, "o": 8, "x": 16}[text[i + 1]]
            j, seen = self.digits(i + 2, "0123456789abcdefABCDEF" if base == 16 else dec)
            if not seen:
                raise self.fail(f"missing digits after the integer base prefix "
                                f"{text[i:i + 2]!r}")
        else:
            j, _ = self.digits(j, dec)
        is_float = False
        empty_exponent = False
        nxt, nxt2 = self.at(j), self.at(j + 1)
        if nxt == "." and nxt2 != "." and not is_id_start(nxt2):
            is_float = True
            j += 1
            if "0" <= self.at(j) <= "9":
                j, _ = self.digits(j, dec)
                if self.at(j) in ("e", "E"):
                    j, empty_exponent = self.exponent(j + 1)
        elif nxt in ("e", "E") and base != 16:
            is_float = True
            j, empty_exponent = self.exponent(j + 1)
        body = text[i:j]
        end = self.suffix_end(j)
        suffix = text[j:end] or None
        if is_float and base != 10:
            raise self.fail(f"{ {2: 'binary', 8: 'octal', 16: 'hexadecimal'}[base]} float "
                            f"literal {text[i:end]!r} is not supported")
        if empty_exponent:
            raise self.fail(f"expected at least one digit in the exponent of {text[i:end]!r}")
        if is_float or suffix in ("f32", "f64"):
            if base != 10:
                raise self.fail(f"{text[i:end]!r}: a float suffix needs a decimal literal")
            try:
                fv = float(body.replace("_", "").rstrip("."))
            except ValueError as e:  # pragma: no cover - the grammar above makes this valid
                raise self.fail(f"bad float literal {text[i:end]!r}") from e
            return self.add("float", fv, i, end, line, col, suffix=suffix)
        digits = body[2:] if base != 10 else body
        digits = digits.replace("_", "")
        bad = [d for d in digits if int(d, 16) >= base]
        if bad:
            raise self.fail(f"invalid digit {bad[0]!r} for a base {base} literal "
                            f"{text[i:end]!r}")
        if len(digits) > _MAX_INT_DIGITS:
            raise self.fail(f"integer literal with more than {_MAX_INT_DIGITS} digits")
        return self.add("int", (int(digits, base), suffix), i, end, line, col, suffix=suffix)

    def exponent(self, j: int) -> tuple[int, bool]:
        """After ``e``: optional sign, then digits (underscores allowed); (end, empty?)."""
        if self.at(j) in ("+", "-"):
            j += 1
        end, seen = self.digits(j, "0123456789")
        return end, not seen


def tokenize(text: str, path: str | None = None) -> list[Token]:
    """Split ``text`` into tokens as rustc does; comments and whitespace vanish.

    Raises ``SpecInvalid`` (file:line) on anything rustc would not lex the same way."""
    return _Lexer(text, path).run()


def normalize_tokens(toks: list[Token]) -> str:
    """One space between tokens: comments and layout no longer matter."""
    return " ".join(t.text for t in toks if t.kind != "eof")
