"""The ``smt`` engine on hand-worked probes: decided means correct, undefined stays unknown.

Truths, each from the language's documentation:
- Verus (guide, spec-arithmetic.md): `int` `/` and `%` are Euclidean: -7 / 2 == -4, -7 % 3 == 2;
  reference-as.md: a cast to a fixed width truncates: (256 as u8) == 0, (-1 as u8) == 255;
  an out-of-range `Seq` index is an unspecified value (vstd seq.rs: `recommends 0 <= i < len`);
  `choose` with exactly one witness is that witness; a `forall` over an empty range is true.
- JML (reference manual; OpenJML tutorial "Arithmetic Modes"): `/` truncates toward zero and
  `%` takes the dividend's sign: -7 / 2 == -3, -7 % 3 == -1; spec arithmetic is bigint by
  default (MAX_VALUE + 1 == MIN_VALUE is false) and wraps in `spec_java_math`; `\\old(a[i])` is
  the pre-state element of a mutated array.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from adequacy.examples import bundled_folder
from adequacy.extensions.backend import Limits
from adequacy.extensions.registry import registry
from adequacy.model.task import Case
from adequacy.model.verdicts import Bucket, Truth
from adequacy.taskdirs.load import load_task

pytest.importorskip("z3")
pytestmark = pytest.mark.slow  # the solver runs in a child process




def _verus_spec(pre: str, post: str = "true") -> str:
    return f"""use vstd::prelude::*;
verus! {{
pub struct Input {{ pub a: int, pub b: int, }}
pub struct Output {{ pub result: int, }}
spec fn pre_spec(input: Input) -> bool {{ {pre} }}
spec fn post_spec(input: Input, output: Output) -> bool {{ {post} }}
}}
"""


def _decide(task_dir: Path, text: str, inp: dict, out: dict | None = None) -> Truth:
    t = load_task(task_dir)
    b = registry().backend_for(t.language)
    spec = b.load_spec(t, text, "probe")
    eng = next(e for e in b.engines() if e.name == "smt")
    bucket = Bucket.pre_complete if out is None else Bucket.post_complete
    v = eng.check(spec, t, [Case(id="p", bucket=bucket, input=inp, output=out)],
                  Limits(case_seconds=10))[0]
    return v.value


VERUS = [
    ("input.a / input.b == -4", {"a": -7, "b": 2}, Truth.true),
    ("input.a / input.b == -3", {"a": -7, "b": 2}, Truth.false),
    ("input.a % input.b == 2", {"a": -7, "b": 3}, Truth.true),
    ("(input.a as u8) == 0", {"a": 256, "b": 0}, Truth.true),
    ("(input.a as u8) == 255", {"a": -1, "b": 0}, Truth.true),
    ("(input.a as i8) == -128", {"a": 128, "b": 0}, Truth.true),
    ("input.a / input.b == 0", {"a": 1, "b": 0}, Truth.unknown),
    ("(choose|k: int| 0 <= k < 1) == 0", {"a": 0, "b": 0}, Truth.true),
    ("(choose|k: int| 0 <= k < 2) == 0", {"a": 0, "b": 0}, Truth.unknown),
    ("forall|i: int| 0 <= i < 0 ==> false", {"a": 0, "b": 0}, Truth.true),
    ("exists|i: int| input.a <= i < input.a ==> true", {"a": 3, "b": 0}, Truth.true),
    ("exists|i: int| input.a <= i && i < input.a", {"a": 3, "b": 0}, Truth.false),
]


@pytest.mark.parametrize(("pre", "inp", "want"), VERUS)
def test_verus_smt_probe(tmp_path: Path, pre: str, inp: dict, want: Truth) -> None:
    task = tmp_path / "t"
    shutil.copytree(bundled_folder("verus") / "euclid_mod", task)
    assert _decide(task, _verus_spec(pre), inp) == want


def test_verus_seq_out_of_range_is_unknown(tmp_path: Path) -> None:
    task = tmp_path / "t"
    shutil.copytree(bundled_folder("verus") / "binary_search_first", task)
    text = (task / "specs" / "gold.rs").read_text().replace(
        "forall|i: usize| 1 <= i < input.arr.len() ==> input.arr[(i - 1) as int] <= "
        "input.arr[i as int]", "input.arr[5] > 0")
    assert _decide(task, text, {"arr": [1], "target": 0}) == Truth.unknown
    assert _decide(task, text, {"arr": [0, 0, 0, 0, 0, 7], "target": 0}) == Truth.true


def _jml(requires: str, mods: str = "") -> str:
    return f"""public class Solution {{
    //@ requires {requires};
    {mods}public static int solve(int x) {{
        if (x < 0)
            return -x;
        return x;
    }}
}}
"""


JML = [
    ("x / 2 == -3", "", -7, Truth.true),
    ("x % 3 == -1", "", -7, Truth.true),
    ("x % 3 == 2", "", -7, Truth.false),
    ("x / 0 == 0", "", 1, Truth.unknown),
    ("x + 1 == Integer.MIN_VALUE", "", 2147483647, Truth.false),
    ("x + 1 == Integer.MIN_VALUE", "/*@ spec_java_math @*/ ", 2147483647, Truth.true),
    ("x + 1 == Integer.MIN_VALUE", "/*@ spec_safe_math @*/ ", 2147483647, Truth.unknown),
    ("(short) x == 0", "", 65536, Truth.unknown),
    ("(\\forall int i; 0 <= i && i < 0; false)", "", 0, Truth.true),
]


@pytest.mark.parametrize(("req", "mods", "x", "want"), JML)
def test_jml_smt_probe(tmp_path: Path, req: str, mods: str, x: int, want: Truth) -> None:
    task = tmp_path / "t"
    shutil.copytree(bundled_folder("jml") / "abs_value", task)
    assert _decide(task, _jml(req, mods), {"x": x}) == want


def test_jml_old_of_arrays(tmp_path: Path) -> None:
    task = tmp_path / "t"
    shutil.copytree(bundled_folder("jml") / "reverse_in_place", task)
    gold = (task / "specs" / "gold.java").read_text()
    assert _decide(task, gold, {"a": [1, 2, 3]}, {"a": [3, 2, 1]}) == Truth.true
    assert _decide(task, gold, {"a": [1, 2, 3]}, {"a": [1, 2, 3]}) == Truth.false
    one = gold.replace("a[i] == \\old(a[a.length - 1 - i])", "\\old(a[0]) == a[a.length - 1]")
    assert _decide(task, one, {"a": [5, 6]}, {"a": [6, 5]}) == Truth.true
