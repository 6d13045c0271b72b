"""Same spec, same case, same verdict, in every process: interp iterates sets, maps and
multisets in one canonical order and evaluates ``Set::any``/``all`` in three values, so
Python's per-process string hashing (``PYTHONHASHSEED``) cannot choose a verdict."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from adequacy_verus.interp.ordering import order_key, ordered
from adequacy_verus.interp.values import EnumVal, MSet

TASK = """id = "set_any"
language = "verus"
title = "t"
[signature.input]
s = "set<char>"
t = "seq<char>"
[signature.output]
result = "bool"
"""
SKELETON_HEAD = """use vstd::prelude::*;
use vstd::contrib::exec_spec::*;

verus! {
exec_spec_unverified! {
pub struct Input { pub s: Set<char>, pub t: Seq<char> }
pub struct Output { pub result: bool }
"""
# exists c in s. p(c), with p('h') true and p undefined elsewhere (index 100 of a one-char
# sequence): the hand-worked truth is true, whatever order the elements are visited in
ANY = SKELETON_HEAD + """
spec fn pre_spec(input: Input) -> bool {
    input.s.any(|c: char| if c == 'h' { true } else { input.t[100] == 'x' })
}
spec fn post_spec(input: Input, output: Output) -> bool { true }
}
}
"""
# forall c in s. p(c), with p('h') false and p undefined elsewhere: false
ALL = ANY.replace("input.s.any(|c: char| if c == 'h' { true }",
                  "input.s.all(|c: char| if c == 'h' { false }")


def _task(tmp: Path) -> Path:
    d = tmp / "set_any"
    (d / "tests").mkdir(parents=True)
    (d / "task.toml").write_text(TASK)
    case = {"id": "p1", "input": {"s": list("abcdefgh"), "t": ["x"]}}
    (d / "tests" / "pre_complete.jsonl").write_text(json.dumps(case) + "\n")
    subprocess.run([sys.executable, "-m", "adequacy", "task", "new", str(d)], check=True,
                   capture_output=True)
    return d


@pytest.mark.parametrize(("spec", "truth"), [(ANY, "true"), (ALL, "false")])
def test_the_verdict_does_not_depend_on_the_process_hash_seed(tmp_path: Path, spec: str,
                                                             truth: str) -> None:
    task = _task(tmp_path)
    f = tmp_path / "spec.rs"
    f.write_text(spec)
    seen = set()
    for seed in ("1", "2", "3", "4"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        p = subprocess.run([sys.executable, "-m", "adequacy", "score", str(task), str(f),
                            "--engine", "interp", "--no-cache", "--json"],
                           capture_output=True, text=True, env=env, timeout=120)
        rep = json.loads(p.stdout)
        seen.add(tuple(v["value"] for v in rep["verdicts"]))
    assert seen == {(truth,)}


def test_order_key_is_by_content() -> None:
    a = EnumVal("Color", "Red")
    b = EnumVal("Color", "Blue", (1,))
    assert ordered(frozenset({"b", "a", "c"})) == ["a", "b", "c"]
    assert ordered([b, a]) == ordered([a, b])
    assert order_key(MSet({"x": 2})) == order_key(MSet({"x": 2}))
    assert ordered(frozenset({3, 1, 2})) == list(frozenset({3, 1, 2}))
