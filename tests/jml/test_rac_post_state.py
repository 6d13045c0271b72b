"""Importer conventions the rac engine, run_reference and the stubs follow.

- ``[jml] post_state = ["a"]``: the output field ``a`` is the array after the call; in an
  ensures ``a`` is that value and ``\\old(a)`` the input.
- A method that returns the very parameter whose post-state is the output (SpecGenBench's
  ``SetZero``: ``return a;``) has ``\\result`` = that post-state object, even though the
  recorded output holds no ``result`` field.
- ``[jml] static = false``: the method is called on a fresh object; fields and pure instance
  helpers are visible to the spec.
Truths below are worked out by hand.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from jml_support import values

from adequacy.errors import TaskError
from adequacy.extensions.backend import Limits, engine_named
from adequacy.model.task import Case
from adequacy.model.verdicts import Bucket
from adequacy.taskdirs.load import load_task
from adequacy_openjml.jml.reader import read_source
from adequacy_openjml.jml.returns import returned_parameter
from adequacy_openjml.plugin import OpenJmlBackend
from adequacy_openjml.stubs.render import render_stubs

SET_ZERO = """public class Solution {
    public static int[] solve(int[] a, int iBegin, int iEnd) {
        int k = iBegin;
        while (k < iEnd) {
            a[k] = 0;
            k = k + 1;
        }
        return a;
    }
}
"""

INSTANCE = """public class Solution {
    int base = 10;

    /*@ pure @*/ int shifted(int v) {
        return v + base;
    }

    public int solve(int x) {
        return x + base;
    }
}
"""


def _task(root: Path, code: str, toml: str) -> Path:
    (root / "tests").mkdir(parents=True)  # a task folder holds tests/ (docs/tasks.md)
    (root / "Solution.java").write_text(code)
    (root / "task.toml").write_text('id = "t"\nlanguage = "jml"\n' + toml)
    return root


def _returned(body: str, sig: str = "int[] solve(int[] a, int n)") -> str | None:
    src = read_source(f"class Solution {{ static {sig} {{ {body} }} }}")
    m = src.classes[0].methods[0]
    return returned_parameter(src, m)


@pytest.mark.parametrize(("body", "want"), [
    ("a[0] = n; return a;", "a"),
    ("if (n > 0) return a; a[1] = 2; return a;", "a"),
    ("int[] b = a; return b;", None),                # a local, not the parameter
    ("a = new int[n]; return a;", None),             # reassigned: not the caller's object
    ("a[0] += 1; a = null; return a;", None),
    ("return a.clone();", None),
    ("for (int[] r : new int[][]{a}) { return r; } return a;", None),
    ("java.util.function.Function<int[], int[]> f = a -> a; return a;", None),  # shadowed
])
def test_returned_parameter_is_decided_from_the_tokens(body: str, want: str | None) -> None:
    assert _returned(body) == want


def test_returned_parameter_needs_a_return_value() -> None:
    assert _returned("a[0] = n;", "void solve(int[] a, int n)") is None


@pytest.fixture
def set_zero(tmp_path: Path) -> Path:
    return _task(tmp_path / "t", SET_ZERO, '[signature.input]\na = "array<i32>"\n'
                 'iBegin = "i32"\niEnd = "i32"\n\n[signature.output]\na = "array<i32>"\n\n'
                 '[jml]\nstatic = true\npost_state = ["a"]\n')


def _post(task_dir: Path, code: str, jml: str, pairs: list[tuple[dict, dict]]) -> list[str]:
    task = load_task(task_dir)
    b = OpenJmlBackend()
    spec = b.load_spec(task, code.replace("    public", jml + "\n    public", 1), "S.java")
    cases = [Case(id=str(k), bucket=Bucket.post_complete, input=i, output=o)
             for k, (i, o) in enumerate(pairs)]
    return values(engine_named(b, "rac").check(spec, task, cases, Limits()))


@pytest.mark.slow
@pytest.mark.requires("javac")
def test_post_state_and_returned_parameter(set_zero: Path) -> None:
    inp = {"a": [5, 6, 7], "iBegin": 0, "iEnd": 2}
    right, wrong = {"a": [0, 0, 7]}, {"a": [0, 6, 7]}
    jml = (r"//@ ensures \result == a && \result[0] == 0 && \old(a[0]) == 5 && "
           r"(\forall int i; iBegin <= i && i < iEnd; a[i] == 0) && a[2] == \old(a[2]);")
    assert _post(set_zero, SET_ZERO, jml, [(inp, right), (inp, wrong)]) == ["true", "false"]
    # \old(a) is the same reference as a (JML: \old applies to the reference), whose
    # contents are read in the post-state; \old(a[1]) reads the input's contents
    assert _post(set_zero, SET_ZERO, r"//@ ensures \old(a) == a && \old(a[1]) == 6;",
                 [(inp, right)]) == ["true"]
    assert _post(set_zero, SET_ZERO, r"//@ ensures \old(a)[1] == a[1] && \old(a)[1] == 0;",
                 [(inp, right)]) == ["true"]
    assert _post(set_zero, SET_ZERO, r"//@ ensures \result.length == 3;",
                 [(inp, right)]) == ["true"]


@pytest.mark.slow
@pytest.mark.requires("javac")
def test_run_reference_gives_the_post_state(set_zero: Path) -> None:
    task = load_task(set_zero)
    out = OpenJmlBackend().run_reference(task, [{"a": [5, 6, 7], "iBegin": 1, "iEnd": 3}])
    assert out == [{"a": [5, 0, 0]}]


def test_stubs_return_the_post_state_object(set_zero: Path) -> None:
    task = load_task(set_zero)
    b = OpenJmlBackend()
    spec = b.load_spec(task, SET_ZERO.replace("    public", "    //@ ensures \\result == a;\n"
                                              "    public", 1), "S.java")
    case = Case(id="c", bucket=Bucket.post_complete, input={"a": [5], "iBegin": 0, "iEnd": 1},
                output={"a": [0]})
    text = render_stubs(spec.data, task, [case]).text
    assert "int[] __res = __out_a;" in text and "return a;" in text and "return null" not in text


@pytest.fixture
def instance(tmp_path: Path) -> Path:
    return _task(tmp_path / "i", INSTANCE, '[signature.input]\nx = "i32"\n\n'
                 '[signature.output]\nresult = "i32"\n\n[jml]\nstatic = false\n')


@pytest.mark.slow
@pytest.mark.requires("javac")
def test_instance_method_sees_fields_and_instance_helpers(instance: Path) -> None:
    jml = (r"//@ ensures \result == x + \old(base) && \result == \old(shifted(x)) && "
           r"\result == \old(this.base) + x;")
    assert _post(instance, INSTANCE, jml, [({"x": 1}, {"result": 11}),
                                           ({"x": 1}, {"result": 1})]) == ["true", "false"]
    # outside \old a field is the object's post-state, which the case does not record
    for jml in (r"//@ ensures \result == x + base;", r"//@ ensures \result == shifted(x);"):
        assert _post(instance, INSTANCE, jml, [({"x": 1}, {"result": 11})]) == ["unknown"]
    task = load_task(instance)
    assert OpenJmlBackend().run_reference(task, [{"x": 5}]) == [{"result": 15}]


def test_instance_stub_calls_through_this(instance: Path) -> None:
    task = load_task(instance)
    spec = OpenJmlBackend().load_spec(task, INSTANCE, "S.java")
    case = Case(id="c", bucket=Bucket.pre_complete, input={"x": 1})
    sf = render_stubs(spec.data, task, [case])
    assert "this.solve(__in_x);" in sf.text and "public void __pre_phi_0()" in sf.text


def test_settings_that_contradict_the_code_are_task_errors(tmp_path: Path) -> None:
    d = _task(tmp_path / "s", INSTANCE, '[signature.input]\nx = "i32"\n\n'
              '[signature.output]\nresult = "i32"\n\n[jml]\nstatic = true\n')
    with pytest.raises(TaskError, match="static"):
        OpenJmlBackend().load_spec(load_task(d), INSTANCE, "S.java")
    d = _task(tmp_path / "p", SET_ZERO, '[signature.input]\na = "array<i32>"\n'
              'iBegin = "i32"\niEnd = "i32"\n\n[signature.output]\nb = "array<i32>"\n\n'
              '[jml]\npost_state = ["b"]\n')
    with pytest.raises(TaskError, match="post_state"):
        OpenJmlBackend().load_spec(load_task(d), SET_ZERO, "S.java")
