"""When two values count as the same, and when a made value is fit to be written.

``adequacy.model.values.encode`` already sorts sets and maps and spells NaN and the infinities; a
mutant must also not differ from its original only by things a spec cannot observe: ``-0.0``
equals ``0.0`` under IEEE ``==`` (Java, Rust), and an ``f32`` is compared after rounding to
single precision. Set elements and map keys are checked for distinctness under the same key.
"""

from __future__ import annotations

import functools
import math
import struct
from collections.abc import Sequence
from typing import Any

from adequacy.errors import ValueTypeError
from adequacy.model.types import (
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
    visit,
)
from adequacy.model.values import as_float, each_present, encode, validate

__all__ = ["float_value", "params_key", "strictly_valid", "to_f32", "value_key"]


def to_f32(f: float) -> float:
    """Round to single precision (overflow gives an infinity, as a Java cast does)."""
    if not math.isfinite(f):
        return f
    try:
        return float(struct.unpack("f", struct.pack("f", f))[0])
    except OverflowError:
        return math.copysign(math.inf, f)


def float_value(f: float, ty: FloatType) -> float | str:
    """A float as JSON data: NaN and infinities as strings (JSON cannot spell them)."""
    if ty.name == "f32":
        f = to_f32(f)
    if math.isnan(f):
        return "NaN"
    if math.isinf(f):
        return "Infinity" if f > 0 else "-Infinity"
    return f


class _Norm(TypeVisitor[[Any], Any]):
    """A non-null value with what no spec observes made equal (``-0.0``, f32 rounding)."""

    def _same(self, t: Type, v: Any) -> Any:
        return v

    visit_bool = visit_char = visit_string = visit_int = _same

    def visit_nullable(self, t: NullableType, v: Any) -> Any:
        return _norm(v, t.elem)

    def visit_float(self, t: FloatType, v: Any) -> Any:
        f = as_float(v)
        if t.name == "f32":
            f = to_f32(f)
        if f == 0.0:
            f = 0.0  # -0.0 == 0.0 for every spec language we score
        return float_value(f, t)

    def _elements(self, t: SeqType | SetType | MultisetType, v: Any) -> Any:
        return each_present(self, t.elem, v)

    visit_seq = visit_set = visit_multiset = _elements

    def visit_map(self, t: MapType, v: Any) -> Any:
        return [[_norm(k, t.key), _norm(x, t.value)] for k, x in v]

    def visit_option(self, t: OptionType, v: Any) -> Any:
        return {"some": _norm(v["some"], t.elem)}

    def visit_tuple(self, t: TupleType, v: Any) -> Any:
        return [_norm(e, et) for e, et in zip(v, t.elems, strict=True)]

    def visit_struct(self, t: StructType, v: Any) -> Any:
        return {n: _norm(v[n], ft) for n, ft in t.fields}


_NORM = _Norm()


def _norm(v: Any, t: Type) -> Any:
    return None if v is None else visit(t, _NORM, v)


@functools.cache
def _as_is(t: Type) -> bool:
    """Whether a value of ``t`` is its own canonical form (booleans, integers, chars and
    strings, sequences of them, nullable or not): nothing to normalise or sort, so its key
    is its JSON text (``value_key``'s shortcut, the same text)."""
    if isinstance(t, NullableType):
        return _as_is(t.elem)
    if isinstance(t, SeqType):
        return _as_is(t.elem)
    return isinstance(t, (BoolType, IntType, CharType, StringType))


def value_key(value: Any, ty: Type) -> str:
    """Canonical text of a value; two values with the same key are indistinguishable to a spec."""
    if _as_is(ty):
        return encode(value)
    return encode(_norm(value, ty), ty)


def params_key(values: dict[str, Any], params: Sequence[Any]) -> str:
    """Key of an input or output dict (``params`` are ``adequacy.model.task.Param``)."""
    parts = [f"{p.name}={value_key(values[p.name], p.type)}" for p in params if p.name in values]
    return "\x1f".join(parts)


class _WellFormed(TypeVisitor[[Any], bool]):
    """What ``validate`` leaves out of a non-null value and a backend needs (see
    ``strictly_valid``)."""

    def _yes(self, t: Type, v: Any) -> bool:
        return True

    visit_bool = visit_int = _yes

    def visit_nullable(self, t: NullableType, v: Any) -> bool:
        return _well_formed(v, t.elem)

    def visit_float(self, t: FloatType, v: Any) -> bool:
        return not (isinstance(v, float) and not math.isfinite(v))

    def visit_char(self, t: CharType, v: Any) -> bool:
        return not 0xD800 <= ord(v) <= 0xDFFF and ord(v) <= 0xFFFF

    def visit_string(self, t: StringType, v: Any) -> bool:
        return not any(0xD800 <= ord(c) <= 0xDFFF for c in v)

    def visit_seq(self, t: SeqType, v: Any) -> bool:
        return all(_well_formed(e, t.elem) for e in v)

    def visit_set(self, t: SetType, v: Any) -> bool:
        if not all(_well_formed(e, t.elem) for e in v):
            return False
        keys = [value_key(e, t.elem) for e in v]
        return len(set(keys)) == len(keys)

    def visit_multiset(self, t: MultisetType, v: Any) -> bool:
        return all(_well_formed(e, t.elem) for e in v)

    def visit_map(self, t: MapType, v: Any) -> bool:
        if not all(_well_formed(k, t.key) and _well_formed(x, t.value) for k, x in v):
            return False
        keys = [value_key(k, t.key) for k, _ in v]
        return len(set(keys)) == len(keys)

    def visit_option(self, t: OptionType, v: Any) -> bool:
        return _well_formed(v["some"], t.elem)

    def visit_tuple(self, t: TupleType, v: Any) -> bool:
        return all(_well_formed(e, et) for e, et in zip(v, t.elems, strict=True))

    def visit_struct(self, t: StructType, v: Any) -> bool:
        return all(_well_formed(v[n], ft) for n, ft in t.fields)


_WELL_FORMED = _WellFormed()


def _well_formed(v: Any, t: Type) -> bool:
    return True if v is None else visit(t, _WELL_FORMED, v)


def strictly_valid(value: Any, ty: Type) -> bool:
    """``validate`` plus what a backend needs to render the value faithfully.

    Chars are single UTF-16 units that are not surrogates (a Java ``char`` and a Rust ``char``
    alike), floats are JSON-writable, and set elements / map keys stay distinct even under the
    ``-0.0 == 0.0`` identity.
    """
    try:
        validate(value, ty)
    except ValueTypeError:
        return False
    return _well_formed(value, ty)
