"""A ``\\bigint`` or ``\\real`` argument to a Java-typed parameter is a type error.

OpenJML gives JML's math types no conversion to a Java primitive: its ``JmlTypes.isAssignable``
and ``isConvertible`` let a Java integral type convert to ``\\bigint``, a Java numeric type
or ``\\bigint`` to ``\\real``, and nothing else (a ``\\bigint`` reaches an ``int`` only through
a cast, which the OpenJML tutorial on ``\\bigint`` lists as the way "to and from other
numeric types"). So ``divides(d, n)`` with a ``\\bigint d`` cannot be applied to
``divides(int, int)``, as javac words it; before this rule the checker took the argument as
unknown and the spec was scored. Each case edits the is_prime gold once; the valid neighbours
(a cast, a model method whose parameter is the math type) stay valid.
"""

from __future__ import annotations

import pytest

from adequacy.errors import SpecInvalid
from adequacy.examples import bundled_folder
from adequacy.taskdirs.load import load_task
from adequacy_openjml.jml.load import load

ROOT = bundled_folder("jml") / "is_prime"
QUANT = "(\\forall int d; 2 <= d && d < n; !divides(d, n))"
CLASS = "public class Solution {"
MODELS = ("/*@ model pure static boolean big(\\bigint x) { return x > 1; } @*/\n"
          "    /*@ model pure static boolean real(\\real x) { return x > 1; } @*/\n"
          "    /*@ model pure static boolean dbl(double x) { return x > 1; } @*/\n"
          "    /*@ model pure static boolean lng(long x) { return x > 1; } @*/")

CASES = [
    ("(\\forall \\bigint d; 2 <= d && d < n; !divides(d, n))", True,
     "a \\bigint argument to divides(int, int)"),
    ("(\\forall \\bigint d; 2 <= d && d < n; !divides((int) d, n))", False,
     "a cast from \\bigint to int is allowed"),
    ("(\\forall int d; 2 <= d && d < n; !divides(d, n)) && lng((\\bigint) n)", True,
     "\\bigint does not widen to long"),
    ("(\\forall int d; 2 <= d && d < n; !divides(d, n)) && dbl((\\real) n)", True,
     "\\real does not convert to double"),
    ("(\\forall int d; 2 <= d && d < n; !divides(d, n)) && dbl((double) (\\real) n)", False,
     "a cast from \\real to double is allowed"),
    ("(\\forall int d; 2 <= d && d < n; !divides(d, n)) && big(n) && big(n + 1L)", False,
     "int and long convert to \\bigint"),
    ("(\\forall int d; 2 <= d && d < n; !divides(d, n)) && real(n) && real(1.5) && "
     "real((\\bigint) n)", False, "Java numbers and \\bigint convert to \\real"),
    ("(\\forall int d; 2 <= d && d < n; !divides(d, n)) && big(1.5)", True,
     "a double does not convert to \\bigint"),
    ("(\\forall int d; 2 <= d && d < n; !divides(d, n)) && big((\\real) n)", True,
     "\\real does not convert to \\bigint"),
]


@pytest.mark.parametrize(("clause", "bad", "rule"), CASES, ids=[str(k) for k in range(len(CASES))])
def test_math_type_arguments(clause: str, bad: bool, rule: str) -> None:
    gold = (ROOT / "specs" / "gold.java").read_text()
    assert gold.count(QUANT) == 1
    spec = gold.replace(CLASS, f"{CLASS}\n    {MODELS}").replace(QUANT, clause)
    line = spec[:spec.index(clause)].count("\n") + 1
    if not bad:
        load(load_task(ROOT), spec, "gold.java")
        return
    with pytest.raises(SpecInvalid) as e:
        load(load_task(ROOT), spec, "gold.java")
    assert e.value.line == line, rule
    assert "cannot be applied to given types" in e.value.message, (rule, e.value.message)
