"""Hand-checked Verus semantics probes: small specs and cases whose truth was worked out by hand.

Each probe is a ``pre_spec`` body over ``input`` (plus helper spec fns where needed) and cases
``(input, expected)``: ``True``/``False`` is what Verus means, ``None`` marks a case Verus leaves
unspecified (every engine must say ``unknown``). ``source`` names where the semantics is written:

* ARITH: Verus guide, ``source/docs/guide/src/reference-arithmetic.md`` (spec arithmetic is
  widened to ``int``; ``/`` and ``%`` are Euclidean; unspecified when the divisor is 0).
* AS: guide ``reference-as.md`` (``as int`` exact; ``as nat`` unspecified for negative values
  but a ``nat`` is >= 0; ``as char`` unspecified outside the Unicode scalar values; other casts
  truncate to the lower N bits).
* CHAIN: guide ``reference-chained-ineq.md`` (``a <= b < c`` is ``a <= b && b < c``).
* LOGIC: guide ``spec-operators`` page / ``reference-implication.md``: spec functions are total,
  so ``false && x`` is false and ``true || x`` true whatever ``x`` is; ``forall|i| g ==> b`` is
  ``forall|i| !(g) || b``.
* SEQ: vstd ``seq.rs`` (``index`` recommends ``0 <= i < len``: out of range is unspecified) and
  ``seq_lib.rs`` (``index_of`` is ``choose|i| 0 <= i < len && s[i] == needle``: determined only
  when the needle occurs exactly once, but always a valid index when it occurs).
* OPTION: vstd ``std_specs/option.rs`` (``unwrap`` recommends ``is_Some``; on ``None`` the value
  is unspecified).
* POW: vstd ``arithmetic/power.rs`` (``pow(b, e)`` is ``b`` multiplied ``e`` times, ``pow(b, 0) ==
  1``).
* STR: vstd ``string.rs`` / ``contrib/exec_spec/string.rs`` (``SpecString`` is ``Seq<char>``:
  length in chars).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from adequacy.extensions.backend import Limits, engine_named
from adequacy.extensions.registry import registry
from adequacy.model.task import Task
from adequacy.model.verdicts import Truth, Verdict
from adequacy.taskdirs.load import load_task
from adequacy_verus.skeleton import skeleton_for_folder

ARITH = "Verus guide reference-arithmetic.md"
AS = "Verus guide reference-as.md"
CHAIN = "Verus guide reference-chained-ineq.md"
LOGIC = "Verus guide spec operators (&&, ||, ==> in total spec code)"
SEQ = "vstd seq.rs / seq_lib.rs"
OPTION = "vstd std_specs/option.rs"
POW = "vstd arithmetic/power.rs"
STR = "vstd string.rs (SpecString = Seq<char>)"
COLL = "vstd set.rs / map.rs / multiset.rs (Map index recommends dom().contains(key))"
REC = "Verus guide recursion.md (spec fns with decreases) and reference-match.md"

I64_MIN = -(2**63)


@dataclass(frozen=True)
class Probe:
    name: str
    source: str
    inputs: dict[str, str]
    pre: str
    cases: list[tuple[dict[str, Any], bool | None]]
    helpers: str = ""
    uses: str = ""
    notes: str = ""
    extra: dict[str, str] = field(default_factory=dict)


def _ab(t: str) -> dict[str, str]:
    return {"a": t, "b": t}


PROBES: list[Probe] = [
    # ------------------------------------------------------------------ arithmetic
    Probe("rem_euclid", ARITH, {"a": "i64", "b": "i64", "r": "i64"},
          "input.a % input.b == input.r",
          [({"a": -7, "b": 3, "r": 2}, True), ({"a": -7, "b": 3, "r": -1}, False),
           ({"a": 7, "b": -3, "r": 1}, True), ({"a": -7, "b": -3, "r": 2}, True),
           ({"a": -20, "b": -7, "r": 1}, True), ({"a": 7, "b": 3, "r": 1}, True)]),
    Probe("div_euclid", ARITH, {"a": "i64", "b": "i64", "q": "i64"},
          "input.a / input.b == input.q",
          [({"a": -7, "b": 3, "q": -3}, True), ({"a": -7, "b": 3, "q": -2}, False),
           ({"a": 7, "b": -3, "q": -2}, True), ({"a": -7, "b": -3, "q": 3}, True),
           ({"a": 7, "b": 3, "q": 2}, True)]),
    Probe("odd_via_helper", ARITH, {"x": "i64"}, "is_odd(input.x)",
          [({"x": -3}, True), ({"x": 3}, True), ({"x": 4}, False), ({"x": -4}, False)],
          helpers="spec fn is_odd(x: i64) -> bool {\n    x % 2 == 1\n}\n\n"),
    Probe("div_by_zero", ARITH, _ab("i64"), "input.a / input.b == 0",
          [({"a": 5, "b": 0}, None), ({"a": 0, "b": 1}, True), ({"a": 5, "b": 1}, False)]),
    Probe("rem_by_zero", ARITH, _ab("i64"), "input.a % input.b == 1",
          [({"a": 5, "b": 0}, None), ({"a": 5, "b": 2}, True), ({"a": 4, "b": 2}, False)]),
    Probe("rem_nonneg_in_forall", ARITH, {"s": "seq<i64>"},
          "forall|i: int| 0 <= i < input.s.len() ==> input.s[i] % 3 >= 0",
          [({"s": [-5, -1, 7]}, True), ({"s": []}, True)]),
    Probe("u8_add_widens", ARITH, _ab("u8"), "input.a + input.b == 300",
          [({"a": 200, "b": 100}, True), ({"a": 1, "b": 2}, False)]),
    Probe("u64_sub_goes_negative", ARITH, _ab("u64"), "input.a - input.b < 0",
          [({"a": 1, "b": 2}, True), ({"a": 2, "b": 1}, False)]),
    Probe("u64_mul_no_overflow", ARITH, {"x": "u64"}, "input.x * 2 > input.x",
          [({"x": 2**63}, True), ({"x": 0}, False), ({"x": 5}, True)]),
    Probe("i64_min_div_minus_one", ARITH, _ab("i64"),
          "input.a / input.b == 9223372036854775808int",
          [({"a": I64_MIN, "b": -1}, True), ({"a": 4, "b": 2}, False)]),
    Probe("unsigned_div_plain", ARITH, {"x": "u64"}, "input.x / 2 == 3",
          [({"x": 7}, True), ({"x": 6}, True), ({"x": 8}, False)]),
    Probe("neg_of_int_difference", ARITH, _ab("u64"),
          "{\n        let d = input.a - input.b;\n        -d == 3\n    }",
          [({"a": 2, "b": 5}, True), ({"a": 5, "b": 2}, False)]),
    Probe("square_of_difference", ARITH, _ab("u64"),
          "{\n        let d = input.a - input.b;\n        d * d == 9\n    }",
          [({"a": 1, "b": 4}, True), ({"a": 4, "b": 1}, True), ({"a": 1, "b": 1}, False)]),
    Probe("mixed_width_compare", ARITH, {"x": "u8", "y": "i64"}, "input.x > input.y",
          [({"x": 1, "y": -1}, True), ({"x": 0, "y": 5}, False)]),
    # ------------------------------------------------------------------ casts
    Probe("as_nat_of_negative_is_not_it", AS, {"a": "i64"}, "(input.a as nat) == input.a",
          [({"a": -3}, False), ({"a": 5}, True)]),
    Probe("as_nat_is_nonneg", AS, {"a": "i64"}, "(input.a as nat) >= 0",
          [({"a": -3}, True), ({"a": 4}, True)]),
    Probe("as_nat_value_unspecified", AS, {"a": "i64"}, "(input.a as nat) == 0",
          [({"a": -3}, None), ({"a": 0}, True), ({"a": 2}, False)]),
    Probe("as_int_exact", AS, _ab("i64"), "(input.a as int) * 2 == input.b as int",
          [({"a": 5, "b": 10}, True), ({"a": -4, "b": -8}, True), ({"a": 5, "b": 11}, False)]),
    Probe("as_u8_truncates", AS, {"x": "u32"}, "(input.x as u8) == 44",
          [({"x": 300}, True), ({"x": 44}, True), ({"x": 45}, False)]),
    Probe("char_successor", AS, {"c": "char"}, "((input.c as u32) + 1) as char == 'b'",
          [({"c": "a"}, True), ({"c": "b"}, False)]),
    Probe("as_char_invalid_scalar", AS, {"x": "u32"}, "(input.x as char) == 'a'",
          [({"x": 0xD800}, None), ({"x": 97}, True), ({"x": 98}, False)]),
    # ------------------------------------------------------------------ chained comparisons
    Probe("chain_char_range", CHAIN, {"c": "char"}, "'a' <= input.c <= 'z'",
          [({"c": "m"}, True), ({"c": "A"}, False), ({"c": "z"}, True)]),
    Probe("chain_descending", CHAIN, {"a": "i64", "b": "i64", "c": "i64"},
          "input.a > input.b >= input.c",
          [({"a": 3, "b": 2, "c": 2}, True), ({"a": 3, "b": 3, "c": 1}, False),
           ({"a": 3, "b": 2, "c": 5}, False)]),
    Probe("chain_first_link_false", CHAIN, {"s": "seq<i64>"}, "3 <= 2 <= input.s[2]",
          [({"s": []}, False), ({"s": [1, 2, 3]}, False)]),
    Probe("chain_last_link_false", CHAIN, {"s": "seq<i64>"}, "input.s[2] <= 3 <= 2",
          [({"s": []}, False), ({"s": [1, 2, 3]}, False)]),
    Probe("chain_index_bounds", CHAIN, {"i": "usize", "j": "usize", "s": "seq<i64>"},
          "input.i <= input.j <= input.s.len()",
          [({"i": 0, "j": 1, "s": [1]}, True), ({"i": 2, "j": 1, "s": [1, 2]}, False),
           ({"i": 0, "j": 3, "s": [1]}, False)]),
    Probe("chain_in_guard", CHAIN, {"s": "seq<i64>"},
          "forall|k: int| 0 <= k < input.s.len() ==> input.s[k] > 0",
          [({"s": [1, 2]}, True), ({"s": [1, -1]}, False), ({"s": []}, True)]),
    Probe("sorted_two_vars", CHAIN, {"s": "seq<i64>"},
          "forall|i: int, j: int| 0 <= i < j < input.s.len() ==> input.s[i] <= input.s[j]",
          [({"s": [1, 2, 2]}, True), ({"s": [2, 1]}, False), ({"s": []}, True)]),
    # ------------------------------------------------------------------ logic and quantifiers
    Probe("negated_guard_forall", LOGIC, {"s": "seq<i64>"},
          "forall|k: int| !(0 <= k && k < input.s.len()) || input.s[k] > 0",
          [({"s": [1, 2]}, True), ({"s": [0]}, False), ({"s": []}, True)]),
    Probe("and_absorbs_undefined", LOGIC, {"s": "seq<i64>"},
          "input.s.len() > 3 && input.s[3] == 0",
          [({"s": [1, 2]}, False), ({"s": [0, 0, 0, 0]}, True)]),
    Probe("implies_absorbs_undefined", LOGIC, {"s": "seq<i64>"},
          "input.s.len() > 3 ==> input.s[3] == 0",
          [({"s": [1]}, True), ({"s": [0, 0, 0, 1]}, False)]),
    Probe("or_absorbs_undefined", LOGIC, {"s": "seq<i64>"},
          "input.s.len() <= 3 || input.s[3] == 0",
          [({"s": [1]}, True), ({"s": [1, 2, 3, 4]}, False)]),
    Probe("exists_bounded", LOGIC, {"s": "seq<i64>"},
          "exists|k: int| 0 <= k < input.s.len() && input.s[k] == 0",
          [({"s": [1, 0]}, True), ({"s": [1]}, False), ({"s": []}, False)]),
    # ------------------------------------------------------------------ sequences, strings
    Probe("index_out_of_range", SEQ, {"s": "seq<i64>"}, "input.s[3] == 0",
          [({"s": [0, 0, 0, 0]}, True), ({"s": [1, 2]}, None)]),
    Probe("index_of_choose", SEQ, {"s": "seq<i64>", "x": "i64", "r": "i64"},
          "input.s.index_of(input.x) == input.r as int",
          [({"s": [5, 7, 9], "x": 7, "r": 1}, True), ({"s": [5, 7, 9], "x": 7, "r": 0}, False),
           ({"s": [7, 7], "x": 7, "r": 0}, None), ({"s": [7, 7], "x": 7, "r": 5}, False),
           ({"s": [5], "x": 7, "r": 1}, None)]),
    Probe("subrange_eq", SEQ, {"s": "seq<i64>"},
          "input.s.subrange(1, 3) == seq![2i64, 3i64]",
          [({"s": [1, 2, 3, 4]}, True), ({"s": [1, 2, 4]}, False)]),
    Probe("seq_contains", SEQ, {"s": "seq<i64>"}, "input.s.contains(3i64)",
          [({"s": [1, 3]}, True), ({"s": []}, False)]),
    Probe("string_len_in_chars", STR, {"s": "string"}, "input.s.len() == 2",
          [({"s": "aé"}, True), ({"s": "abc"}, False)]),
    Probe("string_index_char", STR, {"s": "string"}, "input.s.len() > 1 && input.s[1] == 'é'",
          [({"s": "aé"}, True), ({"s": "ab"}, False)]),
    # ------------------------------------------------------------------ options, vstd fns
    Probe("unwrap_none_unspecified", OPTION, {"o": "option<i64>"}, "input.o.unwrap() == 3",
          [({"o": None}, None), ({"o": {"some": 3}}, True), ({"o": {"some": 4}}, False)]),
    Probe("option_is_some", OPTION, {"o": "option<i64>"}, "input.o is Some",
          [({"o": {"some": 1}}, True), ({"o": None}, False)]),
    # ------------------------------------------------------------------ collections, recursion
    Probe("set_contains", COLL, {"s": "set<i64>"}, "input.s.contains(3i64)",
          [({"s": [1, 3]}, True), ({"s": []}, False)]),
    Probe("map_guarded_index", COLL, {"m": "map<i64, i64>"},
          "input.m.dom().contains(1i64) && input.m[1i64] == 2",
          [({"m": [[1, 2]]}, True), ({"m": [[1, 3]]}, False), ({"m": []}, False)]),
    Probe("map_missing_key", COLL, {"m": "map<i64, i64>"}, "input.m[1i64] == 2",
          [({"m": [[1, 2]]}, True), ({"m": [[5, 2]]}, None)]),
    Probe("multiset_count", COLL, {"ms": "multiset<i64>"}, "input.ms.count(2i64) == 2",
          [({"ms": [2, 2, 3]}, True), ({"ms": [2]}, False)]),
    Probe("seq_push_len", SEQ, {"s": "seq<i64>"}, "input.s.push(1i64).len() == input.s.len() + 1",
          [({"s": []}, True), ({"s": [5]}, True)]),
    Probe("seq_first_of_empty", SEQ, {"s": "seq<i64>"}, "input.s.first() == 1",
          [({"s": []}, None), ({"s": [1, 2]}, True), ({"s": [2]}, False)]),
    Probe("match_option", REC, {"o": "option<i64>"},
          "match input.o {\n        Some(v) => v > 0,\n        None => false,\n    }",
          [({"o": {"some": 1}}, True), ({"o": {"some": -1}}, False), ({"o": None}, False)]),
    Probe("recursive_sum", REC, {"s": "seq<i64>"}, "sum(input.s) == 6",
          [({"s": [1, 2, 3]}, True), ({"s": [1]}, False), ({"s": [-4, 10]}, True)],
          helpers="spec fn sum(s: Seq<i64>) -> int\n    decreases s.len(),\n{\n"
                  "    if s.len() == 0 { 0 } else { s.last() + sum(s.drop_last()) }\n}\n\n"),
    Probe("vstd_pow", POW, {"b": "i64", "e": "u32", "r": "i64"},
          "pow(input.b as int, input.e as nat) == input.r as int",
          [({"b": 2, "e": 10, "r": 1024}, True), ({"b": -3, "e": 3, "r": -27}, True),
           ({"b": 5, "e": 0, "r": 1}, True), ({"b": 2, "e": 3, "r": 9}, False)],
          uses="use vstd::arithmetic::power::pow;\n"),
]


# ---------------------------------------------------------------------- running a probe

def build_task(probe: Probe, root: Path) -> Task:
    """A one-probe task directory under ``root``: its cases are pre_complete cases."""
    d = root / probe.name
    (d / "tests").mkdir(parents=True, exist_ok=True)
    sig = "".join(f'{k} = "{t}"\n' for k, t in probe.inputs.items())
    (d / "task.toml").write_text(f'id = "{probe.name}"\nlanguage = "verus"\n'
                                 f'[signature.input]\n{sig}[signature.output]\nresult = "bool"\n')
    (d / "tests" / "pre_complete.jsonl").write_text("".join(
        json.dumps({"id": f"c{k}", "input": inp}) + "\n"
        for k, (inp, _) in enumerate(probe.cases)))
    (d / "skeleton.rs").write_text(skeleton_for_folder(d))
    return load_task(d)


def spec_text(probe: Probe, task: Task) -> str:
    text = probe.uses + task.skeleton
    return text.replace("spec fn pre_spec(input: Input) -> bool {\n    true\n}",
                        probe.helpers + "spec fn pre_spec(input: Input) -> bool {\n    "
                        + probe.pre + "\n}")


def run_probe(probe: Probe, root: Path, engines: list[str]) -> dict[str, list[Verdict]]:
    """Verdicts per engine, in case order; the front end must accept the spec."""
    backend = registry().backends["verus"]
    task = build_task(probe, root)
    spec = backend.load_spec(task, spec_text(probe, task), f"{probe.name}.rs")
    cases = sorted(task.all_cases(), key=lambda c: int(c.id[1:]))
    return {e: engine_named(backend, e).check(spec, task, cases, Limits()) for e in engines}


def wrong(probe: Probe, verdicts: list[Verdict]) -> list[str]:
    """Decided verdicts that differ from the hand-worked truth (unspecified cases included)."""
    out = []
    for (inp, want), v in zip(probe.cases, verdicts, strict=True):
        if v.value is Truth.unknown:
            continue
        got = v.value is Truth.true
        if want is None or got != want:
            out.append(f"{probe.name} {inp}: engine {v.engine} said {v.value.value}, Verus: "
                       f"{'unspecified' if want is None else want} ({v.reason})")
    return out


def available_engines() -> list[str]:
    return [e.name for e in registry().backends["verus"].engines() if e.info().available]
