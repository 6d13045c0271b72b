"""Constructs Verus refuses are invalid with their line; constructs Verus does not evaluate are
never evaluated by an engine. Each attack below earned full credit on a flawed spec before:
a recursive spec fn with no ``decreases`` (an error in Verus), ``#[verifier::external_body]``
on ``pre_spec``/``post_spec``/a helper (Verus drops the body: the function is uninterpreted),
attributes the allow-list admitted with no engine semantics, type names that exist nowhere."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from adequacy.errors import SpecInvalid
from adequacy.examples import bundled_folder
from adequacy.extensions.registry import registry
from adequacy.scoring.runner import score_spec
from adequacy.taskdirs.load import load_task

REPO = Path(__file__).resolve().parents[2]
TASK = bundled_folder("verus") / "binary_search_first"
GOLD = (TASK / "specs" / "gold.rs").read_text()
HEAD = """use vstd::prelude::*;
use vstd::contrib::exec_spec::*;

verus! {
exec_spec_unverified! {
pub struct Input { pub arr: Seq<i64>, pub target: i64 }
pub struct Output { pub result: Option<usize> }
"""
TAIL = """
}
}
"""
TRUE_PRE = "spec fn pre_spec(input: Input) -> bool { true }\n"
TRUE_POST = "spec fn post_spec(input: Input, output: Output) -> bool { true }\n"


def _load(text: str) -> None:
    registry().owner("verus").load_spec(load_task(TASK), text, "s.rs")


def _invalid_at(text: str) -> SpecInvalid:
    with pytest.raises(SpecInvalid) as e:
        _load(text)
    return e.value


# ---------------------------------------------------------------- external_body: uninterpreted

@pytest.mark.parametrize("attr", ["#[verifier::external_body]", "#[verifier(external_body)]",
                                  "# [ verifier :: external_body ]"])
@pytest.mark.parametrize("where", ["pre", "post", "helper"])
def test_external_body_is_never_evaluated(attr: str, where: str) -> None:
    """A body Verus ignores decides nothing: every case it reaches is unknown, so the flawed
    'accept everything' spec cannot pass."""
    pre = (attr + "\n" if where == "pre" else "") + TRUE_PRE
    post = (attr + "\n" if where == "post" else "") + TRUE_POST
    if where == "helper":
        pre = attr + "\nspec fn ok(x: i64) -> bool { true }\n" + \
            "spec fn pre_spec(input: Input) -> bool { ok(input.target) }\n"
        post = "spec fn post_spec(input: Input, output: Output) -> bool { ok(input.target) }\n"
    rep = score_spec(load_task(TASK), HEAD + pre + post + TAIL, "s.rs", cache=None)
    assert rep.status == "scored" and not rep.passed_all
    touched = {"pre": ("pre",), "post": ("post",), "helper": ("pre", "post")}[where]
    for v in rep.verdicts:
        if v.bucket.predicate in touched:
            assert v.value.value == "unknown", (v.bucket, v.reason)
            assert "external_body" in (v.reason or "")


def test_external_body_on_a_skeleton_struct_is_invalid() -> None:
    text = HEAD.replace("pub struct Input", "#[verifier::external_body]\npub struct Input") + \
        TRUE_PRE + TRUE_POST + TAIL
    e = _invalid_at(text)
    assert e.line == 7 and "opaque" in e.message


# ---------------------------------------------------------------- the attribute allow-list

@pytest.mark.parametrize(("attr", "why"), [
    ("#[verifier::truncate]", "no meaning in a spec"),
    ("#[verifier(nonlinear)]", "no meaning in a spec"),
    ("#[verifier::allow_in_spec]", "no meaning in a spec"),
    ("#[verifier::loop_isolation(false)]", "no meaning in a spec"),
    ("#[verifier::external]", "no meaning in a spec"),
    ("#[verifier::opaque(x)]", "takes no argument"),
    ("#[verifier::external_body(1)]", "takes no argument"),
    ("#[verifier::rlimit]", "rlimit(N)"),
    ("#[verifier::rlimit(\"x\")]", "argument"),
    ("#[verifier::ext_equal]", "no meaning on a function"),
    ("#[verifier = \"x\"]", "malformed"),
])
def test_attributes_without_a_spec_meaning_are_refused(attr: str, why: str) -> None:
    text = HEAD + attr + "\n" + TRUE_PRE + TRUE_POST + TAIL
    e = _invalid_at(text)
    assert e.line == 8 and why in e.message, e.message


@pytest.mark.parametrize("text", [
    HEAD.replace("pub arr: Seq<i64>", "#[verifier::external_body] pub arr: Seq<i64>")
    + TRUE_PRE + TRUE_POST + TAIL,
    HEAD + "spec fn pre_spec(#[verifier::external_body] input: Input) -> bool { true }\n"
    + TRUE_POST + TAIL,
    HEAD + "spec fn pre_spec(input: Input) -> bool { #[verifier::truncate] true }\n"
    + TRUE_POST + TAIL,
])
def test_verifier_attributes_where_no_item_stands_are_refused(text: str) -> None:
    e = _invalid_at(text)
    assert e.line in (6, 8) and "not allowed" in e.message


@pytest.mark.parametrize("attr", ["#[verifier::opaque]", "#[verifier(inline)]",
                                  "#[verifier::memoize]", "#[verifier::rlimit(20)]",
                                  "#[verifier(rlimit(infinity))]", "#[verifier::spinoff_prover]"])
def test_proof_hints_keep_the_body_as_the_meaning(attr: str) -> None:
    """opaque/inline/memoize/rlimit change how Verus proves, not what the function is: the
    gold spec with them on its predicates scores as the gold does."""
    marked = GOLD.replace("spec fn pre_spec", attr + "\nspec fn pre_spec").replace(
        "spec fn post_spec", attr + "\nspec fn post_spec")
    task = load_task(TASK)
    a = score_spec(task, GOLD, "g.rs", cache=None, engines=["interp"])
    b = score_spec(task, marked, "m.rs", cache=None, engines=["interp"])
    assert b.passed_all == a.passed_all is True
    assert Counter(v.value for v in a.verdicts) == Counter(v.value for v in b.verdicts)


@pytest.mark.parametrize(("text", "line", "why"), [
    (HEAD + "#[verifier::opaque]\nspec fn f(x: i64) -> bool;\n" + TRUE_PRE + TRUE_POST + TAIL,
     9, "opaque has no effect"),
    (HEAD + "uninterp spec fn f(x: i64) -> bool { true }\n" + TRUE_PRE + TRUE_POST + TAIL,
     8, "uninterp"),
    (HEAD + "open spec fn f(x: i64) -> bool { true }\n" + TRUE_PRE + TRUE_POST + TAIL,
     8, "not marked `pub`"),
])
def test_qualifiers_verus_refuses(text: str, line: int, why: str) -> None:
    e = _invalid_at(text)
    assert e.line == line and why in e.message


# ---------------------------------------------------------------- recursion needs decreases

@pytest.mark.parametrize(("fns", "line"), [
    ("spec fn f(n: nat) -> nat { if n == 0 { 0 } else { f((n - 1) as nat) } }\n", 8),
    ("spec fn f(n: nat) -> bool { if n == 0 { true } else { g((n - 1) as nat) } }\n"
     "spec fn g(n: nat) -> bool { if n == 0 { false } else { f((n - 1) as nat) } }\n", 8),
    ("spec fn h(n: nat) -> nat decreases n { if n == 0 { 0 } else { h((n - 1) as nat) } }\n"
     "spec fn f(n: nat) -> nat { if n == 0 { 0 } else { f((n - 1) as nat) } }\n", 9),
    ("pub struct W { pub v: nat }\nimpl W {\n    spec fn m(self) -> nat { "
     "if self.v == 0 { 0 } else { W { v: (self.v - 1) as nat }.m() } }\n}\n", 10),
])
def test_recursion_without_decreases_is_invalid(fns: str, line: int) -> None:
    e = _invalid_at(HEAD + fns + TRUE_PRE + TRUE_POST + TAIL)
    assert e.line == line and "decreases" in e.message


def test_recursion_with_decreases_and_external_body_helpers_are_fine() -> None:
    fns = ("spec fn f(n: nat) -> nat decreases n { if n == 0 { 0 } else { f((n - 1) as nat) } }\n"
           "#[verifier::external_body]\nspec fn g(n: nat) -> nat { g(n) }\n")
    _load(HEAD + fns + TRUE_PRE + TRUE_POST + TAIL)


# ---------------------------------------------------------------- type names

@pytest.mark.parametrize(("fns", "line"), [
    ("spec fn f(x: Integer) -> bool { true }\n", 8),
    ("spec fn f(x: i64) -> Bool { true }\n", 8),
    ("spec fn f(x: i64) -> bool { (x as Int) > 0 }\n", 8),
    ("spec fn f(x: i64) -> bool { (x as u46) > 0 }\n", 8),
    ("spec fn f(s: Sequence<i64>) -> bool { true }\n", 8),
    ("spec fn f(s: Seq<I64>) -> bool { true }\n", 8),
    ("spec fn f(x: i64) -> bool { forall|i: Nat| 0 <= i < x ==> i >= 0 }\n", 8),
    ("spec fn f(x: i64) -> bool {\n    let y: Usize = 1;\n    x > 0\n}\n", 9),
])
def test_type_names_that_exist_nowhere_are_invalid(fns: str, line: int) -> None:
    e = _invalid_at(HEAD + fns + TRUE_PRE + TRUE_POST + TAIL)
    assert e.line == line and "E0412" in e.message, e.message


def test_generic_and_vstd_type_names_are_known() -> None:
    fns = ("pub struct Pair<A> { pub a: A }\nimpl<B> Pair<B> {\n"
           "    spec fn get(self) -> B { self.a }\n}\n"
           "spec fn id<T>(x: T) -> T { x }\n"
           "spec fn f(s: Multiset<i64>, m: Map<int, Set<char>>, t: SpecString) -> bool { true }\n")
    _load(HEAD + fns + TRUE_PRE + TRUE_POST + TAIL)


# ---------------------------------------------------------------- exec methods in spec code

@pytest.mark.parametrize(("expr", "why"), [
    ("input.target.max(0) > 0", "mode exec"),
    ("input.target.abs() > 0", "mode exec"),
    ("input.target.pow(2) > 0", "mode exec"),
    ("input.target.frobnicate() > 0", "E0599"),
    ("(input.target as int).abs() > 0", "E0599"),
    ("input.arr.len().max(1) > 0", "E0599"),  # Seq::len is a nat
    ("forall|c: char| c.is_alphabetic() ==> true", "mode exec"),
    ("true.then_some(1) is Some", "mode exec"),
])
def test_exec_methods_of_primitive_types_are_invalid(expr: str, why: str) -> None:
    text = HEAD + "spec fn pre_spec(input: Input) -> bool { " + expr + " }\n" + TRUE_POST + TAIL
    e = _invalid_at(text)
    assert e.line == 8 and why in e.message, e.message


def test_vstd_spec_methods_of_primitive_types_are_fine() -> None:
    _load(HEAD + "spec fn pre_spec(input: Input) -> bool { input.target.checked_add(1) is Some "
          "&& input.target.wrapping_mul(2) >= i64::MIN }\n" + TRUE_POST + TAIL)


def test_the_type_name_check_knows_every_node_that_holds_a_type() -> None:
    """The check visits the syntax nodes that keep a written type by name: a node kind added
    with a type field and not named there would let a type that exists nowhere through."""
    import dataclasses
    import inspect

    from adequacy_verus.syntax import ast as A

    holding = sorted(n for n, c in vars(A).items()
                     if inspect.isclass(c) and dataclasses.is_dataclass(c)
                     and c.__module__ == A.__name__ and n != "TypeRef"
                     and any("TypeRef" in str(f.type) for f in dataclasses.fields(c)))
    # expressions and lets (type_names._walk_expr), items (type_names.check_type_names)
    assert holding == ["Cast", "Closure", "FnItem", "Let", "Param", "Path", "Quant",
                       "StructItem", "Variant"]
