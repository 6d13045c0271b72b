"""``adequacy explore`` on a JML task whose output is an input array's post-state
(examples/jml/reverse_in_place: ``a`` reversed in place; the oracle is the task's Java method
run in the sandboxed JVM, and its validator).

Hand-worked: flawed_length_only ensures only ``a.length == \\old(a.length)``, so it accepts
every wrong output of the right length; the smallest is one element changed into another of
total magnitude 1 (``[1] -> [0]`` or ``[0] -> [1]``). No output of another length may be
offered: no method can change an array's length, and a spec that says nothing of it must not
be caught on one. flawed_palindrome ensures the result is a palindrome, so it rejects the right
output of any input that is not one; the smallest is two distinct elements of total magnitude
1, reversed (``[0, 1] -> [1, 0]`` or ``[1, 0] -> [0, 1]``).
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from adequacy.cli import app
from adequacy.examples import bundled_folder

TASK = bundled_folder("jml") / "reverse_in_place"
runner = CliRunner()


def _run(spec: str) -> list[dict]:
    r = runner.invoke(app, ["explore", str(TASK), str(TASK / "specs" / spec), "--budget", "12",
                            "--json"])
    assert r.exit_code == 1, r.stdout + r.stderr
    return json.loads(r.stdout)["disagreements"]


@pytest.mark.slow
@pytest.mark.requires("javac")
def test_length_only_gets_a_minimal_same_length_wrong_output() -> None:
    found = _run("flawed_length_only.java")
    d = next(d for d in found if d["predicate"] == "post" and not d["right"])
    (x,), (y,) = d["input"]["a"], d["output"]["a"]
    assert x != y and abs(x) + abs(y) == 1
    assert all(len(d["output"]["a"]) == len(d["input"]["a"])
               for d in found if d["predicate"] == "post")


@pytest.mark.slow
@pytest.mark.requires("javac")
def test_palindrome_rejects_a_minimal_right_output() -> None:
    found = _run("flawed_palindrome.java")
    d = next(d for d in found if d["predicate"] == "post" and d["right"])
    a = d["input"]["a"]
    assert len(a) == 2 and a[0] != a[1] and abs(a[0]) + abs(a[1]) == 1
    assert d["output"]["a"] == a[::-1]
    assert d["left"] is False
