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

from collections.abc import Iterator
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
)


class RenderError(BackendError, ValueError):
    """A value or type the Verus renderers cannot express."""


# ---------------------------------------------------------------- token stream (exec_spec)

def encode_tokens(value: Any, ty: Type, out: list[str] | None = None) -> list[str]:
    """Append the tokens of ``value`` (already validated against ``ty``) to ``out``.

    Lengths precede collections, ``option`` is ``0`` or ``1 v``, chars are code points, strings
    are a length then code points (no escaping problems), structs follow declared field order.
    """
    out = [] if out is None else out
    if isinstance(ty, IntType):
        out.append(str(int(value)))
    elif isinstance(ty, BoolType):
        out.append("1" if value else "0")
    elif isinstance(ty, CharType):
        out.append(str(ord(value)))
    elif isinstance(ty, StringType):
        out.append(str(len(value)))
        out.extend(str(ord(c)) for c in value)
    elif isinstance(ty, (SeqType, SetType, MultisetType)):
        items = value or []
        out.append(str(len(items)))
        for e in items:
            encode_tokens(e, ty.elem, out)
    elif isinstance(ty, MapType):
        out.append(str(len(value)))
        for k, v in value:
            encode_tokens(k, ty.key, out)
            encode_tokens(v, ty.value, out)
    elif isinstance(ty, OptionType):
        if value is None:
            out.append("0")
        else:
            out.append("1")
            encode_tokens(value["some"], ty.elem, out)
    elif isinstance(ty, TupleType):
        for e, t in zip(value, ty.elems, strict=True):
            encode_tokens(e, t, out)
    elif isinstance(ty, StructType):
        for name, ft in ty.fields:
            encode_tokens(value[name], ft, out)
    else:
        raise RenderError(f"cannot encode values of type {ty}")
    return out


def decode_tokens(tokens: Iterator[str], ty: Type) -> Any:
    """Inverse of ``encode_tokens`` (sets, multisets and maps come back as arrays)."""
    if isinstance(ty, IntType):
        return int(next(tokens))
    if isinstance(ty, BoolType):
        return next(tokens) == "1"
    if isinstance(ty, CharType):
        return chr(int(next(tokens)))
    if isinstance(ty, StringType):
        n = int(next(tokens))
        return "".join(chr(int(next(tokens))) for _ in range(n))
    if isinstance(ty, (SeqType, SetType, MultisetType)):
        n = int(next(tokens))
        return [decode_tokens(tokens, ty.elem) for _ in range(n)]
    if isinstance(ty, MapType):
        n = int(next(tokens))
        return [[decode_tokens(tokens, ty.key), decode_tokens(tokens, ty.value)]
                for _ in range(n)]
    if isinstance(ty, OptionType):
        return {"some": decode_tokens(tokens, ty.elem)} if next(tokens) == "1" else None
    if isinstance(ty, TupleType):
        return [decode_tokens(tokens, t) for t in ty.elems]
    if isinstance(ty, StructType):
        return {name: decode_tokens(tokens, ft) for name, ft in ty.fields}
    raise RenderError(f"cannot decode values of type {ty}")


def rust_decoder(ty: Type) -> str:
    """A Rust expression reading one value of ``ty`` from ``r: &mut Reader`` (the harness's).

    Rust evaluates struct-literal fields, tuple elements and call arguments left to right, which
    is the order ``encode_tokens`` writes them in.
    """
    if isinstance(ty, IntType):
        if ty.name in ("int", "nat"):
            # exec_spec cannot compile int/nat fields; the macro rejects the spec before this
            # expression is type-checked, so any type does.
            return "r.num::<i128>()"
        return f"r.num::<{ty.name}>()"
    if isinstance(ty, BoolType):
        return "r.boolean()"
    if isinstance(ty, CharType):
        return "r.chr()"
    if isinstance(ty, StringType):
        return "r.string()"
    if isinstance(ty, SeqType):
        return ("{ let n = r.len(); let mut v = Vec::with_capacity(n); "
                f"for _ in 0..n {{ v.push({rust_decoder(ty.elem)}); }} v }}")
    if isinstance(ty, SetType):
        return ("{ let n = r.len(); let mut v = ::std::collections::HashSet::new(); "
                f"for _ in 0..n {{ v.insert({rust_decoder(ty.elem)}); }} v }}")
    if isinstance(ty, MultisetType):
        return ("{ let n = r.len(); let mut m = ::std::collections::HashMap::new(); "
                f"for _ in 0..n {{ *m.entry({rust_decoder(ty.elem)}).or_insert(0usize) += 1; }} "
                "ExecMultiset { m } }")
    if isinstance(ty, MapType):
        return ("{ let n = r.len(); let mut v = ::std::collections::HashMap::new(); "
                f"for _ in 0..n {{ let k = {rust_decoder(ty.key)}; "
                f"let x = {rust_decoder(ty.value)}; v.insert(k, x); }} v }}")
    if isinstance(ty, OptionType):
        return f"(if r.boolean() {{ Some({rust_decoder(ty.elem)}) }} else {{ None }})"
    if isinstance(ty, TupleType):
        return "(" + "".join(f"{rust_decoder(t)}, " for t in ty.elems) + ")"
    if isinstance(ty, StructType):
        return struct_decoder(f"Exec{ty.name}", ty.fields)
    raise RenderError(f"exec_spec cannot read values of type {ty}")


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


def spec_expr(value: Any, ty: Type) -> str:
    """A Verus spec-mode expression denoting ``value``.

    Strings become ``seq!['a', ..]`` (``SpecString`` is ``Seq<char>``), which needs no
    string-literal axioms; multisets are built by ``insert`` chains since vstd has no literal.
    """
    if isinstance(ty, IntType):
        v = int(value)
        if v >= 0:
            return f"{v}{ty.name}"
        # ``-128i8`` would negate an out-of-range literal; negate in ``int`` and cast instead.
        return f"(-{-v}int)" if ty.name == "int" else f"((-{-v}int) as {ty.name})"
    if isinstance(ty, BoolType):
        return "true" if value else "false"
    if isinstance(ty, CharType):
        return _rust_char(value)
    if isinstance(ty, StringType):
        if not value:
            return "Seq::<char>::empty()"
        return "seq![" + ", ".join(_rust_char(c) for c in value) + "]"
    if isinstance(ty, SeqType):
        from .skeleton import verus_type
        if not value:
            return f"Seq::<{verus_type(ty.elem)}>::empty()"
        return "seq![" + ", ".join(spec_expr(e, ty.elem) for e in value) + "]"
    if isinstance(ty, SetType):
        from .skeleton import verus_type
        if not value:
            return f"Set::<{verus_type(ty.elem)}>::empty()"
        return "set![" + ", ".join(spec_expr(e, ty.elem) for e in value) + "]"
    if isinstance(ty, MultisetType):
        from .skeleton import verus_type
        acc = f"Multiset::<{verus_type(ty.elem)}>::empty()"
        for e in value:
            acc += f".insert({spec_expr(e, ty.elem)})"
        return acc
    if isinstance(ty, MapType):
        from .skeleton import verus_type
        if not value:
            return f"Map::<{verus_type(ty.key)}, {verus_type(ty.value)}>::empty()"
        return "map![" + ", ".join(f"{spec_expr(k, ty.key)} => {spec_expr(v, ty.value)}"
                                   for k, v in value) + "]"
    if isinstance(ty, OptionType):
        return "Option::None" if value is None else f"Option::Some({spec_expr(value['some'], ty.elem)})"
    if isinstance(ty, TupleType):
        parts = [spec_expr(e, t) for e, t in zip(value, ty.elems, strict=True)]
        return "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"
    if isinstance(ty, StructType):
        return struct_expr(ty.name, [(n, value[n], t) for n, t in ty.fields])
    raise RenderError(f"Verus has no spec value of type {ty}")


def struct_expr(name: str, fields: list[tuple[str, Any, Type]]) -> str:
    return f"{name} {{ " + ", ".join(f"{n}: {spec_expr(v, t)}" for n, v, t in fields) + " }"
