"""A quantifier over a type that exists nowhere is invalid with its line, as javac (and so
OpenJML) says; it used to be left to the engines, which answered unknown for every case."""

from __future__ import annotations

import pytest

from adequacy.errors import SpecInvalid
from adequacy.examples import bundled_folder
from adequacy.taskdirs.load import load_task
from adequacy_openjml.jml.load import load

ABS = bundled_folder("jml") / "abs_value"
BODY = """    public static int solve(int x) {
        if (x < 0)
            return -x;
        return x;
    }
"""


def spec(ensures: str) -> str:
    return "public class Solution {\n\n    //@ ensures " + ensures + ";\n" + BODY + "}\n"


@pytest.mark.parametrize(("clause", "name"), [
    ("(\\forall Foo y; true; \\result >= 0)", "Foo"),
    ("(\\exists integer y; y == x; \\result >= 0)", "integer"),
    ("(\\forall Int y; 0 <= y && y < 3; \\result >= y - 3)", "Int"),
    ("(\\forall Strng s; true; \\result >= 0)", "Strng"),
    ("(\\num_of Bigint y; 0 <= y && y < 2; true) >= 0", "Bigint"),
])
def test_undeclared_quantifier_types_are_invalid(clause: str, name: str) -> None:
    with pytest.raises(SpecInvalid) as e:
        load(load_task(ABS), spec(clause), "s.java")
    assert e.value.line == 3 and f"cannot find symbol: class {name}" in e.value.message


@pytest.mark.parametrize("clause", [
    "(\\forall int y; 0 <= y && y < 3; \\result >= y - 3)",
    "(\\forall long y; 0 <= y && y < 3; \\result >= y - 3)",
    "(\\forall \\bigint y; 0 <= y && y < 3; \\result >= y - 3)",
    "(\\exists Integer y; y == x; \\result >= 0)",
])
def test_declared_quantifier_types_are_fine(clause: str) -> None:
    load(load_task(ABS), spec(clause), "s.java")
