"""Skeleton generation from a task's type schema."""

from __future__ import annotations

from pathlib import Path

import pytest
from adequacy.backends.verus.skeleton import SkeletonError, generate_skeleton, skeleton_for

from adequacy.tasks import Param, load_task
from adequacy.types import parse_type

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "verus"


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


def test_nullable_is_refused() -> None:
    with pytest.raises(SkeletonError, match="option"):
        generate_skeleton([P("x", "nullable<i32>")], [P("result", "bool")])


@pytest.mark.parametrize("task_dir", sorted(p for p in EXAMPLES.iterdir() if p.is_dir()),
                         ids=lambda p: p.name)
def test_bundled_skeletons_are_what_the_schema_generates(task_dir: Path) -> None:
    task = load_task(task_dir)
    assert task.skeleton == skeleton_for(task)


def test_generated_skeleton_passes_the_front_end() -> None:
    frontend = pytest.importorskip("adequacy.backends.verus.frontend")
    text = generate_skeleton([P("a", "seq<i64>"), P("t", "tuple<i8, char>")],
                             [P("result", "option<usize>")])
    skel = frontend.parse_spec(text, "skeleton.rs")
    frontend.check_spec(frontend.parse_spec(text, "spec.rs"), skel, "spec.rs")
