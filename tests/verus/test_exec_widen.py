"""widen.py: Verus's `int` computed in i128 by the erased macro, exactly or not at all.

Expected texts and truths by hand from the Verus guide (reference-arithmetic.md: spec
arithmetic and comparisons are on mathematical integers; `int` spec fns), as in
test_exec_spec_quant.py: a decided verdict must equal Verus's, and a value outside i128 or a
negative quantifier bound must leave the case unknown.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from adequacy.model.verdicts import Truth
from adequacy_verus.exec_spec.divergence import divergences
from adequacy_verus.exec_spec.rewrite import rewrite
from adequacy_verus.frontend import parse_spec


def _rw(src: str) -> str:
    out = rewrite(src, parse_spec(src, "t.rs"))
    assert out.count("\n") == src.count("\n")
    return out


def test_int_spec_fns_get_i128_signatures_and_widened_operands() -> None:
    src = ("verus! {\nspec fn sum(s: Seq<i64>) -> int\n    decreases s.len(),\n{\n"
           "    if s.len() == 0 { 0 } else { sum(s.drop_last()) + s.last() }\n}\n"
           "spec fn post(s: Seq<i64>, r: u64) -> bool {\n    sum(s) == r\n}\n}\n")
    out = _rw(src).splitlines()
    assert out[1] == "spec fn sum(s: Seq<i64>) -> i128"
    assert out[4] == "    if s.len() == 0 { 0 } else { __ade_int(sum(s.drop_last())) + " \
                     "__ade_int(s.last()) }"
    assert out[7] == "    __ade_int(sum(s)) == __ade_int(r)"


def test_literal_branches_become_i128_literals_and_int_params_take_widened_args() -> None:
    src = ("verus! {\nspec fn c(s: Seq<bool>) -> int {\n"
           "    if s.len() == 0 { 0 } else { c(s.drop_last()) + if s.last() { 1 as int } "
           "else { 0 as int } }\n}\nspec fn d(n: int, k: int) -> bool {\n    n % k == 0\n}\n"
           "spec fn p(n: u64) -> bool {\n    exists|k: int| 2 <= k < n && d(n as int, k)\n}\n}\n")
    out = _rw(src).splitlines()
    assert "{ 1i128 } else { 0i128 }" in out[2]
    assert out[5] == "    __ade_rem(__ade_int(n), __ade_int(k)) == 0"
    assert out[8] == ("    exists|k: usize| 2 <= k < __ade_usize(n) && "
                      "d(__ade_int(__ade_int(n as int)), __ade_int(k))")


def test_guards_are_put_in_the_form_the_macro_reads() -> None:
    src = ("verus! {\nspec fn p(s: Seq<i64>, x: i64) -> bool {\n"
           "    forall|i: int, j: int| 0 <= i < j < s.len() ==> s[i] <= s[j]\n}\n"
           "spec fn q(s: Seq<i64>, x: i64) -> bool {\n"
           "    forall|k: int| (0 <= k < s.len()) && k != 0 && s[k] == x ==> s[0] < x\n}\n}\n")
    out = _rw(src).splitlines()
    # 0 <= i < j < n  is  0 <= i < n && i < j < n  (i < j < n implies i < n)
    assert out[2] == ("    forall|i: usize, j: usize| 0 <= i < s.len() && i < j < s.len() "
                      "==> s[i] <= s[j]")
    # (G && A) ==> B  is  G ==> (A ==> B)
    assert out[5] == ("    forall|k: usize| 0 <= k < s.len() ==> (k != 0 && "
                      "s[k] == x ==> s[0] < x)")
    got = divergences(parse_spec(src, "t.rs"), rewritten=True)
    assert got == {}


TOML = """id = "ints"
language = "verus"
title = "Int spec fns"

[signature.input]
a = "seq<i64>"

[signature.output]
result = "u64"
"""


@pytest.mark.slow
@pytest.mark.requires("exec_spec")
def test_int_values_are_decided_as_verus_computes_them(tmp_path: Path) -> None:
    import json

    from adequacy.extensions.backend import Limits
    from adequacy.taskdirs.load import load_task
    from adequacy_verus.exec_spec import engine
    from adequacy_verus.skeleton import skeleton_for

    big = 2**62
    cases = {
        "pre_complete": [
            {"id": "sum_fits_i128", "input": {"a": [big, big, big]}},      # 3*2^62 > i64::MAX
            {"id": "negative_sum", "input": {"a": [-5, 2]}},               # sum -3 < 0: false
        ],
        "post_complete": [
            {"id": "right", "input": {"a": [1, 2, 3]}, "output": {"result": 6}},
            {"id": "wrong", "input": {"a": [1, 2, 3]}, "output": {"result": 7}},
            {"id": "big", "input": {"a": [big, big, big]}, "output": {"result": 3 * big}},
        ],
    }
    d = tmp_path / "ints"
    (d / "tests").mkdir(parents=True)
    (d / "task.toml").write_text(TOML)
    (d / "skeleton.rs").write_text("placeholder")
    for b, rows in cases.items():
        (d / "tests" / f"{b}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    task = load_task(d)
    (d / "skeleton.rs").write_text(skeleton_for(task))
    task = load_task(d)
    helper = ("spec fn sum_to(s: Seq<i64>) -> int\n    decreases s.len(),\n{\n"
              "    if s.len() == 0 { 0 } else { sum_to(s.drop_last()) + s.last() }\n}\n\n")
    text = task.skeleton.replace("/// Which inputs", helper + "/// Which inputs")
    text = text.replace("spec fn pre_spec(input: Input) -> bool {\n    true\n}",
                        "spec fn pre_spec(input: Input) -> bool {\n"
                        "    sum_to(input.a) >= 0\n}")
    text = text.replace("spec fn post_spec(input: Input, output: Output) -> bool {\n    true\n}",
                        "spec fn post_spec(input: Input, output: Output) -> bool {\n"
                        "    sum_to(input.a) == output.result\n}")
    got = {v.case_id: v.value for v in engine.check(
        text, task, task.all_cases(), Limits(), module=parse_spec(text, "spec.rs"))}
    # Verus: 3 * 2^62 is an int >= 0 (i64 arithmetic would overflow); -3 < 0; 6 == 6; 6 != 7
    assert got == {"sum_fits_i128": Truth.true, "negative_sum": Truth.false,
                   "right": Truth.true, "wrong": Truth.false, "big": Truth.true}
