"""The task type language read as Python types, both ways.

A task type becomes a JSON tree for the worker (``type_tree``, read by ``runtime.pyvalues``) and
an annotation for skeletons (``annotation``); a Python annotation becomes a task type
(``from_annotation``, for ``task from`` and the HumanEval importer). Integers are unbounded
(``int``), floats are ``f64``, ``list[T]`` is ``list<T>``, ``set``/``dict``/``tuple`` keep their
meaning, ``Optional[T]`` is ``option<T>`` (``None`` or the value).
"""

from __future__ import annotations

import ast
from typing import Any

from adequacy.plugin import (
    BoolType,
    CharType,
    FloatType,
    IntType,
    MapType,
    MultisetType,
    NullableType,
    OptionType,
    SeqType,
    SetType,
    StringType,
    StructType,
    TupleType,
    Type,
    TypeVisitor,
    parts,
    visit,
)


def _unreadable(self: Any, t: Type, *rest: Any) -> Any:
    raise ValueError(f"type {t} has no Python reading")


class _TypeTree(TypeVisitor[[], Any]):
    """The worker's reading of a type (``runtime/pyvalues.py`` documents the trees)."""

    def visit_bool(self, t: BoolType) -> Any:
        return "bool"

    def visit_char(self, t: CharType) -> Any:
        return "char"

    def visit_string(self, t: StringType) -> Any:
        return "str"

    def visit_int(self, t: IntType) -> Any:
        lo, hi = t.bounds
        return "int" if lo is None and hi is None else ["int", lo, hi]

    def visit_float(self, t: FloatType) -> Any:
        return "float" if t.name == "f64" else ["float32"]

    def visit_seq(self, t: SeqType) -> Any:
        return ["array" if t.kind == "array" else "list", type_tree(t.elem)]

    def visit_set(self, t: SetType) -> Any:
        return ["set", type_tree(t.elem)]

    def visit_multiset(self, t: MultisetType) -> Any:
        return ["multiset", type_tree(t.elem)]

    def visit_map(self, t: MapType) -> Any:
        return ["map", type_tree(t.key), type_tree(t.value)]

    def visit_option(self, t: OptionType) -> Any:
        return ["option", type_tree(t.elem)]

    def visit_nullable(self, t: NullableType) -> Any:
        return ["nullable", type_tree(t.elem)]

    def visit_tuple(self, t: TupleType) -> Any:
        return ["tuple", [type_tree(e) for e in t.elems]]

    visit_struct = _unreadable


_TYPE_TREE = _TypeTree()


def type_tree(t: Type) -> Any:
    """The worker's reading of ``t`` (``runtime/pyvalues.py`` documents the trees)."""
    return visit(t, _TYPE_TREE)


class _Hashable(TypeVisitor[[], bool]):
    """Whether Python values of a type are hashable (set elements, dict keys)."""

    def _yes(self, t: Type) -> bool:
        return True

    visit_bool = visit_char = visit_string = visit_int = visit_float = _yes

    def _no(self, t: Type) -> bool:
        return False

    visit_seq = visit_set = visit_multiset = visit_map = visit_struct = _no

    def _parts(self, t: OptionType | NullableType | TupleType) -> bool:
        return all(_hashable(p) for p in parts(t))

    visit_option = visit_nullable = visit_tuple = _parts


_HASHABLE = _Hashable()


def _hashable(t: Type) -> bool:
    return visit(t, _HASHABLE)


def problem(t: Type) -> str | None:
    """Why values of ``t`` have no one Python reading, or None."""
    if isinstance(t, StructType):
        return (f"struct {t.name}: Python tasks take built-in values (a struct would need a "
                "class, which specs cannot see)")
    if isinstance(t, (SetType, MultisetType)) and not _hashable(t.elem):
        return f"{t}: Python set elements must be hashable (lists, sets and dicts are not)"
    if isinstance(t, MapType) and not _hashable(t.key):
        return f"{t}: Python dict keys must be hashable (lists, sets and dicts are not)"
    if isinstance(t, (OptionType, NullableType)) and isinstance(t.elem, (OptionType,
                                                                          NullableType)):
        return f"{t}: None would stand for two values (an option of an option)"
    for child in parts(t):
        why = problem(child)
        if why:
            return why
    return None


class _Annotation(TypeVisitor[[], str]):
    """A Python annotation for values of a type (skeletons)."""

    def visit_bool(self, t: BoolType) -> str:
        return "bool"

    def _text(self, t: CharType | StringType) -> str:
        return "str"

    visit_char = visit_string = _text

    def visit_int(self, t: IntType) -> str:
        return "int"

    def visit_float(self, t: FloatType) -> str:
        return "float"

    def visit_seq(self, t: SeqType) -> str:
        inner = f"list[{annotation(t.elem)}]"
        return f"{inner} | None" if t.kind == "array" else inner

    def visit_set(self, t: SetType) -> str:
        return f"set[{annotation(t.elem)}]"

    def visit_multiset(self, t: MultisetType) -> str:
        return f"collections.Counter[{annotation(t.elem)}]"

    def visit_map(self, t: MapType) -> str:
        return f"dict[{annotation(t.key)}, {annotation(t.value)}]"

    def _or_none(self, t: OptionType | NullableType) -> str:
        return f"{annotation(t.elem)} | None"

    visit_option = visit_nullable = _or_none

    def visit_tuple(self, t: TupleType) -> str:
        return "tuple[" + ", ".join(annotation(e) for e in t.elems) + "]"

    visit_struct = _unreadable


_ANNOTATION = _Annotation()


def annotation(t: Type) -> str:
    """A Python annotation for values of ``t`` (skeletons)."""
    return visit(t, _ANNOTATION)


class Unsupported(ValueError):
    """An annotation with no task type (``Any``, a class, a callable)."""


_SCALARS = {"int": "int", "float": "f64", "bool": "bool", "str": "string"}
_SEQS = {"list": "list", "List": "list", "Sequence": "list", "Iterable": "list"}
_SETS = {"set": "set", "Set": "set", "frozenset": "set", "FrozenSet": "set"}
_MAPS = {"dict": "map", "Dict": "map", "Mapping": "map"}


def from_annotation(node: ast.expr | None) -> str:
    """The task type text of a Python annotation; ``Unsupported`` saying what it cannot
    read. A bare ``list`` or a missing annotation is ``Unsupported`` too: the caller may infer
    the element type from examples (``infer_type``)."""
    if node is None:
        raise Unsupported("no annotation")
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        try:
            return from_annotation(ast.parse(node.value, mode="eval").body)
        except SyntaxError:
            raise Unsupported(f"annotation {node.value!r}") from None
    if isinstance(node, ast.Constant) and node.value is None:
        raise Unsupported("None (a function returning nothing)")
    name = _name(node)
    if name in _SCALARS:
        return _SCALARS[name]
    if name in _SEQS or name in _SETS or name in _MAPS or name in ("tuple", "Tuple"):
        raise Unsupported(f"{name} without its element type")
    if isinstance(node, ast.Subscript):
        head = _name(node.value)
        args = list(node.slice.elts) if isinstance(node.slice, ast.Tuple) else [node.slice]
        if head in _SEQS and len(args) == 1:
            return f"list<{from_annotation(args[0])}>"
        if head in _SETS and len(args) == 1:
            return f"set<{from_annotation(args[0])}>"
        if head in _MAPS and len(args) == 2:
            return f"map<{from_annotation(args[0])}, {from_annotation(args[1])}>"
        if head in ("tuple", "Tuple"):
            if len(args) == 2 and isinstance(args[1], ast.Constant) and args[1].value is ...:
                raise Unsupported("tuple[T, ...] (a tuple of any length): use list[T]")
            return "tuple<" + ", ".join(from_annotation(a) for a in args) + ">"
        if head == "Optional" and len(args) == 1:
            return f"option<{from_annotation(args[0])}>"
        if head == "Union":
            return _union(args)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return _union([node.left, node.right])
    raise Unsupported(f"annotation {ast.unparse(node)}")


def _union(args: list[ast.expr]) -> str:
    rest = [a for a in args if not (isinstance(a, ast.Constant) and a.value is None)
            and _name(a) != "None"]
    if len(rest) == 1 and len(rest) < len(args):
        return f"option<{from_annotation(rest[0])}>"
    raise Unsupported("a union of types: a task value has one type")


def _name(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def infer_type(values: list[Any]) -> str | None:
    """The task type of Python values seen in examples, when they agree (None otherwise):
    how a bare ``list`` annotation gets its element type."""
    if not values:
        return None
    present = [v for v in values if v is not None]
    if len(present) < len(values):
        inner = infer_type(present)
        return f"option<{inner}>" if inner else None
    kinds = {_kind(v) for v in values}
    if len(kinds) != 1:
        if kinds == {"int", "f64"}:
            return "f64"
        return None
    kind = kinds.pop()
    if kind in ("int", "f64", "bool", "string"):
        return kind
    if kind == "list":
        elems = [e for v in values for e in v]
        inner = infer_type(elems) if elems else None
        return f"list<{inner}>" if inner else None
    if kind == "tuple":
        lens = {len(v) for v in values}
        if len(lens) != 1:
            return None
        parts = [infer_type([v[i] for v in values]) for i in range(lens.pop())]
        if not parts or any(p is None for p in parts):
            return None
        return "tuple<" + ", ".join(p for p in parts if p) + ">"
    if kind == "set":
        elems = [e for v in values for e in v]
        inner = infer_type(elems) if elems else None
        return f"set<{inner}>" if inner else None
    if kind == "dict":
        keys = infer_type([k for v in values for k in v])
        vals = infer_type([x for v in values for x in v.values()])
        return f"map<{keys}, {vals}>" if keys and vals else None
    return None


def _kind(v: Any) -> str:
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        return "int"
    if isinstance(v, float):
        return "f64"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "list"
    if isinstance(v, tuple):
        return "tuple"
    if isinstance(v, dict):
        return "dict"
    if isinstance(v, (set, frozenset)):
        return "set"
    return "other"


class Other:
    """A value of a kind no task type holds (``pyvalues.plain``'s ``other``)."""


def unplain(v: Any) -> Any:
    """The Python value ``runtime.pyvalues.plain`` wrote."""
    if isinstance(v, list):
        return [unplain(e) for e in v]
    if isinstance(v, dict):
        if "tuple" in v:
            return tuple(unplain(e) for e in v["tuple"])
        if "set" in v:
            return frozenset(unplain(e) for e in v["set"])
        if "dict" in v:
            return {unplain(k): unplain(x) for k, x in v["dict"]}
        if "float" in v:
            return float({"NaN": "nan", "Infinity": "inf", "-Infinity": "-inf"}[v["float"]])
        return Other()
    return v
