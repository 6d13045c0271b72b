"""The Python half of the semantics suite: "decided means correct" for the exec engine.

Each probe is a precondition over one case whose truth is worked out by hand from the Python
language reference (the section is named); ``None`` means the language gives the predicate no
value on that case (it raises), so the only right answer is ``unknown``.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from python.pysupport import check, make_task, pre_case  # noqa: E402

pytestmark = pytest.mark.slow


@dataclass(frozen=True)
class Probe:
    id: str
    inputs: dict[str, str]
    body: str
    """The precondition's body (it may define helpers above ``def pre``)."""
    case: dict[str, Any]
    truth: bool | None
    source: str


REF = "Python language reference"
PROBES = [
    # 6.7 Binary arithmetic operations: floor division rounds toward negative infinity; the
    # remainder has the sign of the divisor; x == (x//y)*y + (x%y).
    Probe("floordiv_negative", {"a": "int", "b": "int"}, "return a // b == -4",
          {"a": -7, "b": 2}, True, f"{REF} 6.7"),
    Probe("floordiv_not_trunc", {"a": "int", "b": "int"}, "return a // b == -3",
          {"a": -7, "b": 2}, False, f"{REF} 6.7"),
    Probe("mod_sign_of_divisor", {"a": "int", "b": "int"}, "return a % b == 1",
          {"a": -7, "b": 2}, True, f"{REF} 6.7"),
    Probe("mod_negative_divisor", {"a": "int", "b": "int"}, "return a % b == -1",
          {"a": 7, "b": -2}, True, f"{REF} 6.7"),
    Probe("divmod_identity", {"a": "int", "b": "int"},
          "return a == (a // b) * b + a % b", {"a": -13, "b": 4}, True, f"{REF} 6.7"),
    Probe("division_by_zero_raises", {"a": "int", "b": "int"}, "return a // b == 0",
          {"a": 1, "b": 0}, None, f"{REF} 6.7 (ZeroDivisionError)"),
    Probe("true_division_is_float", {"a": "int", "b": "int"}, "return a / b == 3.5",
          {"a": 7, "b": 2}, True, f"{REF} 6.7"),
    Probe("unbounded_int", {"a": "int"}, "return a ** 3 > 2 ** 64", {"a": 2 ** 30}, True,
          f"{REF} 3.2 (integers of unlimited range)"),
    # Floating point (3.2, 6.10.1): IEEE 754 doubles; NaN is unequal to itself.
    Probe("float_sum_inexact", {"x": "f64"}, "return x + 0.2 == 0.3", {"x": 0.1}, False,
          f"{REF} 3.2; tutorial 15"),
    Probe("nan_not_equal_itself", {"x": "f64"}, "return x != x", {"x": "NaN"}, True,
          f"{REF} 6.10.1"),
    Probe("nan_not_less", {"x": "f64"}, "return not (x < 1.0) and not (x >= 1.0)",
          {"x": "NaN"}, True, f"{REF} 6.10.1"),
    Probe("inf_compare", {"x": "f64"}, "return x > 10 ** 300", {"x": "Infinity"}, True,
          f"{REF} 6.10.1"),
    Probe("int_float_equal", {"a": "int"}, "return a == 3.0", {"a": 3}, True,
          f"{REF} 6.10.1 (numbers compare mathematically)"),
    Probe("round_half_even", {"x": "f64"}, "return round(x) == 2", {"x": 2.5}, True,
          "Python library reference: round() (round half to even)"),
    # 6.3.3 Slicings, 3.2 sequences: out-of-range slices are clipped; indexing is not.
    Probe("slice_clipped", {"s": "string"}, "return s[1:100] == 'bc'", {"s": "abc"}, True,
          f"{REF} 6.3.3; library 4.6.1 note 4"),
    Probe("slice_reverse", {"s": "string"}, "return s[::-1] == 'cba'", {"s": "abc"}, True,
          "library reference 4.6.1 (s[i:j:k])"),
    Probe("slice_beyond_end_empty", {"s": "string"}, "return s[5:] == ''", {"s": "abc"}, True,
          "library reference 4.6.1 note 4"),
    Probe("negative_index", {"s": "string"}, "return s[-1] == 'c'", {"s": "abc"}, True,
          f"{REF} 6.3.2"),
    Probe("index_out_of_range", {"s": "string"}, "return s[3] == 'c'", {"s": "abc"}, None,
          f"{REF} 6.3.2 (IndexError)"),
    # all/any over empty iterables (library reference, built-in functions).
    Probe("all_empty", {"xs": "list<int>"}, "return all(x > 0 for x in xs)", {"xs": []}, True,
          "library reference: all()"),
    Probe("any_empty", {"xs": "list<int>"}, "return any(x > 0 for x in xs)", {"xs": []},
          False, "library reference: any()"),
    # 6.10 Comparisons: a op1 b op2 c means a op1 b and b op2 c, b evaluated once.
    Probe("chained_range", {"x": "int"}, "return 1 < x < 3", {"x": 2}, True, f"{REF} 6.10"),
    Probe("chained_not_left_to_right", {"x": "int"}, "return 3 > x < 5", {"x": 2}, True,
          f"{REF} 6.10"),
    Probe("chained_with_in", {"b": "bool"}, "return b == False in [False]", {"b": False}, True,
          f"{REF} 6.10 (b == False and False in [False])"),
    Probe("chained_is_not_grouped", {"x": "int"}, "return (1 < x) < 3", {"x": 5}, True,
          f"{REF} 6.10 (True < 3)"),
    # 8.7 Function definitions: default values are evaluated once, when the def runs, so a
    # mutable default is shared by the calls of one evaluation (a case is one fresh run).
    Probe("mutable_default_shared", {"x": "int"},
          "def helper(v, acc=[]):\n    acc.append(v)\n    return len(acc)\n\n\n"
          "def pre(x):\n    return helper(x) + helper(x) == 3", {"x": 1}, True, f"{REF} 8.7"),
    Probe("mutable_default_fresh_case", {"x": "int"},
          "def helper(v, acc=[]):\n    acc.append(v)\n    return len(acc)\n\n\n"
          "def pre(x):\n    return helper(x) == 1", {"x": 2}, True,
          f"{REF} 8.7 (each case is one run of a freshly imported module)"),
    # 3.2 Booleans are integers; strings are sequences of code points.
    Probe("bool_is_int", {"b": "bool"}, "return b + b == 2", {"b": True}, True, f"{REF} 3.2"),
    Probe("len_code_points", {"s": "string"}, "return len(s) == 1", {"s": "\u00e9"}, True,
          f"{REF} 3.2 (strings)"),
    Probe("split_whitespace", {"s": "string"}, "return s.split() == ['a', 'b']",
          {"s": " a  b "}, True, "library reference: str.split()"),
    Probe("none_option", {"o": "option<int>"}, "return o is None", {"o": None}, True,
          "task format: option is None or the value"),
    Probe("some_option", {"o": "option<int>"}, "return o == 4", {"o": {"some": 4}}, True,
          "task format: option is None or the value"),
    Probe("tuple_compare", {"t": "tuple<int, string>"}, "return t < (1, 'b')",
          {"t": [1, "a"]}, True, f"{REF} 6.10.1 (lexicographic)"),
    Probe("assert_rejects", {"x": "int"}, "assert x > 0\n    return True", {"x": -1}, False,
          "the assert form: a failed assertion rejects"),
    Probe("none_from_assert_form", {"x": "int"}, "assert x > 0", {"x": 1}, True,
          "the assert form: no failed assertion accepts"),
]


def _spec(p: Probe) -> str:
    params = ", ".join(p.inputs)
    if p.body.startswith("def "):
        return p.body + "\n"
    return f"def pre({params}):\n    {p.body}\n"


@pytest.mark.parametrize("probe", PROBES, ids=[p.id for p in PROBES])
def test_decided_means_correct(probe: Probe, tmp_path: Path) -> None:
    task = make_task(tmp_path / probe.id, probe.inputs)
    [v] = check(task, _spec(probe), [pre_case(probe.case)])
    if probe.truth is None:
        assert v.value.value == "unknown", v
    else:
        assert v.value.value == ("true" if probe.truth else "false"), v


def test_thirty_probes_with_sources() -> None:
    assert len(PROBES) >= 30 and all(p.source for p in PROBES)
    assert len({p.id for p in PROBES}) == len(PROBES)
