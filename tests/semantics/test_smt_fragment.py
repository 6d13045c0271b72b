"""The smt engine on the wider fragment, against hand-worked truths.

Each probe is a precondition over a bundled task's input, decided on one input by the ``smt``
engine alone. Truths are worked out by hand from the language's own definitions:

- Verus (vstd ``seq.rs``, ``multiset.rs``, ``set.rs``): ``filter`` keeps the elements the
  predicate holds for, in order; ``fold_left(b, f)`` is ``f(...f(f(b, s[0]), s[1])..., s[n-1])``;
  ``map_values`` applies ``f`` to each element; ``to_multiset().count(x)`` is the number of
  occurrences of ``x``; ``to_set().contains(x)`` holds iff ``x`` occurs; ``x as uN`` / ``as iN``
  keeps the low N bits (two's complement for ``iN``).
- JML (Reference Manual 12.5, "generalized quantifiers"; docs/jml.md for rac's reading): ``\\sum``,
  ``\\product``, ``\\num_of`` over an empty range are 0, 1, 0, ``\\max`` over an empty range is
  left open (unknown); in ``spec_java_math`` a narrowing cast keeps the low bits and a sum
  leaving its type is undefined (rac: unknown); a String's ``length()`` counts UTF-16 code
  units (JLS 10.9), so for a character outside the Basic Multilingual Plane it is 2, which the
  encoding does not model: unknown, never the code-point count.
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


CONCRETE = {"verus": "interp", "jml": "rac"}


def _decide(task_dir: Path, text: str, inp: dict, engine: str = "smt") -> Truth:
    t = load_task(task_dir)
    b = registry().backend_for(t.language)
    spec = b.load_spec(t, text, "probe")
    eng = next(e for e in b.engines() if e.name == engine)
    (v,) = eng.check(spec, t, [Case(id="p", bucket=Bucket.pre_complete, input=inp)],
                     Limits(case_seconds=10))
    return v.value


def _check(task_dir: Path, text: str, inp: dict, want: Truth) -> None:
    """The smt engine gives the hand-worked truth, and the language's concrete engine, where
    it decides, gives the same (the truths are checked against the engine too)."""
    assert _decide(task_dir, text, inp) == want
    lang = load_task(task_dir).language
    concrete = _decide(task_dir, text, inp, CONCRETE[lang])
    assert concrete in (want, Truth.unknown), (CONCRETE[lang], concrete)


def _verus(pre: str) -> str:
    return f"""use vstd::prelude::*;
verus! {{
pub struct Input {{ pub arr: Seq<i64>, pub target: i64, }}
pub struct Output {{ pub result: Option<usize>, }}
spec fn pre_spec(input: Input) -> bool {{ {pre} }}
spec fn post_spec(input: Input, output: Output) -> bool {{ true }}
}}
"""


VERUS = [
    ("input.arr.filter(|x: i64| x > 0).len() == 2", [1, -1, 2], Truth.true),
    ("input.arr.filter(|x: i64| x > 0).len() == 2", [1], Truth.false),
    ("input.arr.filter(|x: i64| x > 2) =~= seq![5i64]", [1, 5], Truth.true),
    ("input.arr.filter(|x: i64| x > 0) =~= seq![5i64]", [1, 5], Truth.false),
    ("input.arr.fold_left(0int, |acc: int, x: i64| acc + x) == 6", [1, 2, 3], Truth.true),
    ("input.arr.fold_left(0int, |acc: int, x: i64| acc * 10 + x) == 123", [1, 2, 3],
     Truth.true),
    ("input.arr.map_values(|x: i64| x * 2)[1] == 4", [1, 2], Truth.true),
    ("input.arr.to_multiset().count(3) == 2", [3, 1, 3], Truth.true),
    ("input.arr.to_multiset().count(3) == 2", [3, 1], Truth.false),
    ("input.arr.to_set().contains(5i64)", [5], Truth.true),
    ("input.arr.to_set().contains(5i64)", [], Truth.false),
    ("(input.target as u16) == 0", 65536, Truth.true),
    ("(input.target as i16) == -32768", 32768, Truth.true),
    ("(input.target as u32) == 4294967295", -1, Truth.true),
    ("(input.target as i32) == -2147483648", 2147483648, Truth.true),
    ("(input.target as u64) == 18446744073709551615", -1, Truth.true),
    ("(input.target as i8) == 1", 257, Truth.true),
    ("(input.target as u8) == 0", -256, Truth.true),
    ("(input.target as u8) == 1", -255, Truth.true),
]


@pytest.mark.parametrize(("pre", "value", "want"), VERUS)
def test_verus_fragment(tmp_path: Path, pre: str, value: object, want: Truth) -> None:
    task = tmp_path / "t"
    shutil.copytree(bundled_folder("verus") / "binary_search_first", task)
    inp = ({"arr": value, "target": 0} if isinstance(value, list)
           else {"arr": [], "target": value})
    _check(task, _verus(pre), inp, want)


def _jml_array(requires: str, mods: str = "") -> str:
    return f"""public class Solution {{
    //@ requires a != null && {requires};
    {mods}public static int solve(int[] a) {{
        int s = 0;
        for (int i = 0; i < a.length; i++) {{
            s += a[i];
        }}
        return s;
    }}
}}
"""


SUM = "(\\sum int i; 0 <= i && i < a.length; a[i])"
JML_ARRAY = [
    (f"{SUM} == 6", "", [1, 2, 3], Truth.true),
    (f"{SUM} == 0", "", [], Truth.true),
    ("(\\product int i; 0 <= i && i < a.length; a[i]) == 6", "", [1, 2, 3], Truth.true),
    ("(\\product int i; 0 <= i && i < a.length; a[i]) == 1", "", [], Truth.true),
    ("(\\num_of int i; 0 <= i && i < a.length; a[i] > 1) == 2", "", [1, 2, 3], Truth.true),
    ("(\\max int i; 0 <= i && i < a.length; a[i]) == 3", "", [1, 3, 2], Truth.true),
    ("(\\min int i; 0 <= i && i < a.length; a[i]) == 1", "", [2, 1, 3], Truth.true),
    ("(\\max int i; 0 <= i && i < a.length; a[i]) == 0", "", [], Truth.unknown),
    # bigint (the default spec math): exact
    (f"{SUM} == 2147483648L", "", [2147483647, 1], Truth.true),
    # java math: the sum leaves int, which rac leaves undefined
    (f"{SUM} == -2147483648", "/*@ spec_java_math @*/ ", [2147483647, 1], Truth.unknown),
    (f"{SUM} == 3", "/*@ spec_java_math @*/ ", [1, 2], Truth.true),
]


@pytest.mark.parametrize(("req", "mods", "a", "want"), JML_ARRAY)
def test_jml_comprehensions(tmp_path: Path, req: str, mods: str, a: list, want: Truth) -> None:
    task = tmp_path / "t"
    shutil.copytree(bundled_folder("jml") / "array_sum", task)
    _check(task, _jml_array(req, mods), {"a": a}, want)


def _jml_string(requires: str) -> str:
    code = (bundled_folder("jml") / "swap_case" / "Solution.java").read_text()
    return code.replace("    public static String solve",
                        f"    //@ requires s != null && {requires};\n"
                        "    public static String solve", 1)


JML_STRING = [
    ("s.length() == 2", "ab", Truth.true),
    ("s.length() == 3", "ab", Truth.false),
    ("s.charAt(1) == 'b'", "ab", Truth.true),
    ("s.charAt(5) == 'b'", "ab", Truth.unknown),  # StringIndexOutOfBoundsException
    ("s.isEmpty()", "", Truth.true),
    ("s.equals(s)", "xy", Truth.true),
]


@pytest.mark.parametrize(("req", "s", "want"), JML_STRING)
def test_jml_strings(tmp_path: Path, req: str, s: str, want: Truth) -> None:
    task = tmp_path / "t"
    shutil.copytree(bundled_folder("jml") / "swap_case", task)
    _check(task, _jml_string(req), {"s": s}, want)


@pytest.mark.parametrize(("req", "mods", "x", "want"), [
    ("(byte) x == -128", "/*@ spec_java_math @*/ ", 128, Truth.true),
    ("(byte) x == -128", "", 128, Truth.unknown),  # bigint: out-of-range narrowing undefined
    ("(short) x == -32768", "/*@ spec_java_math @*/ ", 32768, Truth.true),
    ("(char) x == 0", "/*@ spec_java_math @*/ ", 65536, Truth.true),
    ("x * 2 == -2", "/*@ spec_java_math @*/ ", 2147483647, Truth.true),
    ("x * 2 == 4294967294L", "", 2147483647, Truth.true),
    ("(long) x * 4 == 8589934588L", "/*@ spec_java_math @*/ ", 2147483647, Truth.true),
])
def test_jml_widths(tmp_path: Path, req: str, mods: str, x: int, want: Truth) -> None:
    task = tmp_path / "t"
    shutil.copytree(bundled_folder("jml") / "abs_value", task)
    text = f"""public class Solution {{
    //@ requires {req};
    {mods}public static int solve(int x) {{
        if (x < 0)
            return -x;
        return x;
    }}
}}
"""
    _check(task, text, {"x": x}, want)


@pytest.mark.parametrize(("req", "java"), [("s.length() == 1", Truth.false),
                                           ("s.length() == 2", Truth.true)])
def test_jml_string_outside_the_bmp_is_left_to_rac(tmp_path: Path, req: str, java: Truth
                                                    ) -> None:
    """One code point outside the Basic Multilingual Plane: Java's length is 2 (a surrogate
    pair). rac runs Java and says so; the encoding does not model UTF-16 there, so the smt
    engine says unknown, never the code-point count."""
    task = tmp_path / "t"
    shutil.copytree(bundled_folder("jml") / "swap_case", task)
    inp = {"s": "\U0001F600"}
    assert _decide(task, _jml_string(req), inp) == Truth.unknown
    assert _decide(task, _jml_string(req), inp, "rac") == java
