"""Generate a Verus task's ``skeleton.rs`` from its type schema.

The skeleton is the contract between a task and every spec written for it: the ``Input`` and
``Output`` structs are fixed (the front end checks a spec keeps them verbatim), and the two holes
``pre_spec``/``post_spec`` are what a writer fills in. Generating it from the schema, rather than
writing it by hand, keeps the Rust field types and the JSON cases in step: the renderers in
``render.py`` walk the same types.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from adequacy.plugin import (
    BoolType,
    CharType,
    FloatType,
    IntType,
    MapType,
    MultisetType,
    NullableType,
    OptionType,
    Param,
    SeqType,
    SetType,
    StringType,
    StructType,
    Task,
    TaskError,
    TupleType,
    Type,
    TypeVisitor,
    parts,
    visit,
)

#: Imports every spec file starts with; ``exec_spec`` brings ``SpecString`` and the macro.
PRELUDE = "use vstd::prelude::*;\nuse vstd::contrib::exec_spec::*;\n"

_WORDS = (
    "as async await break const continue crate dyn else enum extern false fn for if impl in let "
    "loop match mod move mut pub ref return self Self static struct super trait true type unsafe "
    "use where while abstract become box do final macro override priv typeof unsized virtual "
    "yield try gen "
    # Verus adds these as keywords or reserved names inside verus!{}
    "spec proof exec open closed tracked ghost requires ensures recommends decreases invariant "
    "forall exists choose int nat"
)
RUST_KEYWORDS = frozenset(_WORDS.split())
#: Crate names a spec may not mention (see ``frontend.CRATE_NAMES``), nor ``vstd`` outside `use`.
CRATE_NAMES = frozenset({"std", "core", "alloc", "proc_macro", "vstd"})
RESERVED_STRUCTS = frozenset({"Input", "Output"})


class SkeletonError(TaskError):
    """The task's schema has something Verus specs cannot talk about (floats, Java nulls)."""


def _check_ident(name: str, where: str) -> None:
    if not (name[:1].isalpha() or name[:1] == "_") or not all(
        c.isalnum() or c == "_" for c in name
    ):
        raise SkeletonError(f"{name!r} is not a Rust identifier", field=where)
    if name in RUST_KEYWORDS:
        raise SkeletonError(f"{name!r} is a Rust/Verus keyword and cannot name a field; rename it "
                            "in task.toml", field=where)
    if name in CRATE_NAMES:
        raise SkeletonError(f"{name!r} names a crate, which the front end refuses anywhere in a "
                            "spec; rename it in task.toml", field=where)


class _VerusType(TypeVisitor[[str], str]):
    """The Verus spec type of a schema type; ``where`` names the task field in errors."""

    def visit_int(self, ty: IntType, where: str) -> str:
        return ty.name

    def visit_bool(self, ty: BoolType, where: str) -> str:
        return "bool"

    def visit_char(self, ty: CharType, where: str) -> str:
        return "char"

    def visit_string(self, ty: StringType, where: str) -> str:
        return "SpecString"

    def visit_seq(self, ty: SeqType, where: str) -> str:
        return f"Seq<{verus_type(ty.elem, where)}>"

    def visit_set(self, ty: SetType, where: str) -> str:
        return f"Set<{verus_type(ty.elem, where)}>"

    def visit_multiset(self, ty: MultisetType, where: str) -> str:
        return f"Multiset<{verus_type(ty.elem, where)}>"

    def visit_map(self, ty: MapType, where: str) -> str:
        return f"Map<{verus_type(ty.key, where)}, {verus_type(ty.value, where)}>"

    def visit_option(self, ty: OptionType, where: str) -> str:
        return f"Option<{verus_type(ty.elem, where)}>"

    def visit_tuple(self, ty: TupleType, where: str) -> str:
        inner = ", ".join(verus_type(e, where) for e in ty.elems)
        return f"({inner},)" if len(ty.elems) == 1 else f"({inner})"

    def visit_struct(self, ty: StructType, where: str) -> str:
        return ty.name

    def visit_float(self, ty: FloatType, where: str) -> str:
        raise SkeletonError(
            f"{ty} is not supported by the Verus backend: Verus spec code has no floating-point "
            "semantics that exec_spec or the interpreter could check (use an integer or "
            "fixed-point encoding in the task)", field=where)

    def visit_nullable(self, ty: NullableType, where: str) -> str:
        raise SkeletonError("nullable<...> is a Java reference type; a Verus task uses "
                            "option<...> instead", field=where)


_VERUS_TYPE = _VerusType()


def verus_type(ty: Type, where: str = "type") -> str:
    """The Verus spec type for a schema type (what appears in the skeleton's structs)."""
    return visit(ty, _VERUS_TYPE, where)


def _structs_in_order(types: Sequence[Type]) -> list[StructType]:
    """Named structs reachable from ``types``, each after the structs its fields use."""
    out: list[StructType] = []
    seen: set[str] = set()

    def walk(t: Type) -> None:
        if isinstance(t, StructType):
            if t.name in seen:
                return
            seen.add(t.name)
            for _, ft in t.fields:
                walk(ft)
            out.append(t)
        else:
            for p in parts(t):
                walk(p)

    for t in types:
        walk(t)
    return out


def _struct_block(name: str, fields: Sequence[tuple[str, Type]], where: str) -> str:
    lines = [f"pub struct {name} {{"]
    for fname, fty in fields:
        _check_ident(fname, f"{where}.{fname}")
        lines.append(f"    pub {fname}: {verus_type(fty, f'{where}.{fname}')},")
    lines.append("}")
    return "\n".join(lines)


def generate_skeleton(inputs: Sequence[Param], outputs: Sequence[Param],
                      title: str = "") -> str:
    """The full ``skeleton.rs`` text; raises ``SkeletonError`` naming the offending field."""
    if not outputs:
        raise SkeletonError("a task needs at least one output", field="signature.output")
    structs = _structs_in_order([p.type for p in (*inputs, *outputs)])
    for s in structs:
        if s.name in RESERVED_STRUCTS or s.name.startswith("Exec"):
            raise SkeletonError(f"struct name {s.name!r} clashes with the skeleton's own names "
                                "(Input, Output, and the macro's Exec* types)",
                                field=f"structs.{s.name}")
        _check_ident(s.name, f"structs.{s.name}")
    blocks = [_struct_block(s.name, s.fields, f"structs.{s.name}") for s in structs]
    blocks.append(_struct_block("Input", [(p.name, p.type) for p in inputs], "signature.input"))
    blocks.append(_struct_block("Output", [(p.name, p.type) for p in outputs],
                                "signature.output"))
    header = f"// {title}\n" if title else ""
    return (
        f"{header}{PRELUDE}\n"
        "verus! {\n\n"
        "exec_spec_unverified! {\n\n"
        + "\n\n".join(blocks)
        + "\n\n"
        "/// Which inputs the function promises to handle.\n"
        "spec fn pre_spec(input: Input) -> bool {\n"
        "    true\n"
        "}\n\n"
        "/// Which outputs are correct for an input that satisfies pre_spec.\n"
        "spec fn post_spec(input: Input, output: Output) -> bool {\n"
        "    true\n"
        "}\n\n"
        "} // exec_spec_unverified!\n\n"
        "} // verus!\n"
    )


def skeleton_for(task: Task) -> str:
    """The skeleton a task's schema implies (``adequacy`` compares it with ``skeleton.rs``)."""
    return generate_skeleton(task.inputs, task.outputs, task.title)


def struct_types(task: Task) -> Mapping[str, StructType]:
    """Named structs of the task's schema, by name (the renderers need their field order)."""
    return {s.name: s for s in _structs_in_order([p.type for p in (*task.inputs,
                                                                     *task.outputs)])}


def skeleton_for_folder(task_dir: Path) -> str:
    """The skeleton ``task.toml`` implies, before ``skeleton.rs`` (or any case) exists.

    ``adequacy task new`` calls this: a new task has a schema but no skeleton yet, so the task
    cannot be loaded whole; only its header and signature are read (with the same checks and
    file:line messages as ``load_task``)."""
    from adequacy.plugin import read_signature

    head, inputs, outputs = read_signature(task_dir)
    language = head.get("language")
    if language != "verus":
        raise TaskError(f"task new writes skeleton.rs for verus tasks; this task's language "
                        f"is {language!r}", file=str(task_dir / "task.toml"), field="language")
    title = head.get("title", "")
    return generate_skeleton(inputs, outputs, title if isinstance(title, str) else "")
