"""interp's fast loops (``interp/fastloop.py``): the lowered quantifier gives the value Verus's
semantics gives, also where it must hand the work back to the closures (deoptimise), and the
step and time limits still stop it.

Expected values are worked out by hand from the Verus guide: spec-arithmetic.md (``int`` is
unbounded, ``/`` and ``%`` are Euclidean), reference-as.md (``as u8`` truncates, ``as nat``
of a negative value is unspecified), and the three-valued reading of unspecified values that
docs/verus-interp.md states (an out-of-range index is unspecified; ``forall`` is false if any
instance is false, true only if all are true)."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from adequacy.model.types import parse_type
from adequacy_verus.frontend import parse_spec
from adequacy_verus.interp import _run_big_stack, compile_module
from adequacy_verus.interp import fastloop as F
from adequacy_verus.interp import quant as Q
from adequacy_verus.interp.compiler import Abort, Budget, Program
from adequacy_verus.interp.fastloop import CHUNK
from adequacy_verus.interp.values import Undef, from_json, known_int_seq, note_int_seq

UNDEF = "UNDEF"


@pytest.fixture(autouse=True)
def lower_every_range(monkeypatch: pytest.MonkeyPatch) -> None:
    """Short ranges stay on the closures by default (``quant.LOWER_AT``); the hand-worked
    cases below are short, so they lower every range (test_threshold checks the default)."""
    monkeypatch.setattr(Q, "LOWER_AT", 0)


def program(body: str) -> Program:
    return compile_module(parse_spec("verus! {\n" + body + "\n}", "t.rs"))


def call(prog: Program, fn: str, *args: Any, steps: int = 2_000_000,
         seconds: float = 5.0) -> Any:
    prog.budget = Budget(steps, seconds, 500)
    try:
        return _run_big_stack(lambda: prog.call_fn(fn, *args))
    except Undef:
        return UNDEF


def run(body: str, fn: str, *args: Any) -> Any:
    return call(program(body), fn, *args)


def is_fast(prog: Program, fn: str) -> bool:
    """Whether ``fn``'s body (a quantifier) was lowered to a fast loop."""
    code = prog.fn_code(prog.fns[fn]).body
    return getattr(code, "__name__", "") == "quant_fast"


SORTED = ("spec fn sorted(s: Seq<i64>) -> bool {\n"
          "    forall|i: usize| 1 <= i < s.len() ==> s[(i - 1) as int] <= s[i as int]\n}")
FIND = ("spec fn absent(s: Seq<int>, t: int) -> bool {\n"
        "    forall|j: int| 0 <= j < s.len() ==> s[j] != t\n}\n"
        "spec fn has(s: Seq<int>, t: int) -> bool {\n"
        "    exists|j: int| 0 <= j < s.len() && s[j] == t\n}")


@pytest.mark.parametrize(("s", "want"), [
    ((1, 2, 2, 3), True), ((1, 3, 2), False), ((), True), ((5,), True),
    ((-(10 ** 30), 0, 10 ** 30), True),  # int is unbounded; no i64 check in spec code
])
def test_sorted_is_lowered_and_exact(s: tuple[int, ...], want: bool) -> None:
    prog = program(SORTED)
    assert is_fast(prog, "sorted")
    assert call(prog, "sorted", s) is want
    # the same values from a Seq from_json vouched for (the unchecked variant of the loop)
    big = note_int_seq(tuple(range(-300, 0)) + s)
    assert known_int_seq(big)
    assert call(prog, "sorted", big) is (want and (not s or s[0] >= -1))


@pytest.mark.parametrize(("s", "t", "absent", "has"), [
    ((4, 5, 6), 5, False, True), ((4, 5, 6), 7, True, False), ((), 1, True, False),
])
def test_first_occurrence_shapes(s: tuple[int, ...], t: int, absent: bool, has: bool) -> None:
    prog = program(FIND)
    assert is_fast(prog, "absent") and is_fast(prog, "has")
    assert call(prog, "absent", s, t) is absent
    assert call(prog, "has", s, t) is has


def test_out_of_range_index_is_unspecified_unless_another_instance_decides() -> None:
    src = "spec fn f(s: Seq<int>) -> bool { forall|i: int| 0 <= i <= s.len() ==> s[i] >= 0 }"
    assert is_fast(program(src), "f")
    assert run(src, "f", (1, 2)) == UNDEF        # i == 2 reads past the end
    assert run(src, "f", (-1, 2)) is False       # i == 0 is a false instance: false
    # a conditional read past the end (guarded by i > 0) never happens at i == 0
    src2 = ("spec fn g(s: Seq<int>) -> bool { forall|i: int| 0 <= i < s.len() ==> "
            "(i == 0 || s[i - 1] <= s[i]) }")
    assert run(src2, "g", (3, 4, 9)) is True
    assert run(src2, "g", (3, 1)) is False


def test_casts_on_the_loop_variable() -> None:
    # (i - 1) as nat at i == 0 is unspecified, and nothing else decides: unknown
    assert run("spec fn f() -> bool { forall|i: int| 0 <= i < 3 ==> ((i - 1) as nat) >= 0 }",
               "f") == UNDEF
    # u8 truncation: 256 as u8 == 0, 257 as u8 == 1
    assert run("spec fn f() -> bool { forall|i: int| 256 <= i < 258 ==> (i as u8) < 2 }",
               "f") is True
    assert run("spec fn f() -> bool { forall|i: int| 250 <= i < 258 ==> (i as u8) < 2 }",
               "f") is False


def test_euclidean_division_by_a_positive_literal() -> None:
    # -5 / 2 == -3 and -5 % 2 == 1 (Euclidean; guide spec-arithmetic.md)
    assert run("spec fn f() -> bool { exists|i: int| -5 <= i < -4 && i / 2 == -3 }",
               "f") is True
    assert run("spec fn f() -> bool { forall|i: int| -9 <= i < 9 ==> 0 <= i % 3 && i % 3 < 3 }",
               "f") is True
    assert run("spec fn f() -> bool { exists|i: int| -5 <= i < -4 && i % 2 == -1 }",
               "f") is False


@pytest.mark.parametrize(("s", "t", "want"), [
    ((1, 4, 6), 10, True), ((1, 4, 6), 5, True), ((1, 4, 6), 2, False), ((1,), 2, False),
])
def test_pairs(s: tuple[int, ...], t: int, want: bool) -> None:
    """i < j: an element is never paired with itself (1 + 1 == 2 is no witness)."""
    src = ("spec fn f(s: Seq<int>, t: int) -> bool { exists|i: int, j: int| "
           "0 <= i < j < s.len() && s[i] + s[j] == t }")
    prog = program(src)
    assert is_fast(prog, "f")
    assert call(prog, "f", s, t) is want


@pytest.mark.parametrize(("s", "pal", "lower", "has_x"), [
    (tuple("aba"), True, True, False), (tuple("ab"), False, True, False),
    (tuple("xZ"), False, False, True), ((), True, True, False),
])
def test_chars(s: tuple[str, ...], pal: bool, lower: bool, has_x: bool) -> None:
    """chars compare by scalar value ('Z' < 'a'); a SpecString is a Seq<char>."""
    src = ("spec fn pal(s: Seq<char>) -> bool { forall|i: int| 0 <= i < s.len() ==> "
           "s[i] == s[s.len() - 1 - i] }\n"
           "spec fn lower(s: Seq<char>) -> bool { forall|i: int| 0 <= i < s.len() ==> "
           "'a' <= s[i] && s[i] <= 'z' }\n"
           "spec fn has_x(s: Seq<char>) -> bool { exists|i: int| 0 <= i < s.len() && "
           "s[i] == 'x' }")
    prog = program(src)
    assert all(is_fast(prog, f) for f in ("pal", "lower", "has_x"))
    assert call(prog, "pal", s) is pal
    assert call(prog, "lower", s) is lower
    assert call(prog, "has_x", s) is has_x


def test_well_typed_inputs_never_fall_back(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fast loops really run (no Deopt) on well-typed values, ints and chars alike."""
    fell_back: list[str] = []
    real = Q._generic

    def counting(*a: Any, **k: Any) -> Any:
        g = real(*a, **k)

        def gen(fr: list[Any]) -> Any:
            fell_back.append("x")
            return g(fr)
        return gen
    monkeypatch.setattr(Q, "_generic", counting)
    prog = program(SORTED + "\n" + FIND + "\nspec fn pal(s: Seq<char>) -> bool { forall|i: int| "
                   "0 <= i < s.len() ==> s[i] == s[s.len() - 1 - i] }")
    ints = tuple(range(1000))
    assert call(prog, "sorted", ints) is True
    assert call(prog, "absent", ints, -1) is True
    assert call(prog, "has", ints, 999) is True
    assert call(prog, "pal", tuple("abcb" * 100)) is False
    assert call(prog, "pal", tuple("abcba")) is True
    assert fell_back == []
    assert call(prog, "sorted", ints + (True,)) == UNDEF
    assert fell_back == ["x"]


CHAR_BODIES = [
    "forall|i: int| 0 <= i < s.len() ==> s[i] == s[s.len() - 1 - i]",
    "forall|i: int| 0 <= i < s.len() ==> s[i] != c || i == 0",
    "exists|i: int| 0 <= i <= s.len() && s[i] < 'b'",
    "forall|i: int, j: int| 0 <= i < j < s.len() ==> s[i] <= s[j]",
]


@pytest.mark.parametrize("body", CHAR_BODIES)
def test_char_loops_agree_with_the_closures(body: str, monkeypatch: pytest.MonkeyPatch) -> None:
    src = f"spec fn f(s: Seq<char>, c: char) -> bool {{ {body} }}"
    fast = program(src)
    assert is_fast(fast, "f")
    monkeypatch.setattr(Q, "lower_quant", lambda *a, **k: None)
    slow = program(src)
    rnd = random.Random(7)
    for _ in range(300):
        s = tuple(rnd.choice("abAB") if rnd.random() > 0.05 else 1
                  for _ in range(rnd.randrange(0, 6)))
        c = rnd.choice(["a", "b", "B", 2])
        assert call(fast, "f", s, c) == call(slow, "f", s, c), (s, c)


def test_elements_of_another_type_go_back_to_the_closures() -> None:
    # bools compare as in Rust (false < true); the fast loop expects ints and hands over
    src = "spec fn f(s: Seq<bool>) -> bool { forall|i: int| 0 <= i < 1 ==> s[i] <= s[i + 1] }"
    assert run(src, "f", (False, True)) is True
    assert run(src, "f", (True, False)) is False
    # a Seq where an int is read as one: not comparable, unspecified
    src2 = "spec fn f(s: Seq<int>, t: Seq<int>) -> bool { forall|i: int| 0 <= i < 1 ==> s[i] == t }"
    assert run(src2, "f", (1,), (1,)) == UNDEF


def test_threshold_compiles_only_for_long_ranges(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Q, "LOWER_AT", 256)
    monkeypatch.setattr(F, "_MAKERS", {})
    prog = program(SORTED)
    assert call(prog, "sorted", tuple(range(100))) is True
    assert not F._MAKERS  # 99 instances: the closures, nothing compiled
    s = tuple(range(1000))
    assert call(prog, "sorted", s) is True
    assert len(F._MAKERS) == 1
    assert call(prog, "sorted", s[:500] + (7,) + s[500:]) is False
    assert call(prog, "sorted", s[:999] + (True,)) == UNDEF  # a bool is not comparable here


def test_note_int_seq_vouches_only_for_that_object() -> None:
    t = note_int_seq(tuple(range(1000)))
    assert known_int_seq(t)
    assert not known_int_seq(tuple(range(1000)))  # equal, but another object
    assert not known_int_seq(tuple(range(10)))


def test_from_json_fast_path_still_refuses_non_integers() -> None:
    ty = parse_type("seq<i64>")
    t = from_json(list(range(300)), ty)
    assert t == tuple(range(300)) and known_int_seq(t)
    for bad in ([1] * 300 + [True], [1] * 300 + [1.0], [1] * 300 + ["1"]):
        with pytest.raises(ValueError, match="expected an integer"):
            from_json(bad, ty)
    assert from_json([], ty) == ()


def test_step_limit_still_stops_a_fast_loop_at_the_same_bound() -> None:
    prog = program("spec fn f(n: int) -> bool { forall|i: int| 0 <= i < n ==> i >= 0 }")
    assert is_fast(prog, "f")
    assert call(prog, "f", 50_000, steps=2_000_000) is True
    # one step per instance, paid per chunk: within one chunk of the instances run
    assert 50_000 <= prog.budget.steps <= 50_000 + CHUNK + 10
    with pytest.raises(Abort, match="step limit"):
        call(prog, "f", 10 ** 12, steps=100_000)


def test_step_limit_stops_a_two_variable_loop() -> None:
    prog = program("spec fn f(n: int) -> bool { forall|i: int, j: int| 0 <= i < n && "
                   "0 <= j < n ==> i + j >= 0 }")
    assert is_fast(prog, "f")
    assert call(prog, "f", 100) is True
    assert 10_000 <= prog.budget.steps <= 10_000 + 100 + 10  # + 1 per outer value
    with pytest.raises(Abort, match="step limit"):
        call(prog, "f", 10 ** 6, steps=100_000)


def test_clock_still_stops_a_fast_loop() -> None:
    prog = program("spec fn f(n: int) -> bool { forall|i: int| 0 <= i < n ==> i >= 0 }")
    t0 = time.monotonic()
    with pytest.raises(Abort, match="timeout"):
        call(prog, "f", 10 ** 12, steps=10 ** 15, seconds=0.3)
    assert time.monotonic() - t0 < 2.0


BODIES = [
    "forall|i: int| 0 <= i < s.len() ==> s[i] <= t",
    "forall|i: int| 1 <= i < s.len() ==> s[i - 1] < s[i]",
    "forall|i: int| 0 <= i < s.len() - 1 ==> s[i] <= s[i + 1] || s[i] == t",
    "forall|i: int| 0 <= i < s.len() && s[i] > 0 ==> s[i] % 2 == 0",
    "forall|i: int| 0 <= i <= s.len() ==> s[i] != t",
    "forall|i: nat| i < s.len() ==> !(s[i as int] == t) && s[i as int] / 2 >= -3",
    "exists|i: int| 0 <= i < s.len() && s[i] == t",
    "exists|i: int| 0 <= i < s.len() + 1 && s[i] + 1 == t",
    "exists|i: int| 2 <= i < s.len() && s[i - 2] <= t <= s[i]",
    "exists|i: int| -1 <= i < 3 && (i as nat) < t",
    "forall|i: int| 0 <= i < t ==> (i as u8) < 4",
    # reads past either end under a condition (checked per element, not ahead of the loop)
    "forall|i: int| 0 <= i <= s.len() ==> (i == 1 || s[i] >= t)",
    "exists|i: int| 0 <= i < s.len() + 1 && i != 1 && s[i - 1] == t",
    # two variables, the inner range depending on the outer one
    "forall|i: int, j: int| 0 <= i < j < s.len() ==> s[i] <= s[j]",
    "exists|i: int, j: int| 0 <= i < j < s.len() && s[i] + s[j] == t",
    "forall|i: int, j: int| 0 <= i < s.len() && i <= j <= s.len() ==> s[j] != t || i == j",
    "forall|i: nat, j: nat| i < 4 && j < i ==> (j as u8) < t && s[i - 1] >= -3",
]


@pytest.mark.parametrize("body", BODIES)
def test_fast_loop_agrees_with_the_closures(body: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Differential, beyond the hand-worked cases above: the generic closures (whose
    semantics the probes in tests/semantics check) against the lowered loop, on random
    sequences (short, with out-of-range reads, negative values, and bools mixed in)."""
    src = f"spec fn f(s: Seq<int>, t: int) -> bool {{ {body} }}"
    fast = program(src)
    assert is_fast(fast, "f")
    monkeypatch.setattr(Q, "lower_quant", lambda *a, **k: None)
    slow = program(src)
    assert not is_fast(slow, "f")
    rnd = random.Random(23)
    for _ in range(300):
        n = rnd.randrange(0, 7)
        s = tuple(rnd.choice([rnd.randrange(-4, 5), rnd.randrange(-4, 5), True])
                  if rnd.random() < 0.1 else rnd.randrange(-4, 5) for _ in range(n))
        t = rnd.randrange(-3, 6)
        assert call(fast, "f", s, t) == call(slow, "f", s, t), (s, t)
