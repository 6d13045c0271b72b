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
)
from adequacy.model.values import as_float, encode, validate

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


def _norm(v: Any, t: Type) -> Any:
    if v is None:
        return None
    if isinstance(t, NullableType):
        return _norm(v, t.elem)
    if isinstance(t, FloatType):
        f = as_float(v)
        if t.name == "f32":
            f = to_f32(f)
        if f == 0.0:
            f = 0.0  # -0.0 == 0.0 for every spec language we score
        return float_value(f, t)
    if isinstance(t, (SeqType, SetType, MultisetType)):
        return [_norm(e, t.elem) for e in v]
    if isinstance(t, MapType):
        return [[_norm(k, t.key), _norm(x, t.value)] for k, x in v]
    if isinstance(t, OptionType):
        return {"some": _norm(v["some"], t.elem)}
    if isinstance(t, TupleType):
        return [_norm(e, et) for e, et in zip(v, t.elems, strict=True)]
    if isinstance(t, StructType):
        return {n: _norm(v[n], ft) for n, ft in t.fields}
    return v


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


def _well_formed(v: Any, t: Type) -> bool:
    if v is None:
        return True
    if isinstance(t, NullableType):
        return _well_formed(v, t.elem)
    if isinstance(t, FloatType):
        return not (isinstance(v, float) and not math.isfinite(v))
    if isinstance(t, CharType):
        return not 0xD800 <= ord(v) <= 0xDFFF and ord(v) <= 0xFFFF
    if isinstance(t, StringType):
        return not any(0xD800 <= ord(c) <= 0xDFFF for c in v)
    if isinstance(t, SeqType):
        return all(_well_formed(e, t.elem) for e in v)
    if isinstance(t, (SetType, MultisetType)):
        if not all(_well_formed(e, t.elem) for e in v):
            return False
        if isinstance(t, SetType):
            keys = [value_key(e, t.elem) for e in v]
            return len(set(keys)) == len(keys)
        return True
    if isinstance(t, MapType):
        if not all(_well_formed(k, t.key) and _well_formed(x, t.value) for k, x in v):
            return False
        keys = [value_key(k, t.key) for k, _ in v]
        return len(set(keys)) == len(keys)
    if isinstance(t, OptionType):
        return _well_formed(v["some"], t.elem)
    if isinstance(t, TupleType):
        return all(_well_formed(e, et) for e, et in zip(v, t.elems, strict=True))
    if isinstance(t, StructType):
        return all(_well_formed(v[n], ft) for n, ft in t.fields)
    return True


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
