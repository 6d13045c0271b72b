"""Where task and study files report an error: the line of a key, worked out by hand."""

from __future__ import annotations

from adequacy.toml_lines import key_line, line_of

TEXT = """\
id = "t"
language = "verus"

[signature]
x = "int"
out.kind = "int"

[signature.extra]
x = "bool"

[[writers]]
name = "a"

[[writers]]
"name" = "b"
"""


def test_key_line_anywhere_and_in_a_table() -> None:
    assert key_line(TEXT, "id") == 1
    assert key_line(TEXT, "x") == 5
    assert key_line(TEXT, "x", "signature") == 5
    assert key_line(TEXT, "x", "signature.extra") == 9
    assert key_line(TEXT, "out", "signature") == 6  # a dotted key starts with it
    assert key_line(TEXT, "id", "signature") is None  # not inside that table
    assert key_line(TEXT, "nope") is None


def test_key_line_of_a_table_header() -> None:
    assert key_line(TEXT, "[signature]") == 4
    assert key_line(TEXT, "[signature.extra]") == 8
    assert key_line(TEXT, "[missing]") is None


def test_line_of_a_validation_location_with_array_tables() -> None:
    assert line_of(TEXT, ("writers", 1, "name")) == 15  # the second entry, quoted key
    assert line_of(TEXT, ("writers", 0, "name")) == 12
    assert line_of(TEXT, ("writers", 1, "model")) == 14  # deepest key found: the entry
    assert line_of(TEXT, ("nothing",)) is None
