"""Typed JSON case values -> what the Verus engines consume.

Two targets, both driven by the task's type schema:

* ``encode_tokens`` / ``rust_decoder`` (exec_spec engine): a flat whitespace-separated token
  stream the harness reads from stdin, plus the Rust expression that rebuilds an ``ExecX`` value
  from it. A data stream instead of Rust literals means one compiled harness per spec serves any
  set of cases (new mutants need no recompilation) and big sequences cost no compile time.
* ``spec_expr`` (verifier driver): a Verus spec expression (``seq![..]``, ``set![..]``,
  ``map![..]``) that denotes the value inside ``assert(pre_spec(...))``.

``decode_tokens`` is the inverse of ``encode_tokens``, kept for round-trip tests.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from adequacy.plugin import (
    BackendError,
    BoolType,
    CharType,
    IntType,
    MapType,
    MultisetType,
    OptionType,
    SeqType,
    SetType,
    StringType,
    StructType,
    TupleType,
    Type,
    TypeVisitor,
    method_for,
    visit,
)


class RenderError(BackendError, ValueError):
    """A value or type the Verus renderers cannot express."""


# ---------------------------------------------------------------- token stream (exec_spec)

def _no_value(what: str) -> Callable[..., Any]:
    """A visitor method for constructors Verus has no values of (floats, Java's nullable)."""
    def refuse(self: Any, ty: Type, *rest: Any) -> Any:
        raise RenderError(f"{what} of type {ty}")
    return refuse


class _Tokens(TypeVisitor[[Any, list[str]], None]):
    """Append the tokens of a value to ``out``."""

    def visit_int(self, ty: IntType, value: Any, out: list[str]) -> None:
        out.append(str(int(value)))

    def visit_bool(self, ty: BoolType, value: Any, out: list[str]) -> None:
        out.append("1" if value else "0")

    def visit_char(self, ty: CharType, value: Any, out: list[str]) -> None:
        out.append(str(ord(value)))

    def visit_string(self, ty: StringType, value: Any, out: list[str]) -> None:
        out.append(str(len(value)))
        out.extend(str(ord(c)) for c in value)

    def _elements(self, ty: SeqType | SetType | MultisetType, value: Any, out: list[str]
                  ) -> None:
        items = value or []
        out.append(str(len(items)))
        put, et = method_for(ty.elem, self), ty.elem
        for e in items:
            put(et, e, out)

    visit_seq = visit_set = visit_multiset = _elements

    def visit_map(self, ty: MapType, value: Any, out: list[str]) -> None:
        out.append(str(len(value)))
        put_key, put_value = method_for(ty.key, self), method_for(ty.value, self)
        for k, v in value:
            put_key(ty.key, k, out)
            put_value(ty.value, v, out)

    def visit_option(self, ty: OptionType, value: Any, out: list[str]) -> None:
        if value is None:
            out.append("0")
        else:
            out.append("1")
            visit(ty.elem, self, value["some"], out)

    def visit_tuple(self, ty: TupleType, value: Any, out: list[str]) -> None:
        for e, t in zip(value, ty.elems, strict=True):
            visit(t, self, e, out)

    def visit_struct(self, ty: StructType, value: Any, out: list[str]) -> None:
        for name, ft in ty.fields:
            visit(ft, self, value[name], out)

    visit_float = visit_nullable = _no_value("cannot encode values")


_TOKENS = _Tokens()


def encode_tokens(value: Any, ty: Type, out: list[str] | None = None) -> list[str]:
    """Append the tokens of ``value`` (already validated against ``ty``) to ``out``.

    Lengths precede collections, ``option`` is ``0`` or ``1 v``, chars are code points, strings
    are a length then code points (no escaping problems), structs follow declared field order.
    """
    out = [] if out is None else out
    visit(ty, _TOKENS, value, out)
    return out


class _Decode(TypeVisitor[[Iterator[str]], Any]):
    """Read one value back from the token stream."""

    def visit_int(self, ty: IntType, tokens: Iterator[str]) -> Any:
        return int(next(tokens))

    def visit_bool(self, ty: BoolType, tokens: Iterator[str]) -> Any:
        return next(tokens) == "1"

    def visit_char(self, ty: CharType, tokens: Iterator[str]) -> Any:
        return chr(int(next(tokens)))

    def visit_string(self, ty: StringType, tokens: Iterator[str]) -> Any:
        n = int(next(tokens))
        return "".join(chr(int(next(tokens))) for _ in range(n))

    def _elements(self, ty: SeqType | SetType | MultisetType, tokens: Iterator[str]) -> Any:
        n = int(next(tokens))
        get, et = method_for(ty.elem, self), ty.elem
        return [get(et, tokens) for _ in range(n)]

    visit_seq = visit_set = visit_multiset = _elements

    def visit_map(self, ty: MapType, tokens: Iterator[str]) -> Any:
        n = int(next(tokens))
        return [[visit(ty.key, self, tokens), visit(ty.value, self, tokens)] for _ in range(n)]

    def visit_option(self, ty: OptionType, tokens: Iterator[str]) -> Any:
        return {"some": visit(ty.elem, self, tokens)} if next(tokens) == "1" else None

    def visit_tuple(self, ty: TupleType, tokens: Iterator[str]) -> Any:
        return [visit(t, self, tokens) for t in ty.elems]

    def visit_struct(self, ty: StructType, tokens: Iterator[str]) -> Any:
        return {name: visit(ft, self, tokens) for name, ft in ty.fields}

    visit_float = visit_nullable = _no_value("cannot decode values")


_DECODE = _Decode()


def decode_tokens(tokens: Iterator[str], ty: Type) -> Any:
    """Inverse of ``encode_tokens`` (sets, multisets and maps come back as arrays)."""
    return visit(ty, _DECODE, tokens)


class _Decoder(TypeVisitor[[], str]):
    """The Rust expression that reads one value (see ``rust_decoder``)."""

    def visit_int(self, ty: IntType) -> str:
        if ty.name in ("int", "nat"):
            # exec_spec cannot compile int/nat fields; the macro rejects the spec before this
            # expression is type-checked, so any type does.
            return "r.num::<i128>()"
        return f"r.num::<{ty.name}>()"

    def visit_bool(self, ty: BoolType) -> str:
        return "r.boolean()"

    def visit_char(self, ty: CharType) -> str:
        return "r.chr()"

    def visit_string(self, ty: StringType) -> str:
        return "r.string()"

    def visit_seq(self, ty: SeqType) -> str:
        return ("{ let n = r.len(); let mut v = Vec::with_capacity(n); "
                f"for _ in 0..n {{ v.push({rust_decoder(ty.elem)}); }} v }}")

    def visit_set(self, ty: SetType) -> str:
        return ("{ let n = r.len(); let mut v = ::std::collections::HashSet::new(); "
                f"for _ in 0..n {{ v.insert({rust_decoder(ty.elem)}); }} v }}")

    def visit_multiset(self, ty: MultisetType) -> str:
        return ("{ let n = r.len(); let mut m = ::std::collections::HashMap::new(); "
                f"for _ in 0..n {{ *m.entry({rust_decoder(ty.elem)}).or_insert(0usize) += 1; }} "
                "ExecMultiset { m } }")

    def visit_map(self, ty: MapType) -> str:
        return ("{ let n = r.len(); let mut v = ::std::collections::HashMap::new(); "
                f"for _ in 0..n {{ let k = {rust_decoder(ty.key)}; "
                f"let x = {rust_decoder(ty.value)}; v.insert(k, x); }} v }}")

    def visit_option(self, ty: OptionType) -> str:
        return f"(if r.boolean() {{ Some({rust_decoder(ty.elem)}) }} else {{ None }})"

    def visit_tuple(self, ty: TupleType) -> str:
        return "(" + "".join(f"{rust_decoder(t)}, " for t in ty.elems) + ")"

    def visit_struct(self, ty: StructType) -> str:
        return struct_decoder(f"Exec{ty.name}", ty.fields)

    visit_float = visit_nullable = _no_value("exec_spec cannot read values")


_DECODER = _Decoder()


def rust_decoder(ty: Type) -> str:
    """A Rust expression reading one value of ``ty`` from ``r: &mut Reader`` (the harness's).

    Rust evaluates struct-literal fields, tuple elements and call arguments left to right, which
    is the order ``encode_tokens`` writes them in.
    """
    return visit(ty, _DECODER)


def struct_decoder(exec_name: str, fields: tuple[tuple[str, Type], ...] | list[Any]) -> str:
    inner = ", ".join(f"{name}: {rust_decoder(ft)}" for name, ft in fields)
    return f"{exec_name} {{ {inner} }}"


# ---------------------------------------------------------------- Verus spec expressions

def _rust_char(c: str) -> str:
    if c == "'":
        return "'\\''"
    if c == "\\":
        return "'\\\\'"
    if c.isprintable() and c not in "\"":
        return f"'{c}'"
    return f"'\\u{{{ord(c):x}}}'"


class _SpecExpr(TypeVisitor[[Any], str]):
    """The Verus spec expression of a value (see ``spec_expr``)."""

    def visit_int(self, ty: IntType, value: Any) -> str:
        v = int(value)
        if v >= 0:
            return f"{v}{ty.name}"
        # ``-128i8`` would negate an out-of-range literal; negate in ``int`` and cast instead.
        return f"(-{-v}int)" if ty.name == "int" else f"((-{-v}int) as {ty.name})"

    def visit_bool(self, ty: BoolType, value: Any) -> str:
        return "true" if value else "false"

    def visit_char(self, ty: CharType, value: Any) -> str:
        return _rust_char(value)

    def visit_string(self, ty: StringType, value: Any) -> str:
        if not value:
            return "Seq::<char>::empty()"
        return "seq![" + ", ".join(_rust_char(c) for c in value) + "]"

    def visit_seq(self, ty: SeqType, value: Any) -> str:
        from .skeleton import verus_type
        if not value:
            return f"Seq::<{verus_type(ty.elem)}>::empty()"
        return "seq![" + ", ".join(spec_expr(e, ty.elem) for e in value) + "]"

    def visit_set(self, ty: SetType, value: Any) -> str:
        from .skeleton import verus_type
        if not value:
            return f"Set::<{verus_type(ty.elem)}>::empty()"
        return "set![" + ", ".join(spec_expr(e, ty.elem) for e in value) + "]"

    def visit_multiset(self, ty: MultisetType, value: Any) -> str:
        from .skeleton import verus_type
        acc = f"Multiset::<{verus_type(ty.elem)}>::empty()"
        for e in value:
            acc += f".insert({spec_expr(e, ty.elem)})"
        return acc

    def visit_map(self, ty: MapType, value: Any) -> str:
        from .skeleton import verus_type
        if not value:
            return f"Map::<{verus_type(ty.key)}, {verus_type(ty.value)}>::empty()"
        return "map![" + ", ".join(f"{spec_expr(k, ty.key)} => {spec_expr(v, ty.value)}"
                                   for k, v in value) + "]"

    def visit_option(self, ty: OptionType, value: Any) -> str:
        return ("Option::None" if value is None
                else f"Option::Some({spec_expr(value['some'], ty.elem)})")

    def visit_tuple(self, ty: TupleType, value: Any) -> str:
        parts = [spec_expr(e, t) for e, t in zip(value, ty.elems, strict=True)]
        return "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"

    def visit_struct(self, ty: StructType, value: Any) -> str:
        return struct_expr(ty.name, [(n, value[n], t) for n, t in ty.fields])

    visit_float = visit_nullable = _no_value("Verus has no spec value")


_SPEC_EXPR = _SpecExpr()


def spec_expr(value: Any, ty: Type) -> str:
    """A Verus spec-mode expression denoting ``value``.

    Strings become ``seq!['a', ..]`` (``SpecString`` is ``Seq<char>``), which needs no
    string-literal axioms; multisets are built by ``insert`` chains since vstd has no literal.
    """
    return visit(ty, _SPEC_EXPR, value)


def struct_expr(name: str, fields: list[tuple[str, Any, Type]]) -> str:
    return f"{name} {{ " + ", ".join(f"{n}: {spec_expr(v, t)}" for n, v, t in fields) + " }"
