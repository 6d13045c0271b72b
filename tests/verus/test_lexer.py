"""The Verus front end's lexer reads exactly rustc's tokens (Rust 2021).

Expected tokens were worked out by hand from the Rust Reference (chapters "Input format",
"Tokens", "Comments", "Identifiers", "Whitespace") and rustc's ``rustc_lexer`` (``number``,
``lifetime_or_char``, ``raw_double_quoted_string``, ``block_comment``, ``strip_shebang``); the
reserved forms follow the Reference's "Reserved prefixes" and the Rust 2024 guarded strings.
"""

from __future__ import annotations

import pytest

from adequacy.errors import SpecInvalid
from adequacy_verus.syntax.lexer import tokenize


def kinds(text: str) -> list[tuple[str, object]]:
    return [(t.kind, t.value) for t in tokenize(text, "t.rs") if t.kind != "eof"]


def texts(text: str) -> list[str]:
    return [t.text for t in tokenize(text, "t.rs") if t.kind != "eof"]


# ---------------------------------------------------------------- strings of every form

@pytest.mark.parametrize(("src", "kind", "value"), [
    ('"a\\"b"', "str", 'a"b'),
    ('"\\\\"', "str", "\\"),
    ('"\\x41\\u{1F600}\\n\\t\\0\\\'"', "str", "A\U0001F600\n\t\0'"),
    ('"a\\\n    b"', "str", "ab"),  # string continuation skips the newline and indentation
    ('r"a\\b"', "str", "a\\b"),  # no escapes in raw strings
    ('r#"he said "hi""#', "str", 'he said "hi"'),
    ('r##"a"#b"##', "str", 'a"#b'),
    ('b"a\\xff"', "bytestr", b"a\xff"),
    ('br#"a"b"#', "bytestr", b'a"b'),
    ('c"ab\\xff\\u{e6}"', "cstr", b"ab\xff\xc3\xa6"),
    ('cr"\\"', "cstr", b"\\"),  # the backslash is content: the literal ends at the 2nd quote
    ('cr##"x"#y"##', "cstr", b'x"#y'),
])
def test_string_forms(src: str, kind: str, value: object) -> None:
    assert kinds(src) == [(kind, value)]


def test_a_raw_string_ends_at_the_first_quote_with_as_many_hashes() -> None:
    # Reference: `r###"abcde"####` is a raw string with 3 hashes followed by a `#` token
    assert texts('r###"abcde"####') == ['r###"abcde"###', "#"]


def test_raw_string_hash_limit() -> None:
    ok = "r" + "#" * 255 + '"x"' + "#" * 255
    assert kinds(ok) == [("str", "x")]
    with pytest.raises(SpecInvalid, match="255"):
        tokenize("r" + "#" * 256 + '"x"' + "#" * 256)


def test_what_follows_a_raw_c_string_is_code() -> None:
    toks = tokenize('cr"\\";\nuse std as ss;\n// "', "t.rs")
    assert [(t.text, t.line) for t in toks[:6]] == [
        ('cr"\\"', 1), (";", 1), ("use", 2), ("std", 2), ("as", 2), ("ss", 2)]


# ---------------------------------------------------------------- chars, bytes, lifetimes

@pytest.mark.parametrize(("src", "expected"), [
    ("'x'", [("char", "x")]),
    ("'\\''", [("char", "'")]),
    ("'\"'", [("char", '"')]),
    ("'\\u{1F600}'", [("char", "\U0001F600")]),
    ("b'x'", [("bytechar", 120)]),
    ("b'\\xff'", [("bytechar", 255)]),
    ("b'\"'", [("bytechar", 34)]),
    ("'a", [("lifetime", "a")]),
    ("'static", [("lifetime", "static")]),
    ("'_", [("lifetime", "_")]),
    ("'r#fn", [("lifetime", "fn")]),
    ("&'a T", [("punct", "&"), ("lifetime", "a"), ("ident", "T")]),
    ("'a: loop", [("lifetime", "a"), ("punct", ":"), ("ident", "loop")]),
])
def test_chars_bytes_and_lifetimes(src: str, expected: list[tuple[str, object]]) -> None:
    assert kinds(src) == expected


def test_lifetime_is_not_the_start_of_a_char_literal() -> None:
    toks = tokenize("fn f(x: &'a i32) {}\nfn g() {}\n// '", "t.rs")
    assert ("fn", 2) in [(t.text, t.line) for t in toks]


# ---------------------------------------------------------------- comments

def test_nested_block_comments_close_one_level_at_a_time() -> None:
    assert texts("a /* x /* y */ z */ b") == ["a", "b"]
    assert texts("/* // */ fn") == ["fn"]  # `//` inside a block comment is just text
    assert texts("/**/ a /***/ b /*/ x */ c") == ["a", "b", "c"]


def test_doc_comments_are_not_code_and_keep_lines() -> None:
    toks = tokenize("/// doc\n//! inner\n/** outer */\n/*! inner\n block */\nfn f", "t.rs")
    assert [(t.text, t.line) for t in toks[:2]] == [("fn", 6), ("f", 6)]


# ---------------------------------------------------------------- input format

def test_shebang_line_is_dropped_but_an_inner_attribute_is_not() -> None:
    toks = tokenize('#!/usr/bin/env run "\nfn f\n', "t.rs")
    assert [(t.text, t.line) for t in toks[:2]] == [("fn", 2), ("f", 2)]
    assert texts("#![allow(x)]")[:3] == ["#", "!", "["]
    assert texts("#! // c\n [a]")[:2] == ["#", "!"]  # comments skipped before the `[`


def test_bom_crlf_and_bare_cr() -> None:
    toks = tokenize("\ufeffa\r\nb\rc", "t.rs")
    assert [(t.text, t.line) for t in toks[:3]] == [("a", 1), ("b", 2), ("c", 2)]
    with pytest.raises(SpecInvalid, match="bare CR"):
        tokenize('"a\rb"')
    with pytest.raises(SpecInvalid, match="bare CR"):
        tokenize("/// doc\r\n/// more\rx\nfn")
    assert kinds('"a\r\nb"') == [("str", "a\nb")]  # CRLF was normalised first


# ---------------------------------------------------------------- numbers

@pytest.mark.parametrize(("src", "expected"), [
    ("1_000u32", [("int", (1000, "u32"))]),
    ("0xffu8", [("int", (255, "u8"))]),
    ("0x1f32", [("int", (0x1F32, None))]),  # hex digits, not an f32 suffix
    ("0o17", [("int", (15, None))]),
    ("0b1010_1010", [("int", (170, None))]),
    ("5int", [("int", (5, "int"))]),
    ("1e10", [("float", 1e10)]),
    ("2.5E-3f64", [("float", 2.5e-3)]),
    ("1f32", [("float", 1.0)]),
    ("1.", [("float", 1.0)]),
    ("1..2", [("int", (1, None)), ("punct", ".."), ("int", (2, None))]),
    ("1.max(2)", [("int", (1, None)), ("punct", "."), ("ident", "max"), ("punct", "("),
                  ("int", (2, None)), ("punct", ")")]),
    ("t.0.1", [("ident", "t"), ("punct", "."), ("float", 0.1)]),
])
def test_numbers(src: str, expected: list[tuple[str, object]]) -> None:
    assert kinds(src) == expected


# ---------------------------------------------------------------- identifiers

def test_identifiers_are_nfc_and_raw_identifiers_keep_their_name() -> None:
    assert kinds("caf\u00e9 \u212aelvin") == [("ident", "café"), ("ident", "Kelvin")]
    [t] = tokenize("r#fn", "t.rs")[:1]
    assert (t.kind, t.value, t.raw, t.is_kw("fn")) == ("ident", "fn", True, False)
    assert kinds("r#foo\"x\"") == [("ident", "foo"), ("str", "x")]


# ---------------------------------------------------------------- what rustc rejects

@pytest.mark.parametrize(("src", "why"), [
    ('"abc', "unterminated"),
    ("/* /* */", "unterminated"),
    ('r#"abc"', "unterminated"),
    ('r#x"', None),  # `r#x` is a raw identifier, then an unterminated string
    ('br#x"', "raw string"),
    ('"\\q"', "unknown escape"),
    ('"\\x80"', "out of range"),
    ('"\\u{D800}"', "not a character"),
    ('"\\u{110000}"', "not a character"),
    ('"\\u{1234567}"', "unicode escape"),
    ('b"\\u{41}"', "byte"),
    ('b"é"', "non-ASCII"),
    ('br"é"', "non-ASCII"),
    ('c"a\\0"', "NUL"),
    ('cr"a\0"', "NUL"),
    ("'ab'", "one character"),
    ("''", "stray"),
    ("'\n'", "unterminated"),
    ("'\t'", "escape"),
    ("b'é'", "non-ASCII"),
    ("'1", "stray"),
    ("'a#", "reserved"),
    ("'r#crate", "raw lifetime"),
    ("r#crate", "raw identifier"),
    ("r#_", "raw identifier"),
    ('k"x"', "reserved"),
    ("k'x'", "reserved"),
    ("foo#bar", "reserved"),
    ('c\'x\'', "reserved"),
    ('#"x"', "reserved"),
    ("##", "reserved"),
    ('"x"_', "suffix"),
    ("0b102", "invalid digit"),
    ("0o8", "invalid digit"),
    ("0x", "missing digits"),
    ("0b_", "missing digits"),
    ("1e", "exponent"),
    ("1.5e+", "exponent"),
    ("1else", "exponent"),
    ("0b1.0", "binary float"),
    ("0x1.0", "hexadecimal float"),
    ("0b1e3", "binary float"),
    ("0x1f64.0", "hexadecimal float"),
    ("1" * 1001, "more than 1000 digits"),
    ("a \u00a0 b", "unexpected character"),  # NO-BREAK SPACE is not Pattern_White_Space
    ("a \\ b", "unexpected character"),
    ("a ` b", "unexpected character"),
    ("a \u202e b", "text-direction"),
    ("// \u2066 x\n", "text-direction"),
    ('"\u202d"', "text-direction"),
    ("// \udc80", "UTF-8"),  # a lone surrogate (surrogateescape) is not UTF-8 text
])
def test_what_rustc_rejects_is_rejected_with_the_line(src: str, why: str | None) -> None:
    text = "ok\n" + src
    with pytest.raises(SpecInvalid) as e:
        tokenize(text, "t.rs")
    assert e.value.file == "t.rs" and e.value.line == 2, e.value
    if why:
        assert why.lower() in e.value.message.lower(), e.value


def test_pattern_white_space_is_whitespace() -> None:
    # U+200E/U+200F (direction marks) and U+2028/U+2029 separate tokens for rustc
    assert texts("a\u200eb\u2028c\x0bd") == ["a", "b", "c", "d"]
