"""Red-team case of ``task from`` on Verus: a clause binder named like a parameter (a closure's,
an untyped quantifier's, a ``let``'s) must be refused as out of reach with the program's line,
not rewritten to ``input.x`` into a spec that is invalid (or means something else)."""

from __future__ import annotations

from pathlib import Path

import pytest

from adequacy.errors import AdequacyError
from adequacy_verus.task_from import convert

PROGRAM = """use vstd::prelude::*;

fn main() {{
    assert_eq!(all_below(&vec![1, 2], 3), true);
}}

verus! {{

fn all_below(arr: &Vec<i32>, bound: i32) -> (r: bool)
    ensures
        {clause},
{{
    true
}}

}} // verus!
"""


@pytest.mark.parametrize("clause", [
    "r == arr@.all(|arr: i32| arr < bound)",
    "r == (forall|bound| 0 <= bound < arr.len() ==> arr[bound] < 3)",
    "r == ({ let bound = 5i32; bound < 9 })",
    "r == ({ let bound: i32 = 5i32; bound < 9 })",
    "r == ({ let (a, bound) = (1i32, 2i32); a < bound })",
    "r == (match arr@.len() { 0 => true, bound => bound > 1 })",
    "r == (match arr@.first() { Some(bound) => bound < 3, None => true })",
    "r == (if let Some(bound) = arr@.first() { bound < 3 } else { true })",
])
def test_a_binder_shadowing_a_parameter_is_out_of_reach(tmp_path: Path, clause: str) -> None:
    prog = tmp_path / "p.rs"
    prog.write_text(PROGRAM.format(clause=clause))
    with pytest.raises(AdequacyError, match=r"shadows the parameter") as e:
        convert(prog, "all_below", tmp_path / "t")
    assert "p.rs" in str(e.value) and ":11" in str(e.value)


def test_a_binder_of_its_own_name_is_rewritten(tmp_path: Path) -> None:
    prog = tmp_path / "p.rs"
    prog.write_text(PROGRAM.format(clause="r == arr@.all(|k: i32| k < bound)"))
    convert(prog, "all_below", tmp_path / "t")
    text = (tmp_path / "t" / "specs" / "original.rs").read_text()
    assert "|k: i32| k < input.bound" in text


@pytest.mark.parametrize("clause", [
    "r == (match arr@.len() { 0 => true, n => n < bound as nat })",
    "r == (match arr@.first() { Some(x) if x < bound => true, _ => false })",
    "r == ({ let (a, k): (i32, i32) = (1i32, 2i32); a < bound })",
])
def test_pattern_binders_of_their_own_names_are_rewritten(tmp_path: Path, clause: str) -> None:
    """Names a pattern reads (the guard, the match scrutinee, the arm body) are still
    parameters and become ``input.x``; only the names it binds are refused."""
    prog = tmp_path / "p.rs"
    prog.write_text(PROGRAM.format(clause=clause))
    convert(prog, "all_below", tmp_path / "t")
    text = (tmp_path / "t" / "specs" / "original.rs").read_text()
    assert "input.bound" in text


def test_a_clause_thousands_of_parentheses_deep_is_an_input_error(tmp_path: Path) -> None:
    prog = tmp_path / "p.rs"
    deep = "(" * 3000 + "bound == bound" + ")" * 3000
    prog.write_text(PROGRAM.format(clause=f"r == {deep}"))
    with pytest.raises(AdequacyError, match="nested too deeply") as e:
        convert(prog, "all_below", tmp_path / "t")
    assert "p.rs" in str(e.value)
