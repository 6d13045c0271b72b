"""The untrusted-spec policy of the Verus front end (docs/sandbox.md, docs/verus.md)."""

from __future__ import annotations

import pytest

from adequacy.errors import SpecInvalid
from adequacy_verus.frontend import check_spec, normalize, parse_spec

SKELETON = """use vstd::prelude::*;
use vstd::contrib::exec_spec::*;

verus! {
exec_spec_unverified! {
pub struct Input {
    pub a: Seq<i64>,
}
pub struct Output {
    pub result: i64,
}
spec fn pre_spec(input: Input) -> bool {
    true
}
spec fn post_spec(input: Input, output: Output) -> bool {
    true
}
}
}
"""

GOOD_BODY = """spec fn helper(s: Seq<i64>) -> bool { s.len() > 0 }
#[verifier::opaque]
spec fn pre_spec(input: Input) -> bool {
    helper(input.a) && forall|i: int| #![auto] 0 <= i < input.a.len() ==> input.a[i] >= 0
}
spec fn post_spec(input: Input, output: Output) -> bool {
    exists|i: int| 0 <= i < input.a.len() && #[trigger] input.a[i] == output.result
}"""


def spec_with(body: str, structs: str | None = None) -> str:
    st = structs if structs is not None else (
        "pub struct Input {\n    pub a: Seq<i64>,\n}\npub struct Output {\n"
        "    pub result: i64,\n}\n")
    return ("use vstd::prelude::*;\nuse vstd::contrib::exec_spec::*;\nverus! {\n"
            "exec_spec_unverified! {\n" + st + body + "\n}\n}\n")


def check(text: str) -> None:
    check_spec(parse_spec(text, "spec.rs"), parse_spec(SKELETON, "skeleton.rs"), "spec.rs")


def test_good_spec_passes_and_skeleton_itself_passes() -> None:
    check(spec_with(GOOD_BODY))
    check(SKELETON)


def line_of(text: str, needle: str) -> int:
    return next(i for i, ln in enumerate(text.splitlines(), 1) if needle in ln)


@pytest.mark.parametrize(("extra", "needle"), [
    ("fn evil() { std::process::exit(1); }", "fn evil"),
    ("proof fn lemma() { }", "proof fn"),
    ("spec fn f() -> int { include!(\"/etc/passwd\") }", "include!"),
    ("spec fn f() -> Seq<char> { env!(\"HOME\")@ }", "env!"),
    ("spec fn f() -> int { std::process::id() as int }", "std::process"),
    ("unsafe fn g() {}", "unsafe"),
    ("extern \"C\" { fn abort(); }", "extern"),
    ("#[path = \"/etc/x.rs\"]\nmod x;", "#[path"),
    ("mod m;", "mod m"),
    ("#[cfg(test)]\nspec fn h() -> bool { true }", "#[cfg"),
    ("macro_rules! m { () => {} }", "macro_rules"),
    ("use std::fs;", "use std"),
])
def test_forbidden_items_are_rejected_with_their_line(extra: str, needle: str) -> None:
    text = spec_with(extra + "\n" + GOOD_BODY)
    with pytest.raises(SpecInvalid) as ei:
        check(text)
    assert ei.value.file == "spec.rs"
    assert ei.value.line == line_of(text, needle)


def test_struct_changes_are_rejected() -> None:
    changed = ("pub struct Input {\n    pub a: Seq<i64>,\n    pub extra: int,\n}\n"
               "pub struct Output {\n    pub result: i64,\n}\n")
    with pytest.raises(SpecInvalid, match="struct Input"):
        check(spec_with(GOOD_BODY, changed))
    missing = "pub struct Output {\n    pub result: i64,\n}\n"
    with pytest.raises(SpecInvalid, match="Input"):
        check(spec_with(GOOD_BODY, missing))


def test_signatures_are_enforced() -> None:
    with pytest.raises(SpecInvalid, match="missing"):
        check(spec_with("spec fn pre_spec(input: Input) -> bool { true }"))
    bad = GOOD_BODY.replace("post_spec(input: Input, output: Output) -> bool",
                            "post_spec(input: Input, output: Output) -> int")
    with pytest.raises(SpecInvalid, match="signature"):
        check(spec_with(bad))
    with pytest.raises(SpecInvalid, match="twice"):
        check(spec_with(GOOD_BODY + "\nspec fn helper(x: int) -> bool { true }"))


def test_syntax_error_line() -> None:
    text = spec_with(GOOD_BODY.replace("s.len() > 0", "s.len() > > 0"))
    with pytest.raises(SpecInvalid) as ei:
        parse_spec(text, "spec.rs")
    assert ei.value.line == line_of(text, "> > 0")


def test_normalize_ignores_comments_and_layout() -> None:
    a = "spec fn f() -> bool { // hi\n  true }"
    b = "spec fn f()->bool{ /* x */ true\n}"
    assert normalize(a) == normalize(b)
    assert normalize(a) != normalize(a.replace("true", "false"))


# ---------------------------------------------------------------- skeleton structs as trees

ONE_LINE = ("pub struct Input { pub a: Seq<i64> }\n"
            "pub struct Output { pub result: i64 }\n")


def test_struct_layout_does_not_matter() -> None:
    """The docs' one-line form (no trailing comma) is the same tree as the skeleton's."""
    check(spec_with(GOOD_BODY, ONE_LINE))
    check(spec_with(GOOD_BODY, "pub struct Input {\n  // the array\n  pub a:Seq< i64 >,\n}\n"
                               "pub struct Output{pub result:i64,}\n"))


@pytest.mark.parametrize(("structs", "needle", "message"), [
    ("pub struct Input { pub a: Seq<i32> }\npub struct Output { pub result: i64 }\n",
     "Seq<i32>", "field `a` has type Seq<i32>, the skeleton says Seq<i64>"),
    ("pub struct Input { pub b: Seq<i64> }\npub struct Output { pub result: i64 }\n",
     "pub b", "field `b` is not in the skeleton"),
    ("pub struct Input { }\npub struct Output { pub result: i64 }\n",
     "struct Input", "field `a` of the skeleton is missing"),
    ("pub struct Input { pub a: Seq<i64> }\npub struct Output {\n    pub result: i64,\n"
     "    pub extra: bool,\n}\n", "pub extra", "field `extra` is not in the skeleton"),
    ("pub struct Input(pub Seq<i64>);\npub struct Output { pub result: i64 }\n",
     "struct Input", "braced struct"),
])
def test_struct_differences_are_named_with_their_line(structs: str, needle: str,
                                                      message: str) -> None:
    text = spec_with(GOOD_BODY, structs)
    with pytest.raises(SpecInvalid) as ei:
        check(text)
    assert message in ei.value.message and ei.value.line == line_of(text, needle), ei.value


def test_struct_field_order_matters() -> None:
    skel = SKELETON.replace("pub a: Seq<i64>,", "pub a: Seq<i64>,\n    pub b: bool,")
    text = spec_with(GOOD_BODY, "pub struct Input { pub b: bool, pub a: Seq<i64> }\n"
                                "pub struct Output { pub result: i64 }\n")
    with pytest.raises(SpecInvalid, match="order"):
        check_spec(parse_spec(text, "spec.rs"), parse_spec(skel, "skeleton.rs"), "spec.rs")


# ---------------------------------------------------------------- token and tree layers

@pytest.mark.parametrize("extra", [
    "spec fn a(x: bool) -> bool { if !x { !x } else { x } }",
    "spec fn b(x: bool) -> bool\n    recommends !x,\n{ !x }",
    "spec fn c(s: Set<i64>, t: Set<i64>) -> bool { s.union(t) == t.union(s) }",
    "spec fn d() -> Seq<int> { Seq::<int>::empty() }",
    "spec fn e() -> bool { i32::MAX > 0 && seq![1int, 2].len() == 2 }",
    "#[verifier::opaque]\nspec fn f() -> bool { forall|i: int| #![auto] 0 <= i < 3 ==> i >= 0 }",
    "#[verifier(inline)]\nspec fn g(s: Seq<i64>) -> bool {\n"
    "    forall|i: int| #![trigger s[i]] 0 <= i < s.len() ==> s[i] > 0\n}",
    "pub enum Color { Red, Green }\nimpl Color {\n"
    "    spec fn is_red(&self) -> bool { self is Red }\n}",
])
def test_ordinary_spec_code_passes(extra: str) -> None:
    check(spec_with(extra + "\n" + GOOD_BODY))
    check(spec_with(GOOD_BODY).replace("use vstd::prelude::*;",
                                       "use vstd::prelude::*;\nuse vstd::arithmetic::power::pow;"))


@pytest.mark.parametrize(("extra", "needle", "message"), [
    ("spec fn w<T>(x: T) -> bool where T: Copy { true }", "where", "where clause"),
    ("pub enum E { A = 1 }", "enum E", "discriminant"),
    ("spec fn a(x: [u8; 3]) -> bool { true }", "spec fn a", "array length"),
    ("spec fn p() -> bool { proof { }; true }", "spec fn p", "proof block"),
    ("spec fn l(x: &'r#a i32) -> bool { true }", "spec fn l", "raw lifetime"),
    ("spec fn i() -> bool {\n    #![allow(unused)]\n    true\n}", "#![allow", "attribute"),
    ("spec fn v() -> bool via f { true }", "spec fn v", "via"),
])
def test_constructs_the_checker_does_not_read_are_refused(extra: str, needle: str,
                                                          message: str) -> None:
    text = spec_with(extra + "\n" + GOOD_BODY)
    with pytest.raises(SpecInvalid) as ei:
        check(text)
    assert message in ei.value.message and ei.value.line == line_of(text, needle), ei.value
