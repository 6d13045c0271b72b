"""Small valid JML specs must not become "error" records.

On main a flat ``&&`` chain of 990 terms raised RecursionError (status ``error``, retried on
every rerun), deep nesting was refused without a line, and a 15,000-helper spec spent minutes
in the code check.
"""

from __future__ import annotations

import time

import pytest

from adequacy.errors import SpecInvalid
from adequacy.examples import bundled_folder
from adequacy.scoring.runner import score_spec
from adequacy.taskdirs.load import load_task
from adequacy_openjml.jml.load import load
from adequacy_openjml.jml.parser import parse_expression, tree_depth

ABS = bundled_folder("jml") / "abs_value"
R = "\\result"
CORE = f"{R} >= 0 && ({R} == x || {R} == -x)"


def spec(ensures: str, extra: str = "") -> str:
    return ("public class Solution {\n\n    //@ ensures " + ensures + ";\n"
            "    public static int solve(int x) {\n        if (x < 0)\n            return -x;\n"
            "        return x;\n    }\n" + extra + "}\n")


def chain(n: int) -> str:
    """``CORE`` and ``n`` terms that are true whenever ``CORE`` is (a result >= 0 is never
    negative): the chain means exactly ``CORE``."""
    return CORE + "".join(f" && {R} != -{k + 1}" for k in range(n))


def verdicts(text: str) -> tuple[str, list[tuple[str, str, str]]]:
    rep = score_spec(load_task(ABS), text, "chain.java", cache=None)
    return rep.status, [(v.bucket.value, v.case_id, v.value.value) for v in rep.verdicts]


@pytest.mark.slow
@pytest.mark.requires("javac")
def test_a_990_term_chain_scores_like_its_meaning() -> None:
    status, got = verdicts(spec(chain(990)))
    want_status, want = verdicts(spec(CORE))
    assert (status, want_status) == ("scored", "scored")
    assert got == want


@pytest.mark.slow
def test_a_10000_term_chain_is_read_without_recursion_per_term() -> None:
    """Balanced: depth about log2(10,000), and every pass of the front end goes through."""
    e = parse_expression(chain(10_000).replace(R, "y"))
    assert tree_depth(e) < 40
    js = load(load_task(ABS), spec(chain(10_000)), "long.java")
    assert len(js.cases) == 1


@pytest.mark.slow
@pytest.mark.requires("javac")
def test_a_10000_term_chain_through_rac_is_decided() -> None:
    """End to end: javac refuses one method of that size ("code too large"), so rac splits
    big operands into methods of their own and decides every case like the short spec."""
    status, got = verdicts(spec(chain(10_000)))
    _s, want = verdicts(spec(CORE))
    assert status == "scored"
    assert got == want


@pytest.mark.parametrize(("expr", "limit"), [
    ("(" * 300 + "x" + ")" * 300, "nesting deeper than 40"),
    ("- " * 300 + "x", "nesting deeper than 40"),
    ("!" * 300 + "(x > 0)", "nesting deeper than 40"),
    (" ==> ".join(["x > 0"] * 300), "nesting deeper than 40"),
    (" + ".join(["x"] * 300) + " > 0", "nesting deeper than 200"),
])
def test_too_deep_nesting_is_invalid_with_its_line(expr: str, limit: str) -> None:
    with pytest.raises(SpecInvalid) as e:
        load(load_task(ABS), spec(expr), "deep.java")
    assert limit in e.value.message and e.value.line == 3 and e.value.file == "deep.java"


@pytest.mark.slow
def test_code_check_of_a_big_spec_is_near_linear() -> None:
    """15,000 pure helpers (about 1 MB): main's check took 246 s on 829 KB."""
    helpers = "".join(f"    /*@ pure @*/ public static boolean h{i}(int x) {{ return x != {i}; }}\n"
                      for i in range(15_000))
    text = spec(f"{R} >= 0 && h1({R})", helpers)
    assert len(text) > 829_000
    task = load_task(ABS)
    load(task, spec(CORE))  # the task's own file, read once
    t0 = time.process_time()
    load(task, text, "big.java")
    assert time.process_time() - t0 < 10.0


@pytest.mark.slow
@pytest.mark.requires("javac")
def test_a_2000_location_frame_is_decided_like_everything() -> None:
    """``assignable a[0], ..., a[1999]`` became a 2,000-deep ``||`` chain in the implicit
    frame clause; balanced, it is decided, here like the gold spec's omitted frame (every
    case's array is shorter than 2,000)."""
    task = load_task(ABS.parent / "reverse_in_place")
    gold = (task.root / "specs" / "gold.java").read_text()
    frame = ", ".join(f"a[{k}]" for k in range(2000))
    framed = gold.replace("@ requires a != null;", f"@ requires a != null;\n      @ assignable {frame};")
    assert framed != gold
    got = score_spec(task, framed, "frame.java", cache=None)
    want = score_spec(task, gold, "gold.java", cache=None)
    assert got.status == "scored"
    assert [(v.bucket, v.case_id, v.value) for v in got.verdicts] == \
        [(v.bucket, v.case_id, v.value) for v in want.verdicts]


def test_classes_nested_too_deep_are_invalid_with_their_line() -> None:
    text = "".join(f"class C{i} {{\n" for i in range(500)) + "}" * 500
    with pytest.raises(SpecInvalid) as e:
        load(load_task(ABS), text, "nested.java")
    assert "nesting deeper than 40" in e.value.message and e.value.line == 41
