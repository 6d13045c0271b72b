"""Interp's limits hold inside built-ins, it has a memory cap,
and long chains or deep nesting never become RecursionError records.

Every spec is a variant of the bundled count_in_range gold spec with another ``pre_spec``;
the truths are worked out by hand from the Verus guide's meaning of the operators
(``&&``/``||`` three-valued, ``==>`` right-associative, Euclidean arithmetic).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from adequacy.errors import SpecInvalid
from adequacy.examples import bundled_folder
from adequacy.extensions.backend import Limits
from adequacy.extensions.registry import registry
from adequacy.model.task import Case
from adequacy.model.verdicts import Bucket, Truth
from adequacy.taskdirs.load import load_task
from adequacy_verus.interp import evaluate_cases

TASK = bundled_folder("verus") / "count_in_range"
GOLD_PRE = "spec fn pre_spec(input: Input) -> bool {\n    input.lo <= input.hi\n}"


def variant(pre_body: str, helpers: str = "") -> str:
    gold = (TASK / "specs" / "gold.rs").read_text()
    assert GOLD_PRE in gold
    return gold.replace(GOLD_PRE, helpers + "\nspec fn pre_spec(input: Input) -> bool {\n    "
                        + pre_body + "\n}")


def pre(text: str, *inputs: dict[str, Any], limits: Limits | None = None) -> list[Any]:
    """Load ``text`` through the backend (front end, compile) and evaluate pre_spec."""
    return evaluate(load(text), *inputs, limits=limits)


def load(text: str) -> Any:
    return registry().backends["verus"].load_spec(load_task(TASK), text, "spec.rs").data.program


def evaluate(program: Any, *inputs: dict[str, Any], limits: Limits | None = None) -> list[Any]:
    cases = [Case(id=f"c{k}", bucket=Bucket.pre_complete, input=i) for k, i in enumerate(inputs)]
    return evaluate_cases(program, load_task(TASK), cases, limits or Limits())


def case(lo: int, hi: int, arr: tuple[int, ...] = (1,)) -> dict[str, Any]:
    return {"arr": list(arr), "lo": lo, "hi": hi}


N = 10_000
T = "input.lo <= input.hi"   # true on case(0, 1), false on case(2, 1)
F = "input.lo > input.hi"    # false on case(0, 1), true on case(2, 1)
U = "input.arr[5] > 0"      # index out of range on a 1-element arr: unspecified


# ---------------------------------------------------------------- point 9: long chains

@pytest.mark.parametrize(("body", "truths"), [
    # `&&`: 10,000 conjuncts
    (" && ".join([T] * N), [Truth.true, Truth.false]),
    # one unspecified conjunct: undefined where every other is true, false where one is false
    (" && ".join([T] * (N // 2) + [U] + [T] * (N // 2)), [Truth.unknown, Truth.false]),
    # `&&&` prefix form, parenthesised both ways
    ("&&& " + " &&& ".join(f"({T} && ({T}))" for _ in range(N // 2)),
     [Truth.true, Truth.false]),
    # `||`: 10,000 disjuncts
    (" || ".join([F] * N), [Truth.false, Truth.true]),
    # an unspecified disjunct is absorbed by a true one, and only by it
    (" || ".join([F] * (N // 2) + [U] + [F] * (N // 2)), [Truth.unknown, Truth.true]),
    (" || ".join([U] + [T] * N), [Truth.true, Truth.unknown]),
    # `==>` is right-associative: F ==> (F ==> (... ==> false)); true when the first premise
    # is false (lo <= hi), false when every premise holds and the conclusion is false
    (" ==> ".join([F] * N + ["false"]), [Truth.true, Truth.false]),
    # an unspecified premise leaves it to the conclusion: T ==> U ==> T ... ==> (F or T)
    (" ==> ".join([T, U] + [T] * N + [F]), [Truth.unknown, Truth.true]),
    (" ==> ".join([T, U] + [T] * N + [T]), [Truth.true, Truth.true]),
    # `<==` groups to the left: false <== F <== ... is F ==> (... ==> false)
    (" <== ".join(["false"] + [F] * N), [Truth.true, Truth.false]),
    # `<==>` groups to the left: 10,000 copies of `true` (even count) give true, then `== T`
    ("(" + " <==> ".join(["true"] * N) + f") == ({T})", [Truth.true, Truth.false]),
    # `+` / `-`: 10,000 terms, 1 - 1 + 1 - 1 ... + input.hi
    (" + ".join(["1 - 1"] * N) + " + input.hi == input.hi", [Truth.true, Truth.true]),
    ("0" + " + input.hi" * N + f" == {N} * input.hi && {T}", [Truth.true, Truth.false]),
    # `*` and `/` mixed in one left spine: ((((hi * 2) / 2) * 2) / 2) ... == hi
    ("input.hi" + " * 2 / 2" * (N // 2) + " == input.hi", [Truth.true, Truth.true]),
])
@pytest.mark.slow
def test_long_chains_are_evaluated(body: str, truths: list[Truth]) -> None:
    vs = pre(variant(body), case(0, 1), case(2, 1))
    assert [v.value for v in vs] == truths, [v.reason for v in vs]


@pytest.mark.slow
def test_long_else_if_chain_is_evaluated() -> None:
    arms = " else ".join(f"if input.lo == {k} {{ {'true' if k % 2 == 0 else 'false'} }}"
                         for k in range(N))
    body = f"{arms} else {{ input.lo < 0 }}"
    vs = pre(variant(body), case(N - 2, N), case(N - 1, N), case(-5, 0), case(N + 3, N + 4))
    assert [v.value for v in vs] == [Truth.true, Truth.false, Truth.true, Truth.false]


@pytest.mark.slow
def test_long_match_is_evaluated() -> None:
    """Control (passes before and after): match arms were always a list."""
    arms = ", ".join(f"{k} => {'true' if k % 3 == 0 else 'false'}" for k in range(N))
    body = f"match input.lo {{ {arms}, _ => input.lo == -1 }}"
    vs = pre(variant(body), case(9999, N), case(9998, N), case(-1, 0), case(-2, 0))
    assert [v.value for v in vs] == [Truth.true, Truth.false, Truth.true, Truth.false]


@pytest.mark.slow
def test_many_helpers_calling_each_other() -> None:
    """Control (passes before and after): helpers compile one by one, calls run deep."""
    # h0 calls h1 ... calls h1999, which says lo <= hi: every helper passes the value on
    n = 2000
    helpers = "\n".join(f"spec fn h{k}(a: i32, b: i32) -> bool {{ h{k + 1}(a, b) }}"
                        for k in range(n))
    helpers += f"\nspec fn h{n}(a: i32, b: i32) -> bool {{ a <= b }}"
    vs = pre(variant("h0(input.lo, input.hi)", helpers), case(0, 1), case(2, 1))
    assert [v.value for v in vs] == [Truth.true, Truth.false]


@pytest.mark.slow
def test_quantifier_guard_of_many_conjuncts_and_disjuncts() -> None:
    # forall|i| 0 <= i && i < 1 && 0 <= i && ... ==> i == 0 (10,000 conjuncts in the guard)
    guard = " && ".join(["0 <= i && i < 1"] * (N // 2))
    ok = pre(variant(f"forall|i: int| {guard} ==> i == 0 && {T}"), case(0, 1), case(2, 1))
    assert [v.value for v in ok] == [Truth.true, Truth.false]
    # forall|i| i == 0 || i == 1 || ... || i == 999 ==> i < hi: 1,000 alternatives split at once
    alts = " || ".join(f"i == {k}" for k in range(1000))
    vs = pre(variant(f"forall|i: int| ({alts}) ==> i < input.hi"), case(0, 1000), case(0, 999))
    assert [v.value for v in vs] == [Truth.true, Truth.false]


def test_product_of_disjunctive_guards_is_unknown_not_a_blow_up() -> None:
    # (i < 0 || i > 5) && ... 16 times: no alternative bounds i, so each split quantifier would
    # split again, 2^16 of them; capped, the quantifier is unbounded (unknown), and quickly
    guard = " && ".join(["(i < 0 || i > 5)"] * 16)
    t0 = time.perf_counter()
    vs = pre(variant(f"forall|i: int| {guard} ==> false"), case(0, 1))
    assert time.perf_counter() - t0 < 5
    assert vs[0].value is Truth.unknown and "unbounded" in vs[0].reason


def test_disjunctive_guards_that_bound_still_split() -> None:
    """Control (passes before and after): after one split every alternative bounds i, so the
    cap on splits does not cost this decision: forall i in {0, 1}: i < 2."""
    guard = " && ".join(["(i == 0 || i == 1)"] * 18)
    vs = pre(variant(f"forall|i: int| {guard} ==> i < 2"), case(0, 1))
    assert vs[0].value is Truth.true, vs[0].reason


# ---------------------------------------------------------------- point 9: genuine nesting

@pytest.mark.parametrize("depth", [10, 200])
def test_nesting_within_the_limit_is_evaluated(depth: int) -> None:
    body = "(" * depth + T + ")" * depth
    assert [v.value for v in pre(variant(body), case(0, 1), case(2, 1))] == [
        Truth.true, Truth.false]
    chain = "Seq::<int>::empty()" + ".push(1)" * depth
    assert pre(variant(f"{chain}.len() == {depth}"), case(0, 1))[0].value is Truth.true


@pytest.mark.parametrize(("make", "what"), [
    (lambda n: "(" * n + "true" + ")" * n, "parentheses"),
    (lambda n: "!" * n + "true", "prefix operators"),
    (lambda n: "{ " * n + "true" + " }" * n, "blocks"),
    (lambda n: "Seq::<int>::empty()" + ".push(1)" * n + ".len() > 0", "method chain"),
    (lambda n: "f(" * n + "true" + ")" * n, "calls"),
    (lambda n: "match input.lo { _ => " * n + "true" + " }" * n, "matches"),
])
@pytest.mark.slow
def test_too_deep_nesting_is_invalid_with_its_line(make: Any, what: str) -> None:
    body = "\n" + make(20_000)
    text = variant(body, "spec fn f(b: bool) -> bool { b }")
    line = text[:text.index(body)].count("\n") + 2
    with pytest.raises(SpecInvalid) as e:
        registry().backends["verus"].load_spec(load_task(TASK), text, "deep.rs")
    assert "nesting deeper than 256" in e.value.message, (what, e.value)
    assert (e.value.file, e.value.line) == ("deep.rs", line), what


def test_too_deep_type_or_pattern_is_invalid_with_its_line() -> None:
    ty = "Seq<" * 20_000 + "int" + ">" * 20_000
    text = variant("true", f"spec fn g(x: {ty}) -> bool {{ true }}")
    with pytest.raises(SpecInvalid, match="nesting deeper than 256") as e:
        registry().backends["verus"].load_spec(load_task(TASK), text, "deep.rs")
    assert e.value.line is not None
    pat = "Some(" * 20_000 + "_" + ")" * 20_000
    text = variant(f"match Some(input.lo) {{ {pat} => true, _ => false }}")
    with pytest.raises(SpecInvalid, match="nesting deeper than 256") as e:
        registry().backends["verus"].load_spec(load_task(TASK), text, "deep.rs")
    assert e.value.line is not None


# ---------------------------------------------------------------- point 8: time inside built-ins

SUM = " + ".join(f"Set::<int>::range(0, {1_000_000 + k}).len()" for k in range(4000))


@pytest.mark.parametrize("steps", [200_000, 10 ** 12])
@pytest.mark.slow
def test_case_timeout_holds_inside_built_ins(steps: int) -> None:
    """4,000 `Set::range(0, 1e6).len()` terms: about 4e9 elements of C work (minutes). With
    a low step limit the steps run out first; with none, the clock must still stop each case
    within twice its 1 s."""
    program = load(variant(f"{SUM} > 0 && {T}"))
    t0 = time.perf_counter()
    vs = evaluate(program, case(0, 1), case(2, 1), limits=Limits(case_seconds=1.0, steps=steps,
                                                                 timeout_streak=0))
    assert time.perf_counter() - t0 < 2 * 2.0 + 1.0
    for v in vs:
        assert v.value is Truth.unknown and v.seconds < 2.0, (v.reason, v.seconds)
        assert ("step limit" in v.reason) if steps == 200_000 else ("timeout" in v.reason)


@pytest.mark.slow
def test_spec_timeout_covers_the_whole_spec() -> None:
    program = load(variant(f"{SUM} > 0 && {T}"))
    t0 = time.perf_counter()
    vs = evaluate(program, *[case(0, 1)] * 6, limits=Limits(case_seconds=5.0, spec_seconds=2.0,
                                                            steps=10 ** 12, timeout_streak=0))
    assert time.perf_counter() - t0 < 2 * 2.0 + 1.0
    assert all(v.value is Truth.unknown for v in vs)
    assert "spec time limit" in vs[-1].reason


# ---------------------------------------------------------------- point 8: memory cap

UNION = variant("Set::<int>::range(0, 10000000).union(Set::<int>::range(10000000, 20000000))"
                ".union(Set::<int>::range(20000000, 30000000)).len() > 0 && " + T)


@pytest.mark.slow
def test_memory_cap_gives_unknown_out_of_memory_and_the_process_lives(tmp_path: Path) -> None:
    """Three 10-million-element sets reached 2.9 GB in our own process. Under a 256 MiB cap
    (through the CLI option) every case is unknown "out of memory", the child that scored
    them exits normally, and its peak resident set stays well under 1 GiB."""
    exe = shutil.which("adequacy", path=str(Path(sys.executable).parent))
    assert exe is not None
    spec = tmp_path / "union.rs"
    spec.write_text(UNION)
    script = ("import json, resource, subprocess, sys\n"
              "r = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
              "print(json.dumps({'rc': r.returncode, 'out': r.stdout, 'err': r.stderr[-2000:],"
              " 'rss_kb': resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}))\n")
    t0 = time.perf_counter()
    p = subprocess.run([sys.executable, "-c", script, exe, "score", str(TASK), str(spec),
                        "--engine", "interp", "--json", "--no-cache", "--memory-mb", "256",
                        "--case-timeout", "60"],
                       capture_output=True, text=True, timeout=300)
    took = time.perf_counter() - t0
    res = json.loads(p.stdout)
    assert res["rc"] in (0, 1), res["err"]
    reasons = [v["reason"] for v in _verdicts(json.loads(res["out"]))
               if v["bucket"].startswith("pre")]
    assert reasons and all(r.startswith("out of memory") or "not evaluated" in r
                           for r in reasons), reasons[:3]
    assert any(r.startswith("out of memory") for r in reasons)
    assert res["rss_kb"] < 1024 * 1024, res["rss_kb"]
    assert took < 60


@pytest.mark.slow
def test_memory_cap_without_the_step_limit(tmp_path: Path) -> None:
    """With the step limit out of the way, the estimate before each built-in (and the resident
    set) still stops the case at the cap; measured in a fresh process."""
    code = f"""
import json, resource, sys
sys.path.insert(0, {str(Path(__file__).parent)!r})
from adequacy.extensions.backend import Limits
from test_interp_hostile_limits import pre, case, UNION
[v] = pre(UNION, case(0, 1), limits=Limits(memory_mb=256, steps=10 ** 12, case_seconds=60))
print(json.dumps({{'value': v.value.value, 'reason': v.reason,
                  'rss_kb': resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}}))
"""
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=300)
    res = json.loads(p.stdout.strip().splitlines()[-1])
    assert res["value"] == "unknown" and res["reason"].startswith("out of memory"), res
    assert res["rss_kb"] < 1024 * 1024, res


def _verdicts(x: Any) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    stack = [x]
    while stack:
        y = stack.pop()
        if isinstance(y, dict):
            if "case_id" in y and "reason" in y:
                out.append(y)
            stack.extend(y.values())
        elif isinstance(y, list):
            stack.extend(y)
    return out


@pytest.mark.slow
def test_watchdog_stops_work_no_step_pays_for() -> None:
    """Hashing a 1,000,000-element Seq four times inside a `set!` literal costs ~10-20 ms and
    no step; 1,024 such closure calls pass between two looks at the clock (10 s and more). The
    watchdog stops the case at 1.5x its time: each case is unknown within twice its 2 s."""
    program = load(variant("{ let s = [0int; 1000000]; "
                           f"Seq::new(100000, |j: int| set![s, s, s, s].len()).len() > 0 && {T} }}"))
    t0 = time.perf_counter()
    vs = evaluate(program, case(0, 1), case(2, 1),
                  limits=Limits(case_seconds=2.0, steps=10 ** 12, timeout_streak=0))
    assert time.perf_counter() - t0 < 2 * 2 * 2.0 + 1.0
    for v in vs:
        assert v.value is Truth.unknown and "timeout" in v.reason and v.seconds < 4.0, (
            v.reason, v.seconds)


def test_give_up_after_out_of_memory_names_the_kind() -> None:
    """For interp: after ``timeout_streak`` cases that hit the memory cap in a row,
    the predicate's remaining cases are skipped with a reason naming memory, not time."""
    program = load(UNION)
    inputs = [case(0, 1)] * 5
    vs = evaluate(program, *inputs,
                  limits=Limits(memory_mb=256, timeout_streak=3, case_seconds=60))
    reasons = [v.reason for v in vs]
    assert all(v.value == Truth.unknown for v in vs), reasons
    assert all(r.startswith("out of memory") for r in reasons[:3]), reasons
    assert all("ran out of memory" in r and "skipped" in r for r in reasons[3:]), reasons


def test_one_watchdog_thread_serves_every_case(monkeypatch: pytest.MonkeyPatch) -> None:
    """A thread started per case (a ``threading.Timer``) cost ten times a typical case's
    evaluation; 200 cases now start at most the one watchdog thread of the process."""
    import threading

    started: list[str] = []
    real_start = threading.Thread.start

    def counting_start(self: threading.Thread) -> None:
        started.append(self.name)
        real_start(self)

    program = load(variant(T))
    monkeypatch.setattr(threading.Thread, "start", counting_start)
    vs = evaluate(program, *[case(0, 1)] * 200)
    assert all(v.value == Truth.true for v in vs)
    assert len(started) <= 1, started[:5]
