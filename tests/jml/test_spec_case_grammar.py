"""The JML Reference Manual's specification-case grammar, read by the front end (issues 20, 25).

Nested cases ``{| ... also ... |}`` mean the enclosing case's clauses conjoined with each nested
case's, each nested case joined to the others by ``also`` (JML RM 9.6.1, "nested specification
cases"); quantifiers may be written without parentheses, as OpenJML accepts (its body extends
as far right as the clause goes); C-style declarators (JLS 8.3, 10.2) declare the variable the
brackets follow; ``new`` is a valid JML expression that an engine lacking it answers ``unknown``
for. Every spec here is our own, written for the construct it exercises.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from jml_support import Runner, values, write_task

from adequacy.errors import SpecInvalid, TaskError
from adequacy.taskdirs.load import load_task
from adequacy_openjml.jml import ast as A
from adequacy_openjml.jml.load import load
from adequacy_openjml.jml.parser import parse_expression
from adequacy_openjml.jml.reader import read_source
from adequacy_openjml.jml.semantics import spec_cases


def _cases(jml: str, params: str = "int x, int y") -> list:
    src = read_source("public class Solution {\n" + jml + "\n"
                      f"    public static int solve({params}) {{ return 0; }}\n}}\n", "S.java")
    cls = src.classes[0]
    m = cls.methods[0]
    return spec_cases(cls, m, "S.java")


def _texts(es: list[tuple[A.Expr, int]]) -> list[str]:
    from adequacy_openjml.stubs.render import render_jml
    return [render_jml(e) for e, _ in es]


def test_nested_cases_take_the_enclosing_header() -> None:
    cs = _cases("""    /*@ requires x >= 0;
      @ {| requires y > 0; ensures \\result == 1;
      @  also
      @    requires y <= 0; ensures \\result == 2;
      @ |} @*/""")
    assert [c.kind for c in cs] == ["lightweight", "lightweight"]
    assert _texts(cs[0].requires) == ["(x >= 0)", "(y > 0)"]
    assert _texts(cs[1].requires) == ["(x >= 0)", "(y <= 0)"]
    assert _texts(cs[0].ensures) == ["(\\result == 1)"]
    assert _texts(cs[1].ensures) == ["(\\result == 2)"]
    assert [c.line for c in cs] == [3, 5]


def test_nesting_inside_nesting_and_heavyweight_kinds() -> None:
    cs = _cases("""    /*@ public normal_behavior
      @   requires x >= 0;
      @   {| requires y > 0;
      @      {| requires x > y; ensures \\result == x;
      @       also requires x <= y; ensures \\result == y; |}
      @    also
      @      requires y == 0; ensures \\result == 0;
      @   |}
      @ also
      @ private exceptional_behavior
      @   requires x < 0;
      @   signals_only IllegalArgumentException;
      @*/""")
    assert [c.kind for c in cs] == ["normal", "normal", "normal", "exceptional"]
    assert _texts(cs[0].requires) == ["(x >= 0)", "(y > 0)", "(x > y)"]
    assert _texts(cs[1].requires) == ["(x >= 0)", "(y > 0)", "(x <= y)"]
    assert _texts(cs[2].requires) == ["(x >= 0)", "(y == 0)"]
    # exceptional_behavior means ensures false on a normal return (JML RM 9.5)
    assert _texts(cs[3].ensures) == ["false"]


def test_old_declarations_reach_the_nested_cases() -> None:
    cs = _cases("""    /*@ old int s = x + y;
      @ requires s >= 0;
      @ {| requires x > 0; ensures \\result == s;
      @  also requires x <= 0; ensures \\result == -s; |} @*/""")
    assert _texts(cs[0].requires) == ["((x + y) >= 0)", "(x > 0)"]
    assert _texts(cs[1].ensures) == ["(\\result == -(\\old((x + y))))"]


@pytest.mark.parametrize("jml, line, message", [
    ("/*@ requires x > 0;\n @ {| requires y > 0; ensures \\result > 0; @*/", 3, "not closed"),
    ("//@ requires x > 0; |}", 2, "without a {|"),
    ("/*@ requires x > 0; {| requires y > 0; |}\n @ ensures \\result > 0; @*/", 3,
     "after a nested spec case"),
    ("/*@ requires x > 0; {| |} @*/", 2, "empty nested"),
    ("/*@ normal_behavior requires x > 0;\n @ {| exceptional_behavior requires y > 0; |} @*/",
     3, "nested in a normal"),
])
def test_malformed_nesting_is_invalid_with_its_line(jml: str, line: int, message: str) -> None:
    with pytest.raises(SpecInvalid) as ei:
        _cases("    " + jml)
    assert ei.value.line == line and message in ei.value.message


def test_quantifiers_without_parentheses_end_at_the_clause() -> None:
    cs = _cases("""    //@ requires \\forall int i; 0 <= i && i < x; i != y;
    //@ ensures \\forall int j; 0 <= j && j < x; \\forall int i; 0 <= i && i < j; i < \\result;
    //@ ensures \\exists int k; k == \\result;
    //@ ensures x > 0 ==> \\forall int i; 0 <= i && i < x; i < \\result;""")
    (c,) = cs
    pre = c.requires[0][0]
    assert isinstance(pre, A.Quant) and pre.range is not None
    assert _texts(c.requires) == ["(\\forall int i; ((0 <= i) && (i < x)); (i != y))"]
    outer = c.ensures[0][0]
    assert isinstance(outer, A.Quant) and isinstance(outer.body, A.Quant)
    assert outer.body.range is not None
    # the semicolon after k == \result ends the clause: it is the body, not a range
    exists = c.ensures[1][0]
    assert isinstance(exists, A.Quant) and exists.range is None
    implication = c.ensures[2][0]
    assert isinstance(implication, A.Binary) and isinstance(implication.right, A.Quant)


def test_quantifier_forms() -> None:
    empty = parse_expression("(\\forall int i; ; i == i)")
    assert isinstance(empty, A.Quant) and empty.range is None
    several = parse_expression("(\\sum int i, j; 0 <= i < 3 && 0 <= j < 3; i * j)")
    assert isinstance(several, A.Quant) and several.vars == ("i", "j")
    # the unparenthesised body extends to the closing parenthesis around it
    inside = parse_expression("(x > 0 ==> \\forall int i; 0 <= i < x; i >= 0) && y > 0")
    assert isinstance(inside, A.Binary) and inside.op == "&&"
    with pytest.raises(SpecInvalid, match="range but no body"):
        parse_expression("(\\forall int i; 0 <= i; )")


def test_c_style_declarators() -> None:
    src = read_source("""class Fields {
    private /*@ spec_public @*/ long fib[];
    int a, b[], c[][] = new int[2][3];
    java.util.Map<String, Integer> m = new java.util.HashMap<String, Integer>(), n;
    //@ ensures fib.length == b.length && c.length == a && n == m;
    int f(int p[]) { return 0; }
}
""", "F.java")
    cls = src.classes[0]
    assert [(f.name, f.type) for f in cls.fields] == [
        ("fib", "long[]"), ("a", "int"), ("b", "int[]"), ("c", "int[][]"),
        ("m", "java.util.Map<String,Integer>"), ("n", "java.util.Map<String,Integer>")]
    assert cls.methods[0].params == [("int[]", "p")]


def test_c_style_old_declaration() -> None:
    cs = _cases("""    //@ old int t[] = a.clone();
    //@ ensures t.length == a.length;""", params="int[] a")
    assert "\\old(a.clone())" in _texts(cs[0].ensures)[0]


def test_new_expressions_parse() -> None:
    e = parse_expression("new Solution().hashCode() == 0")
    assert isinstance(e, A.Binary) and isinstance(e.left, A.Call)
    assert isinstance(e.left.target, A.New) and e.left.target.type == "Solution"
    arr = parse_expression("new int[x][]")
    assert isinstance(arr, A.New) and len(arr.dims) == 1 and arr.brackets == 2
    init = parse_expression("new int[]{1, x, 3}.length")
    assert isinstance(init, A.Field) and isinstance(init.obj, A.New)
    assert init.obj.elements is not None and len(init.obj.elements) == 3


@pytest.mark.parametrize("text, message", [
    ("new int[]", "needs a length or an initializer"),
    ("new int(3)", "no constructor"),
    ("new int[3]{1}", "initializer with a length"),
    ("new Object() { }", "anonymous class"),
    ("new int[][3]", r"after an empty \[\]"),
])
def test_bad_new_is_invalid(text: str, message: str) -> None:
    with pytest.raises(SpecInvalid, match=message):
        parse_expression(text)


# ------------------------------------------------------------------ choosing the overload
OVERLOADS = """public class Solution {
    public static int solve(long x) {
        return 2;
    }

    public static int solve(short x) {
        return 1;
    }
}
"""


def _overload_task(tmp_path: Path, method: str, input_type: str = "i16") -> Path:
    root = write_task(tmp_path / "o", OVERLOADS, inputs={"x": input_type})
    toml = root / "task.toml"
    toml.write_text(toml.read_text().replace('method = "solve"', f'method = "{method}"'))
    return root


def test_bare_name_picks_the_overload_of_the_task_types(tmp_path: Path) -> None:
    spec = load(load_task(_overload_task(tmp_path, "solve")), OVERLOADS, "S.java")
    assert spec.method.params == [("short", "x")]


@pytest.mark.parametrize("method, want", [("solve(long)", "long"), ("solve(short)", "short"),
                                          ("solve( java.lang.Long )", None)])
def test_signature_names_the_overload(tmp_path: Path, method: str, want: str | None) -> None:
    task = load_task(_overload_task(tmp_path, method))
    if want is None:  # Long is not long: no such method
        with pytest.raises(SpecInvalid, match=r"no method solve\(Long\)"):
            load(task, OVERLOADS, "S.java")
        return
    assert load(task, OVERLOADS, "S.java").method.params == [(want, "x")]


def test_ambiguous_bare_name_asks_for_the_signature(tmp_path: Path) -> None:
    task = load_task(_overload_task(tmp_path, "solve", input_type="i32"))
    with pytest.raises(TaskError, match=r"method = 'solve\(long\)'"):
        load(task, OVERLOADS, "S.java")


# ------------------------------------------------------------------ engines (rac)
@pytest.mark.slow
@pytest.mark.requires("javac")
def test_reference_runs_the_overload_of_the_signature(tmp_path: Path) -> None:
    from adequacy_openjml.plugin import OpenJmlBackend
    b = OpenJmlBackend()
    short = load_task(_overload_task(tmp_path / "s", "solve(short)"))
    long_ = load_task(_overload_task(tmp_path / "l", "solve(long)", input_type="i64"))
    assert b.run_reference(short, [{"x": 5}]) == [{"result": 1}]
    assert b.run_reference(long_, [{"x": 5}]) == [{"result": 2}]


NESTED = """//@ requires x >= 0;
    /*@ {| requires y >= 0; ensures \\result >= x;
      @  also
      @    requires y < 0; ensures \\result < x; |} @*/"""


@pytest.mark.slow
@pytest.mark.requires("javac")
def test_rac_decides_nested_cases_as_desugared(two_ints: Runner) -> None:
    # pre: the disjunction over the two cases of (x >= 0 && its own requires)
    assert values(two_ints.pre(NESTED, {"x": -1, "y": 0}, {"x": 1, "y": -1})) == \
        ["false", "true"]
    # post: each case whose pre holds must hold; 3 >= 1; 0 < 1 fails case 1; 5 < 1 fails case 2
    assert values(two_ints.post(NESTED, ({"x": 1, "y": 2}, 3), ({"x": 1, "y": 2}, 0),
                                ({"x": 1, "y": -1}, 5), ({"x": 1, "y": -1}, 0))) == \
        ["true", "false", "false", "true"]


@pytest.mark.slow
@pytest.mark.requires("javac")
def test_rac_decides_unparenthesised_quantifiers(two_ints: Runner) -> None:
    jml = "//@ ensures \\forall int i; 0 <= i && i < x; \\result > i;"
    # x = 3: the result must exceed 0, 1 and 2
    assert values(two_ints.post(jml, ({"x": 3, "y": 0}, 3), ({"x": 3, "y": 0}, 2))) == \
        ["true", "false"]


@pytest.mark.slow
@pytest.mark.requires("javac")
def test_new_in_a_spec_is_unknown_for_rac_never_invalid(two_ints: Runner) -> None:
    jml = "//@ ensures \\result == x + y && new Solution() != null;"
    vs = two_ints.post(jml, ({"x": 1, "y": 2}, 3), ({"x": 1, "y": 2}, 4))
    # 4 != 3 decides false before the allocation; for 3 the conjunct rac lacks stays unknown
    assert values(vs) == ["unknown", "false"]
    assert "new Solution" in vs[0].reason



# ------------------------------------------------------------------ purity the corpus needs
def _purity(code: str) -> str | None:
    from adequacy_openjml.jml.purity import check_purity
    src = read_source(code, "P.java")
    return check_purity(src, src.classes[0], "P.java")


def test_pure_constructor_assigns_its_own_fields() -> None:
    # JML RM 7.1.1.3: a pure constructor may assign the fields of the object it makes
    _purity("""class P {
    private final int c;
    public /*@ pure @*/ P(int c) { this.c = c; }
}
""")


def test_pure_method_may_fill_an_object_it_allocated_but_not_a_static() -> None:
    ok = """class P {
    int second;
    static int count;
    public /*@ pure @*/ static P make(int s) { P d = new P(); d.second = s; return d; }
}
"""
    _purity(ok)
    with pytest.raises(SpecInvalid, match="assigns d.count"):
        _purity(ok.replace("d.second = s", "d.count = s"))


def test_an_added_constructor_is_code_altered(tmp_path: Path) -> None:
    from adequacy_openjml.jml.policy import check_code
    task = "public class Solution {\n    public int solve(int x) { return x; }\n}\n"
    spec = task.replace("    public int solve",
                        "    /*@ pure @*/ Solution() { }\n    public int solve")
    with pytest.raises(SpecInvalid, match="code altered"):
        check_code(read_source(spec), read_source(task))


def test_overriding_objects_pure_methods_is_pure() -> None:
    src = read_source("""class T {
    int h;
    //@ ensures this.equals(\\result) && \\result.hashCode() == hashCode();
    public /*@ pure @*/ T copy() { T t = new T(); t.h = h; return t; }
    public boolean equals(Object o) { return o instanceof T && ((T) o).h == h; }
    public int hashCode() { return h; }
    public boolean equals(T o) { return o.h == h; }
}
""")
    ms = {(m.name, tuple(t for t, _ in m.params)): m for m in src.classes[0].methods}
    assert ms[("equals", ("Object",))].is_pure and ms[("hashCode", ())].is_pure
    # an overload is not an override of Object.equals: not pure unless declared so
    assert not ms[("equals", ("T",))].is_pure


@pytest.mark.slow
def test_hostile_nesting_is_invalid_not_a_crash() -> None:
    deep = "/*@ " + "requires x > 0; {| " * 5000 + "ensures true;" + " |}" * 5000 + " @*/"
    with pytest.raises(SpecInvalid, match="nested spec cases deeper than"):
        _cases("    " + deep)
    # flat cases are the leaves written in the text (no blow-up); still capped
    wide = "/*@ requires x > 0; {| " + " also ".join(["requires y > 0;"] * 10_001) + " |} @*/"
    with pytest.raises(SpecInvalid, match="more than 10000 spec cases"):
        _cases("    " + wide)
