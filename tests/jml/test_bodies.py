"""Valid helper bodies stay valid: the body checker (``jml.bodies``) reports only what javac
would. Each body below compiles with javac 17 as the body of ``static boolean divides(int d,
int n)`` (the rule that makes it legal is cited); the ill-typed ones are in
``test_typecheck_corpus.py``."""

from __future__ import annotations

import pytest

from adequacy.errors import SpecInvalid
from adequacy.examples import bundled_folder
from adequacy.taskdirs.load import load_task
from adequacy_openjml.jml.load import load

ROOT = bundled_folder("jml") / "is_prime"
GOLD_BODY = "return n % d == 0;"

VALID = [
    ("int r = n % d; return r == 0;", "JLS 14.4: a local of the value's type"),
    ("long q = n; return q % d == 0;", "JLS 5.1.2: int widens to long"),
    ("char c = 65; return c > 0 && n % d == 0;", "JLS 5.2: an int constant narrows to char"),
    ("int a = 1, b = n; return a > 0 && b % d == 0;", "JLS 14.4: two declarators"),
    ("Integer r = n % d; return r == 0;", "JLS 5.1.7: boxing (the checker does not model it)"),
    ("return (n % d == 0) ? true : false;", "JLS 15.25: a boolean conditional"),
    ("boolean r = n % d == 0 ? true : null; return r;",
     "JLS 15.25: boolean and null make a Boolean, which unboxes"),
    ("for (int k = 0; k < 1; k++) { } return n % d == 0;", "JLS 14.14.1: a boolean condition"),
    ("java.util.function.IntUnaryOperator f = x -> { return x % d; }; "
     "return f.applyAsInt(n) == 0;", "JLS 15.27.3: a lambda's return is the lambda's"),
    ("return Math.floorMod(n, d) == 0;", "Math.floorMod(int,int) returns int"),
    ("double x = n; return x / d == Math.floor(x / d);", "JLS 5.6.2: double arithmetic"),
    ("if (d == 0) return false; while (n >= d) n -= d; return n == 0;",
     "JLS 14.9, 14.12, 15.26.2: boolean conditions, a compound assignment"),
]


@pytest.mark.parametrize(("body", "rule"), VALID, ids=[str(k) for k in range(len(VALID))])
def test_valid_helper_body_is_accepted(body: str, rule: str) -> None:
    gold = (ROOT / "specs" / "gold.java").read_text()
    assert gold.count(GOLD_BODY) == 1
    try:
        load(load_task(ROOT), gold.replace(GOLD_BODY, body), "gold.java")
    except SpecInvalid as e:  # pragma: no cover - the failure message is the point
        pytest.fail(f"{rule}: a valid body was called invalid: {e.message} (line {e.line})")
