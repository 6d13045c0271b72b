"""Ill-typed Verus specs, each one edit from a bundled gold spec, must be invalid at the line.

Each case is an edit of a kind language models make, with the rule it breaks (rustc's error
code: the Rust Reference and rustc's error index, which Verus keeps for spec code; vstd's
sources for the spec API's signatures; the Verus guide for spec-mode rules). The expected line
is the line of the edit (or of the ``at`` text when the error belongs to an enclosing
construct, like a non-exhaustive ``match``). The golds themselves must stay valid.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from adequacy.errors import SpecInvalid
from adequacy.examples import bundled_folder
from adequacy_verus.frontend import check_source


def _bundled(rel: str) -> Path:
    """``examples/<folder>/...`` as `adequacy examples` lays it out, read in place."""
    _, folder, *rest = Path(rel).parts
    return bundled_folder(folder).joinpath(*rest)

EX = "examples/verus"
VG = "examples/verina-gold"

BSF = f"{EX}/binary_search_first/specs/gold.rs"
COP = f"{EX}/coprime_check/specs/gold.rs"
CIR = f"{EX}/count_in_range/specs/gold.rs"
EUC = f"{EX}/euclid_mod/specs/gold.rs"
PAL = f"{EX}/is_palindrome/specs/gold.rs"
REM = f"{EX}/remove_at/specs/gold.rs"
SMD = f"{EX}/smallest_divisor/specs/gold.rs"
V79 = f"{VG}/verina_advanced_79.rs"
V2 = f"{VG}/verina_basic_2.rs"
V16 = f"{VG}/verina_basic_16.rs"
V33 = f"{VG}/verina_basic_33.rs"
V37 = f"{VG}/verina_basic_37.rs"

# (gold, old text, new text, rustc code expected in the message, rule, line of this text)
CASES: list[tuple[str, str, str, str, str, str | None]] = [
    # --- names and fields (E0609 "no field on type", E0425 "cannot find value")
    (BSF, "input.target", "input.targt", "E0609", "field access needs a field of the struct "
     "(Rust Reference, field-expr)", None),
    (BSF, "input.arr.len()", "input.array.len()", "E0609", "misspelt field", None),
    (BSF, "output.result {", "output.res {", "E0609", "misspelt field of Output", None),
    (BSF, "input.arr[k as int] == input.target", "input.arr[k as int] == target", "E0425",
     "a bare field name is no variable in scope", None),
    (COP, "input.a >= 1", "inpt.a >= 1", "E0425", "misspelt parameter", None),
    (COP, "output.result ==", "output.value ==", "E0609", "field Output has not", None),
    (CIR, "input.lo <= input.hi", "input.low <= input.hi", "E0609", "misspelt field", None),
    (EUC, "input.a % input.b", "input.a % input.c", "E0609", "no field c on Input", None),
    (SMD, "input.n >= 2", "n >= 2", "E0425", "field used without `input.`", None),
    (REM, "input.idx < input.arr.len()", "idx < input.arr.len()", "E0425",
     "field used without `input.`", None),
    # --- methods the type lacks (E0599), vstd seq.rs/seq_lib.rs have no `size`/`length`
    (BSF, "input.arr.len() ==>", "input.arr.size() ==>", "E0599", "Seq has no size()", None),
    (CIR, "input.arr.len())", "input.arr.length())", "E0599", "Seq has no length()", None),
    (PAL, "0 <= i < input.s.len()", "0 <= i < input.s.size()", "E0599",
     "SpecString is Seq<char>: no size()", None),
    (REM, ".add(input.arr", ".append(input.arr", "E0599", "Seq has add, not append", None),
    (REM, "input.arr.subrange(0,", "input.arr.slice(0,", "E0599", "Seq has subrange, not slice",
     None),
    (V33, "!input.s.contains(output.result)", "!input.s.includes(output.result)", "E0599",
     "Seq has contains, not includes", None),
    (V2, "None => input.s.len() == 0", "None => input.s.is_empty()", "E0599",
     "Seq has no is_empty (only Set, Map, Multiset do)", None),
    # --- a method's value taken without a call (E0615)
    (BSF, "0 <= j < input.arr.len() ==>", "0 <= j < input.arr.len ==>", "E0615",
     "`.len` without parentheses", None),
    (REM, "input.idx < input.arr.len()", "input.idx < input.arr.len", "E0615",
     "`.len` without parentheses", None),
    # --- arity (E0061)
    (COP, "gcd(input.a, input.b)", "gcd(input.a)", "E0061", "gcd takes 2 arguments", None),
    (CIR, "count_upto(input.arr, input.lo, input.hi, input.arr.len())",
     "count_upto(input.arr, input.lo, input.arr.len())", "E0061", "count_upto takes 4", None),
    (REM, "input.arr.subrange(0, input.idx as int)", "input.arr.subrange(input.idx as int)",
     "E0061", "Seq::subrange takes 2 (seq.rs)", None),
    (V33, "!input.s.contains(output.result)", "!input.s.contains()", "E0061",
     "Seq::contains takes 1 (seq_lib.rs)", None),
    (PAL, "input.s.len() ==>", "input.s.len(0) ==>", "E0061", "Seq::len takes none", None),
    # --- unknown functions (E0425)
    (COP, "gcd(input.a, input.b)", "gdc(input.a, input.b)", "E0425", "misspelt helper", None),
    (CIR, "output.result == count_upto(", "output.result == count(", "E0425",
     "helper not defined", None),
    # --- bool expected, something else found (E0308)
    (EUC, "    input.b != 0\n", "    input.b\n", "E0308", "pre_spec returns bool: body int",
     "input.b\n"),
    (EUC, "output.result == input.a % input.b", "input.a % input.b", "E0308",
     "post_spec body int", None),
    (SMD, "input.n >= 2", "input.n - 2", "E0308", "pre_spec body int", None),
    (BSF, "k < input.arr.len() && input.arr", "k && input.arr", "E0308",
     "`&&` operand usize", None),
    (V37, "if output.result == -1 {", "if output.result {", "E0308", "`if` condition i64",
     None),
    (CIR, "    input.lo <= input.hi\n", "    input.arr\n", "E0308", "pre_spec body a Seq",
     "input.arr\n"),
    (V16, "0 <= i < input.s.len() ==>", "0 <= i < input.s.len() ==> i +", "E0369",
     "usize + char (the old body becomes the right operand)", None),
    # --- comparing a sequence with an integer (E0308)
    (BSF, "k < input.arr.len()", "k < input.arr", "E0308", "usize < Seq", None),
    (REM, "output.result == input.arr.subrange", "output.result.len() == input.arr.subrange",
     "E0308", "nat == Seq", None),
    (V16, "output.result.len() == input.s.len()", "output.result == input.s.len()", "E0308",
     "Seq<char> == nat", None),
    (PAL, "input.s[i as int] == input.s[", "input.s == input.s[", "E0308",
     "Seq<char> == char", None),
    (V2, "None => input.s.len() == 0", "None => input.s == 0", "E0308", "Seq == integer",
     None),
    # --- indexing (E0608, E0308)
    (EUC, "input.a % input.b", "input.a[0] % input.b", "E0608", "int cannot be indexed",
     None),
    (BSF, "input.arr[i as int]", "input.arr[i == 0]", "E0308", "Seq index must be an integer",
     None),
    # --- patterns and match (E0004, E0023, E0599)
    (BSF, "        None => forall|j: usize| 0 <= j < input.arr.len() ==> "
     "input.arr[j as int] != input.target,\n", "", "E0004", "match on Option must cover None "
     "(Rust Reference, match-expr exhaustiveness)", "match output.result"),
    (V2, "Some(r) =>", "Some(r, q) =>", "E0023", "Some has 1 field", None),
    (V79, "None => forall", "Nothing(x) => forall", "E0531",
     "a tuple-variant pattern naming no variant in scope", None),
    (V2, "        None => input.s.len() == 0,\n", "", "E0004", "None not covered",
     "match output.result"),
    # --- casts (E0605), `@` on spec types (vstd view.rs has no View for Seq)
    (SMD, "input.n % d != 0", "input.n % d != (input.n as Seq<u64>).len()", "E0605",
     "non-primitive cast", None),
    (REM, "input.arr.subrange(0,", "input.arr@.subrange(0,", "E0599",
     "`@` on Seq: no View impl in vstd", None),
    (BSF, "input.arr[k as int] == input.target", "input.arr[k as int] == input@.target",
     "E0599", "`@` on a spec struct: no View impl", None),
    # --- unary operators (E0600)
    (V33, "!input.s.contains(output.result)", "!input.s", "E0600", "`!` on a Seq", None),
    # --- binary operators (E0369)
    (V16, "output.result.len() == input.s.len()", "output.result.len() == input.s + 1",
     "E0369", "Seq<char> + integer", None),
    # --- nested exhaustiveness and literal ranges
    (BSF, "        Some(k) =>", "        Some(k @ 0) =>", "E0004", "a match must cover every "
     "value: `Some(k @ 0)` leaves `Some(_)` of other indices uncovered (Rust Reference, "
     "patterns: refutability)", "match output.result"),
    (COP, "input.b >= 1\n", "input.b >= 4294967296u32\n", "overflowing_literals",
     "a suffixed literal must fit its type (rustc's deny-by-default lint)", None),
]


def _edit(path: str, old: str, new: str, at: str | None) -> tuple[str, str, int]:
    text = _bundled(path).read_text(encoding="utf-8")
    assert old in text, f"{path}: edit text {old!r} not in the gold"
    pos = text.index(old)
    mutated = text[:pos] + new + text[pos + len(old):]
    if at is None:
        line = text[:pos].count("\n") + 1 + (len(old) - len(old.lstrip("\n")))
    else:
        line = mutated[:mutated.index(at)].count("\n") + 1
    return text, mutated, line


def _skeleton(path: str, gold_text: str) -> str:
    if path.startswith(EX):
        return _bundled(path).parents[1].joinpath("skeleton.rs").read_text(encoding="utf-8")
    return gold_text  # VERINA golds: the gold's own structs are the task's


def test_corpus_size() -> None:
    """The issue asks for at least 40 cases over at least 8 tasks."""
    assert len(CASES) >= 40
    assert len({c[0] for c in CASES}) >= 8


@pytest.mark.parametrize("gold,old,new,code,rule,at", CASES,
                         ids=[f"{Path(c[0]).parts[-1 if c[0].startswith(VG) else 2]}-{k}"
                              for k, c in enumerate(CASES)])
def test_ill_typed_spec_is_invalid_at_the_line(gold: str, old: str, new: str, code: str,
                                               rule: str, at: str | None) -> None:
    text, mutated, line = _edit(gold, old, new, at)
    with pytest.raises(SpecInvalid) as ei:
        check_source(mutated, _skeleton(gold, text), "spec.rs")
    err = ei.value
    assert err.line == line, f"{rule}: reported at line {err.line}, not {line}: {err}"
    assert f"[{code}]" in err.message, f"{rule}: {err}"
    assert err.file == "spec.rs"


@pytest.mark.parametrize("gold", sorted({c[0] for c in CASES}))
def test_gold_is_valid(gold: str) -> None:
    text = _bundled(gold).read_text(encoding="utf-8")
    check_source(text, _skeleton(gold, text), gold)
