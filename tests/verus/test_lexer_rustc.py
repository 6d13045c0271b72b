"""Differential test: the lexer against the real rustc (edition 2021).

Each snippet goes into a ``macro_rules!`` token-tree counter, so rustc itself says whether it
lexes the text and into how many token trees; our lexer must agree on both (a bracketed group
counts as one tree). Snippets avoid Verus-only operators (``==>``, ``&&&``; rustc glues those
differently and only Verus's parser reads them) and doc comments (rustc turns them into
``#[doc]`` attribute trees, our lexer drops them).
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from adequacy.errors import SpecInvalid
from adequacy_verus.syntax.lexer import Token, tokenize

pytestmark = [pytest.mark.slow,
              pytest.mark.requires("rustc")]

BOTH_ACCEPT = [
    'cr"\\" ; use std as ss;', 'c"x"', 'cr#"a"b"#', 'r#"a"b"#', 'r##"x"#y"##',
    'r###"abcde"####', 'b"ab"', 'br#"a"b"#', "b'x'", "b'\\xff'", "'x'", "'\\''", "'\"'",
    "'a", "'static", "'_", "'r#abc", "&'a T", "r#fn", 'r#foo"x"', "/* /* */ */ x",
    "/* // */ x", "/**/ a /***/ b", "1_000u32", "0xffu8", "0x1f32", "0o17", "0b1010",
    "5int", "1e10", "2.5E-3f64", "1f32", "1. +", "1..2", "1.max(2)", "t.0.1", "1.e5",
    "0.5e_1", "1e+5", "café", "\u212aelvin", '"a\\\n   b"', '"\\u{1F600}"', '"a"suffix',
    "'a'suffix", "1u7", "a\u200eb", "a\x0bb", "x\ry", "'\\u{10FFFF}'", "x.0.1e3",
    '"\\x7f" b"\\x80" c"\\u{e6}\\xff"', "a::b<'c>", "$x #[y] ?!", "r\"\\\"",
    "'a'b", "0e0", "00", "0_0", "1_", "1__e1", "1e1_f32", "0x_1", "1.0.0", "0..=9", "x.0 .1",
    "/*/ a */ b", "a\u2028b", "ʼa", "_", "__x", "r#_x", "'\\\\'", '"\\\\\\""', "b'\\''",
    "1.5f32x", "9" * 60, "'ǅ", "x\u00b7y", "x #!", "a-=b<<=c>>=d..=e...f",
]
BOTH_REJECT = [
    '"abc', "/* /* */", 'br#x"', '"\\q"', '"\\x80"', '"\\u{D800}"', '"\\u{110000}"',
    'b"\\u{41}"', 'b"é"', 'br"é"', 'c"a\\0"', 'cr"a\0"', "'ab'", "''", "'\t'", "b'é'", "'1",
    "'a#", "r#crate", "r#_", "'r#self", 'k"x"', "k'x'", "foo#bar", "c'x'", '"x"_', "0b102",
    "0o8", "0x", "0b_", "1e", "1.5e+", "0b1.0", "0x1.0", "0b1e3", "a \u00a0 b", "a ` b",
    "a \\ b", '"a\rb"', "'\\u{D800}'", 'r"a\rb"', "1else",
]
#: Accepted by rustc 2021 but refused here: reserved by Rust 2024, so refusing them keeps the
#: reading the same under every edition.
WE_ARE_STRICTER = ["##", '#"x"']

_COUNTER = ("macro_rules! c { () => {0usize}; ($h:tt $($t:tt)*) => {1usize + c!($($t)*)}; }\n"
            "const _: [(); 0] = [(); c!(\n{}\n)];\n")


def rustc_trees(tmp: Path, snippet: str) -> int | None:
    """Token trees rustc reads in ``snippet``, or None when it does not lex it."""
    src = tmp / "t.rs"
    src.write_bytes(_COUNTER.replace("{}", snippet, 1).encode("utf-8"))
    out = subprocess.run(["rustc", "--edition", "2021", "--crate-type", "lib",
                          "--emit=metadata", "-o", str(tmp / "t.rmeta"), str(src)],
                         capture_output=True, text=True, timeout=60)
    m = re.search(r"found one with a size of (\d+)", out.stderr)
    if m and "due to 1 previous error" in out.stderr:  # only the one deliberate error
        return int(m.group(1))
    return None


def our_trees(snippet: str) -> int | None:
    try:
        toks = tokenize(snippet, "t.rs")
    except SpecInvalid:
        return None
    depth, n = 0, 0
    for t in toks:
        if t.kind == "eof":
            break
        opens = _is(t, "([{")
        closes = _is(t, ")]}")
        if depth == 0 and not closes:
            n += 1
        depth += opens - closes
    return n


def _is(t: Token, chars: str) -> int:
    return int(t.kind == "punct" and str(t.value) in chars)


@pytest.mark.parametrize("snippet", BOTH_ACCEPT + BOTH_REJECT, ids=repr)
def test_lexer_agrees_with_rustc(snippet: str, tmp_path: Path) -> None:
    want = rustc_trees(tmp_path, snippet)
    assert (want is None) == (snippet in BOTH_REJECT), f"rustc: {want}"  # the test's own claim
    assert our_trees(snippet) == want


@pytest.mark.parametrize("snippet", WE_ARE_STRICTER, ids=repr)
def test_edition_2024_reservations_are_refused(snippet: str, tmp_path: Path) -> None:
    assert rustc_trees(tmp_path, snippet) is not None
    assert our_trees(snippet) is None


def test_shebang_removal_agrees_with_rustc(tmp_path: Path) -> None:
    """rustc drops a first line ``#!...`` (so the quote on it opens nothing), but reads
    ``#![...]`` as an inner attribute."""
    src = tmp_path / "s.rs"
    src.write_text('#!/usr/bin/env x "\nfn f() {}\n// "\n')
    ok = subprocess.run(["rustc", "--edition", "2021", "--crate-type", "lib", "--emit=metadata",
                         "-o", str(tmp_path / "s.rmeta"), str(src)], capture_output=True,
                        text=True, timeout=60)
    assert ok.returncode == 0, ok.stderr
    assert [t.text for t in tokenize(src.read_text())][:2] == ["fn", "f"]


def test_random_snippets_agree_with_rustc(tmp_path: Path) -> None:
    """Seeded random text over the characters that make lexers disagree (quotes, hashes,
    backslashes, prefixes, comment marks, digits, CR): same verdict and tree count as rustc."""
    import random

    rng = random.Random(20261201)
    alphabet = list("r#\"'\\bc/*10.ex_a \nu+-!n\rf32") + ["é"]
    checked, mismatches = 0, []
    while checked < 80:
        s = "".join(rng.choice(alphabet) for _ in range(rng.randint(2, 14)))
        ours = our_trees(s)
        if ours == 0 or s.startswith("#!"):  # an empty macro call proves nothing
            continue
        if ours is None and _refused_for_2024(s):  # deliberately stricter (see above)
            continue
        checked += 1
        want = rustc_trees(tmp_path, s)
        if want != ours:
            mismatches.append((s, want, ours))
    assert mismatches == []


def _refused_for_2024(s: str) -> bool:
    try:
        tokenize(s)
    except SpecInvalid as e:
        return "Rust 2024" in e.message
    return False
