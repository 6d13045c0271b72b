"""A case KeY cannot read costs that case, never the task: a char case holding a quote was
rendered ``'\\u0027'``, which Java reads as ``'''`` (unicode escapes are replaced before
lexing), and KeY's parser refused the whole stub file, so every case of the spec was unknown
(SGB_ChangeCase's gold: PostCorr 0.0)."""

from __future__ import annotations

import pytest
from key_support import with_spec, write_task

from adequacy.extensions.backend import Limits, engine_named
from adequacy.model.task import Task
from adequacy.taskdirs.load import load_task
from adequacy_openjml.plugin import OpenJmlBackend
from adequacy_openjml.stubs import render

CODE = """public class Solution {
    public static int solve(char c) {
        return c;
    }
}
"""
# Worked out by hand: ensures \result == c (a char's value is its code point)
CASES = {
    "post_complete": [
        {"id": "quote", "input": {"c": "'"}, "output": {"result": 39}},
        {"id": "backslash", "input": {"c": "\\"}, "output": {"result": 92}},
        {"id": "newline", "input": {"c": "\n"}, "output": {"result": 10}},
        {"id": "e_acute", "input": {"c": "\u00e9"}, "output": {"result": 233}},
        {"id": "z", "input": {"c": "z"}, "output": {"result": 122}},
    ],
    "post_sound": [{"id": "quote_off", "input": {"c": "'"}, "output": {"result": 40}}],
}
TRUTH = {"quote": "true", "backslash": "true", "newline": "true", "e_acute": "true",
         "z": "true", "quote_off": "false"}


@pytest.fixture(scope="module")
def char_task(tmp_path_factory: pytest.TempPathFactory) -> Task:
    return load_task(write_task(tmp_path_factory.mktemp("k") / "chars", CODE, {"c": "char"},
                                cases=CASES))


@pytest.mark.parametrize(("c", "lit"), [("'", "'\\''"), ("\\", "'\\\\'"), ("a", "'a'"),
                                        ("\n", "((char) 10)"), ("\u00e9", "((char) 233)")])
def test_chars_are_rendered_as_every_java_reader_takes_them(c: str, lit: str) -> None:
    assert render.java_literal(c, "char") == lit


@pytest.mark.slow
@pytest.mark.requires("key")
def test_quote_and_escape_cases_are_decided(char_task: Task) -> None:
    b = OpenJmlBackend()
    spec = b.load_spec(char_task, with_spec(CODE, "    //@ ensures \\result == c;"), "S.java")
    got = engine_named(b, "key").check(spec, char_task, char_task.all_cases(),
                                       Limits(case_seconds=20))
    assert {v.case_id: v.value.value for v in got} == TRUTH, [v.reason for v in got]


@pytest.mark.slow
@pytest.mark.requires("key")
def test_a_stub_key_cannot_read_costs_its_case_only(char_task: Task,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    real = render.char_literal
    # a stand-in for any value KeY's parser refuses: the one case whose stub holds it
    monkeypatch.setattr(render, "char_literal", lambda c: "'''" if c == "z" else real(c))
    b = OpenJmlBackend()
    spec = b.load_spec(char_task, with_spec(CODE, "    //@ ensures \\result == c;"), "S.java")
    got = engine_named(b, "key").check(spec, char_task, char_task.all_cases(),
                                       Limits(case_seconds=20))
    by = {v.case_id: v for v in got}
    assert by["z"].value.value == "unknown" and "cannot read this case" in (by["z"].reason or "")
    assert {k: v.value.value for k, v in by.items() if k != "z"} == \
        {k: t for k, t in TRUTH.items() if k != "z"}


