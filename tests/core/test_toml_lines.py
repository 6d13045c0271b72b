"""Where task and study files report an error: the line of a key, worked out by hand."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

from adequacy.examples import bundled_folder
from adequacy.model.toml_lines import key_line, key_lines, line_of
from adequacy.taskdirs.load import check_task

ABS = bundled_folder("jml") / "abs_value"

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


# A '[' line with no ']' is valid TOML inside a multi-line string. The earlier header patterns
# (``\[\s*([^\]]+?)\s*\]``) backtracked cubically on it: measured 3.8 s for 2,000 spaces on
# key_lines and 38 s for 3,000 on `adequacy task validate` (every error's line looks it up
# again), so a task file of a few kB could stall validation, `score` and the gym's check for
# hours. The bounds below are ~20x what the linear patterns need on a loaded machine and far
# under what the old ones took (30+ s at 4,000).
HOSTILE = ['x = """\n[' + " " * 4000 + 'y\n"""\n',
           'x = """\n[[' + " " * 4000 + 'y]\n"""\n']


@pytest.mark.parametrize("text", HOSTILE)
def test_key_lines_is_linear_on_an_unclosed_header_line(text: str) -> None:
    start = time.monotonic()
    key_lines(text)
    assert time.monotonic() - start < 2.0


def test_headers_keep_their_names_with_spaces() -> None:
    text = "[ a . b ]\nx = 1\n[[ c ]]\ny = 2\n"
    assert key_line(text, "[a.b]") == 1
    assert key_line(text, "x", "a.b") == 2
    assert line_of(text, ("c", 0, "y")) == 4


def test_task_validation_with_an_unclosed_header_in_a_string(tmp_path: Path) -> None:
    d = tmp_path / "abs_value"
    shutil.copytree(ABS, d, ignore=shutil.ignore_patterns("specs"))
    toml = d / "task.toml"
    text = toml.read_text()
    assert 'title = "Absolute value of an int"' in text and "[jml]\n" in text
    text = text.replace('title = "Absolute value of an int"',
                        'title = """\n[' + " " * 4000 + 'y\n"""')
    toml.write_text(text.replace("[jml]\n", "[jml]\nclas = \"x\"\n"))
    start = time.monotonic()
    task, errors = check_task(d)
    assert time.monotonic() - start < 10.0
    assert task is None
    # the line is counted through the string's lines: [jml] is on 16, the stray key on 17
    assert [str(e) for e in errors] == [
        "abs_value/task.toml:17: jml.clas: unknown key 'clas' in [jml] (did you mean 'class'?)"]
