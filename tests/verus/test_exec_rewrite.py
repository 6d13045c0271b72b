"""The exec_spec rewrite: Verus's meaning of `/`, `%`, chains and casts, as spec text (no cargo).

Expected texts were written by hand from the Verus guide (reference-arithmetic.md: Euclidean
`/` `%`; reference-chained-ineq.md: `a <= b < c` is `a <= b && b < c`; reference-as.md).
"""

from __future__ import annotations

from adequacy_verus.exec_spec.divergence import divergences
from adequacy_verus.exec_spec.rewrite import rewrite
from adequacy_verus.frontend import parse_spec


def _rw(body: str, params: str = "a: i64, b: i64") -> str:
    src = f"verus! {{\nspec fn f({params}) -> bool {{\n\t{body}\n}}\n}}\n"
    out = rewrite(src, parse_spec(src, "t.rs"))
    assert out.count("\n") == src.count("\n")  # lines stay the spec's
    return out.splitlines()[2].strip()


def test_division_and_remainder_become_euclidean_calls_nested_left_to_right() -> None:
    # (arithmetic operands are computed in i128 by widen.py: see test_exec_widen.py)
    assert _rw("a / b / 2 == a % (b * 3)") == \
        "__ade_div(__ade_div(__ade_int(a), __ade_int(b)), 2) == " \
        "__ade_rem(__ade_int(a), (__ade_int(b) * 3))"
    assert _rw("-a % 2 == 1") == "__ade_rem(__ade_int(-a), 2) == 1"  # unary binds tighter
    assert _rw("a / 2 as i64 == 0") == \
        "__ade_div(__ade_int(a), __ade_int(2 as i64)) == 0"  # `as` binds tighter


def test_unsigned_division_is_left_alone() -> None:
    assert _rw("a / 2 == b % 3", "a: u64, b: usize") == "__ade_int(a) / 2 == __ade_int(b) % 3"


def test_chains_expand_outside_guards_only() -> None:
    assert _rw("'é' <= c <= 'z'", "c: char") == "('é' <= c && c <= 'z')"
    assert _rw("a > b >= 0") == "(a > b && b >= 0)"
    guard = "forall|j: usize| 0 <= j < s.len() ==> s[j as int] > 0"
    assert _rw(guard, "s: Seq<i64>") == guard


def test_casts_to_nat_and_char() -> None:
    assert _rw("(a as nat) == 0") == "(__ade_int(__ade_nat(a))) == 0"
    # already >= 0: no `__ade_nat`; `as nat` is an int value, so i128
    assert _rw("(a as u64) as nat == 0") == "__ade_int((a as u64) as nat) == 0"
    assert _rw("((c as u32) + 1) as char == 'b'", "c: char") == \
        "__ade_char(((c as u32) + 1)) == 'b'"


def test_what_cannot_be_rewritten_is_reported_with_its_line() -> None:
    src = ("verus! {\nspec fn pre_spec(a: u64, b: u64) -> bool {\n    let d = a - b;\n"
           "    -d == 3\n}\nspec fn post_spec(s: Seq<i64>, x: i64) -> bool {\n"
           "    s.index_of(x) == 0\n}\n}\n")
    got = divergences(parse_spec(src, "t.rs"), rewritten=True)
    assert "unary `-`" in got["pre"] and "(spec line 4)" in got["pre"]
    assert "index_of" in got["post"] and "(spec line 7)" in got["post"]


def test_mixed_machine_widths_are_blamed_on_their_own_line() -> None:
    # rustc would reject `u8 + i64` on the whole exec_spec_unverified! block; the check names
    # the line instead. In value positions widen.py computes both in i128; an index is a
    # usize position it leaves alone.
    src = ("verus! {\nspec fn pre_spec(x: u8, y: i64, s: Seq<i64>) -> bool {\n    true &&\n"
           "    s[x + y] > 0\n}\nspec fn post_spec(x: u8, y: i64) -> bool {\n"
           "    (x as int) > y\n}\n}\n")
    got = divergences(parse_spec(src, "t.rs"), rewritten=True)
    assert "mixed integer types u8 and i64" in got["pre"] and "(spec line 4)" in got["pre"]
    assert "post" not in got


def test_misplaced_tokens_stop_the_rewrite() -> None:
    # if token positions ever disagree with the text (a lexer change), nothing is rewritten
    # and the engine falls back to leaving `/` `%` unknown (divergences without rewriting)
    import dataclasses

    import pytest

    from adequacy_verus.exec_spec.rewrite import RewriteError

    src = "verus! {\nspec fn pre_spec(a: i64) -> bool {\n    a % 2 == 1\n}\n}\n"
    m = parse_spec(src, "t.rs")
    m.tokens = [dataclasses.replace(t, col=t.col + 1) for t in m.tokens]
    with pytest.raises(RewriteError):
        rewrite(src, m)
    assert "Euclidean" in divergences(m, rewritten=False)["pre"]


def test_int_and_nat_binders_of_forall_and_exists_become_usize() -> None:
    # the macro loops only over machine-integer binders; `usize` is exact because rustc then
    # types the bounds as usize (non-usize bounds fail to compile -> unknown)
    assert _rw("forall|i: int| 0 <= i < s.len() ==> s[i] > 0", "s: Seq<i64>") == \
        "forall|i: usize| 0 <= i < s.len() ==> s[i] > 0"
    assert _rw("exists|i: nat, j: int| 0 <= i < s.len() && i < j < s.len() && (s[i] == s[j])",
               "s: Seq<i64>") == \
        "exists|i: usize, j: usize| 0 <= i < s.len() && i < j < s.len() && (s[i] == s[j])"
    # `choose`, machine binders and generic types are left alone (the usize/u8 comparison is
    # an int comparison in Verus: widen.py computes it in i128)
    assert _rw("forall|i: u8, t: Seq<int>| t.len() == i", "s: Seq<i64>") == \
        "forall|i: u8, t: Seq<int>| __ade_int(t.len()) == __ade_int(i)"


def test_a_widened_binder_compared_with_another_machine_type_is_blamed_on_its_line() -> None:
    src = ("verus! {\nspec fn pre_spec(s: Seq<i64>) -> bool {\n    true &&\n"
           "    forall|i: int| 0 <= i < s.len() ==> s[i] != i\n}\n"
           "spec fn post_spec(s: Seq<i64>, x: i64) -> bool {\n"
           "    forall|i: int| 0 <= i < s.len() ==> s[i] != x\n}\n}\n")
    # `s[i] != i` compares an i64 with the usize binder: an int comparison in Verus, which
    # widen.py computes in i128, so neither predicate diverges
    got = divergences(parse_spec(src, "t.rs"), rewritten=True)
    assert got == {}


def test_binders_without_an_explicit_lower_bound_are_left_int() -> None:
    # a usize binder would drop i == -1, where `i < 2 ==> i >= 0` is false in Verus
    assert _rw("forall|i: int| i < 2 ==> i >= 0") == "forall|i: int| i < 2 ==> i >= 0"
    assert _rw("forall|i: int, j: int| 0 <= i < 3 && j < i ==> j >= 0") == \
        "forall|i: usize, j: int| 0 <= i < 3 ==> (j < i ==> j >= 0)"  # j stays int
    # a guard in parentheses bounds the binder too (widen.py drops the parentheses)
    assert _rw("exists|i: int| (0 <= i < 3) && i == 1") == "exists|i: usize| 0 <= i < 3 && i == 1"
