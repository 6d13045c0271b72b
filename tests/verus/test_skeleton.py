"""Skeleton generation from a task's type schema."""

from __future__ import annotations

from pathlib import Path

import pytest

from adequacy.examples import bundled_folder
from adequacy.model.task import Param
from adequacy.model.types import parse_type
from adequacy.taskdirs.load import load_task
from adequacy_verus.skeleton import SkeletonError, generate_skeleton, skeleton_for

EXAMPLES = bundled_folder("verus")


def P(name: str, ty: str, structs: dict[str, dict[str, str]] | None = None) -> Param:
    return Param(name=name, type=parse_type(ty, structs), type_text=ty)


def test_every_schema_type_maps_to_its_verus_type() -> None:
    structs = {"Point": {"x": "i32", "y": "i32"}}
    text = generate_skeleton(
        [P("a", "seq<i64>"), P("b", "array<u8>"), P("c", "list<char>"), P("s", "string"),
         P("st", "set<u16>"), P("ms", "multiset<i8>"), P("m", "map<u32, string>"),
         P("o", "option<nat>"), P("t", "tuple<int, bool>"), P("one", "tuple<usize>"),
         P("p", "Point", structs), P("w", "i128"), P("z", "isize")],
        [P("result", "option<seq<Point>>", structs)])
    for line in ["pub a: Seq<i64>,", "pub b: Seq<u8>,", "pub c: Seq<char>,", "pub s: SpecString,",
                 "pub st: Set<u16>,", "pub ms: Multiset<i8>,", "pub m: Map<u32, SpecString>,",
                 "pub o: Option<nat>,", "pub t: (int, bool),", "pub one: (usize,),",
                 "pub p: Point,", "pub w: i128,", "pub z: isize,",
                 "pub result: Option<Seq<Point>>,", "pub x: i32,"]:
        assert line in text, line
    # the named struct comes before the structs that use it
    assert text.index("pub struct Point") < text.index("pub struct Input")
    assert "use vstd::contrib::exec_spec::*;" in text
    assert "spec fn pre_spec(input: Input) -> bool {" in text
    assert "spec fn post_spec(input: Input, output: Output) -> bool {" in text
    assert "exec_spec_unverified! {" in text


def test_floats_are_refused_with_the_field_named() -> None:
    with pytest.raises(SkeletonError) as e:
        generate_skeleton([P("x", "seq<f64>")], [P("result", "bool")])
    assert "f64" in e.value.message and e.value.field == "signature.input.x"


def test_keyword_field_names_are_refused() -> None:
    with pytest.raises(SkeletonError, match="keyword"):
        generate_skeleton([P("type", "i32")], [P("result", "bool")])


@pytest.mark.parametrize("name", ["core", "std", "alloc", "vstd"])
def test_crate_names_are_refused_as_field_names(name: str) -> None:
    """The front end refuses these names anywhere in a spec, so no spec could use the field."""
    with pytest.raises(SkeletonError, match="crate") as e:
        generate_skeleton([P(name, "i32")], [P("result", "bool")])
    assert e.value.field == f"signature.input.{name}"


def test_nullable_is_refused() -> None:
    with pytest.raises(SkeletonError, match="option"):
        generate_skeleton([P("x", "nullable<i32>")], [P("result", "bool")])


@pytest.mark.parametrize("task_dir", sorted(p for p in EXAMPLES.iterdir() if p.is_dir()),
                         ids=lambda p: p.name)
def test_bundled_skeletons_are_what_the_schema_generates(task_dir: Path) -> None:
    task = load_task(task_dir)
    assert task.skeleton == skeleton_for(task)


def test_generated_skeleton_passes_the_front_end() -> None:
    frontend = pytest.importorskip("adequacy_verus.frontend")
    text = generate_skeleton([P("a", "seq<i64>"), P("t", "tuple<i8, char>")],
                             [P("result", "option<usize>")])
    skel = frontend.parse_spec(text, "skeleton.rs")
    frontend.check_spec(frontend.parse_spec(text, "spec.rs"), skel, "spec.rs")


# ---------------------------------------------------------------- adequacy task new

def _new_task(root: Path, toml: str) -> Path:
    d = root / "t"
    d.mkdir()
    (d / "task.toml").write_text(toml)
    return d


VERUS_TOML = ('id = "t"\nlanguage = "verus"\ntitle = "Sum"\n[signature.input]\nxs = "seq<i64>"\n'
              '[signature.output]\nresult = "int"\n')


def test_task_new_writes_the_skeleton_and_refuses_to_overwrite(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from adequacy.cli import app

    d = _new_task(tmp_path, VERUS_TOML)
    run = CliRunner().invoke
    res = run(app, ["task", "new", str(d)])
    assert res.exit_code == 0, res.output
    text = (d / "skeleton.rs").read_text()
    assert text == skeleton_for(load_task(d))  # the task now loads, with this skeleton
    assert "pub xs: Seq<i64>," in text and "pub result: int," in text
    (d / "skeleton.rs").write_text(text + "// edited\n")
    res = run(app, ["task", "new", str(d)])
    assert res.exit_code == 2 and "--force" in res.output
    assert (d / "skeleton.rs").read_text().endswith("// edited\n")
    res = run(app, ["task", "new", str(d), "--force"])
    assert res.exit_code == 0 and (d / "skeleton.rs").read_text() == text


@pytest.mark.parametrize(("toml", "needle"), [
    ('id = "t"\nlanguage = "lean"\n[signature.input]\nx = "i32"\n[signature.output]\n'
     'result = "i32"\n', "lean"),  # JML tasks get a Solution.java (tests/core/test_cli_polish)
    ('id = "t"\nlanguage = "verus"\n[signature.input]\nx = "f64"\n[signature.output]\n'
     'result = "i32"\n', "signature.input.x"),
    ('id = "t"\nlanguage = "verus"\n[signature.input]\nx = "seq<"\n[signature.output]\n'
     'result = "i32"\n', "task.toml:4"),
])
def test_task_new_errors_are_one_line_and_exit_2(tmp_path: Path, toml: str, needle: str) -> None:
    from typer.testing import CliRunner

    from adequacy.cli import app

    d = _new_task(tmp_path, toml)
    res = CliRunner().invoke(app, ["task", "new", str(d)])
    assert res.exit_code == 2 and needle in res.output, res.output
    assert "Traceback" not in res.output and not (d / "skeleton.rs").exists()


def test_an_empty_skeleton_is_a_task_error(tmp_path: Path) -> None:
    from adequacy.taskdirs.load import check_task

    d = _new_task(tmp_path, VERUS_TOML)
    (d / "tests").mkdir()
    (d / "skeleton.rs").write_text("  \n")
    _, errors = check_task(d)
    assert any("skeleton.rs is empty" in str(e) and "task new" in str(e) for e in errors)
