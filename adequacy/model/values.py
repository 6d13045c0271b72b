"""JSON values of typed cases: validation, canonical encoding, content hashes.

Values stay plain JSON data (``int``, ``float``, ``str``, ``bool``, ``None``, ``list``,
``dict``) everywhere in the core; each backend renders them into its own language from the type.
Conventions (docs/tasks.md, "Values"): ``char`` is a one-character string, sets and multisets are arrays,
maps are arrays of ``[key, value]`` pairs, ``option`` is ``null`` or ``{"some": v}``, tuples are
arrays, structs are objects, Java ``null`` is ``null``; floats may also be the strings ``"NaN"``,
``"Infinity"`` and ``"-Infinity"``, which JSON cannot spell.
"""

from __future__ import annotations

import hashlib
import json
import math
import sys
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

F32_MAX = 3.4028234663852886e38
#: Integers of any size are values (docs/tasks.md), up to this many decimal digits. Python refuses
#: decimal conversions beyond 4,300 digits by default (they are quadratic); 10,000 digits take
#: about 25 ms to print, so the process-wide limit is raised to this cap (never lowered).
MAX_INT_DIGITS = 10_000
if 0 < sys.get_int_max_str_digits() < MAX_INT_DIGITS:
    sys.set_int_max_str_digits(MAX_INT_DIGITS)
_SPECIAL_FLOATS = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}


def _describe(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    text = json.dumps(v, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."


def validate(value: Any, ty: Type, path: str = "value") -> None:
    """Raise ``ValueTypeError`` (field = the path to the bad part) unless ``value`` fits ``ty``."""

    def fail(msg: str, where: str) -> None:
        raise ValueTypeError(msg, field=where)

    def go(v: Any, t: Type, where: str) -> None:
        if isinstance(t, NullableType):
            if v is not None:
                go(v, t.elem, where)
            return
        if isinstance(t, BoolType):
            if not isinstance(v, bool):
                fail(f"expected bool, got {_describe(v)}", where)
        elif isinstance(t, IntType):
            if isinstance(v, bool) or not isinstance(v, int):
                fail(f"expected {t}, got {_describe(v)}", where)
            lo, hi = t.bounds
            if (lo is not None and v < lo) or (hi is not None and v > hi):
                rng = f"[{lo}, {hi}]" if hi is not None else f">= {lo}"
                fail(f"{t} value {v} out of range {rng}", where)
        elif isinstance(t, FloatType):
            if isinstance(v, str) and v in _SPECIAL_FLOATS:
                return
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                fail(f"expected {t}, got {_describe(v)}", where)
            if t.name == "f32" and math.isfinite(v) and abs(v) > F32_MAX:
                fail(f"f32 value {v} out of range", where)
        elif isinstance(t, CharType):
            if not isinstance(v, str) or len(v) != 1:
                fail(f"expected char (a one-character string), got {_describe(v)}", where)
        elif isinstance(t, StringType):
            if not isinstance(v, str):
                fail(f"expected string, got {_describe(v)}", where)
        elif isinstance(t, SeqType):
            if v is None and t.kind == "array":
                return
            if not isinstance(v, list):
                fail(f"expected {t} (a JSON array), got {_describe(v)}", where)
            for i, e in enumerate(v):
                go(e, t.elem, f"{where}[{i}]")
        elif isinstance(t, (SetType, MultisetType)):
            if not isinstance(v, list):
                fail(f"expected {t} (a JSON array), got {_describe(v)}", where)
            seen: set[str] = set()
            for i, e in enumerate(v):
                go(e, t.elem, f"{where}[{i}]")
                if isinstance(t, SetType):
                    key = encode(e, t.elem)
                    if key in seen:
                        fail(f"set element {_describe(e)} appears twice", f"{where}[{i}]")
                    seen.add(key)
        elif isinstance(t, MapType):
            if not isinstance(v, list):
                fail(f"expected {t} (an array of [key, value] pairs), got {_describe(v)}", where)
            keys: set[str] = set()
            for i, pair in enumerate(v):
                if not isinstance(pair, list) or len(pair) != 2:
                    fail(f"expected a [key, value] pair, got {_describe(pair)}", f"{where}[{i}]")
                go(pair[0], t.key, f"{where}[{i}][0]")
                go(pair[1], t.value, f"{where}[{i}][1]")
                key = encode(pair[0], t.key)
                if key in keys:
                    fail(f"map key {_describe(pair[0])} appears twice", f"{where}[{i}][0]")
                keys.add(key)
        elif isinstance(t, OptionType):
            if v is None:
                return
            if not isinstance(v, dict) or set(v) != {"some"}:
                fail(f"expected {t} (null or {{\"some\": value}}), got {_describe(v)}", where)
            go(v["some"], t.elem, f"{where}.some")
        elif isinstance(t, TupleType):
            if not isinstance(v, list) or len(v) != len(t.elems):
                fail(f"expected {t} (an array of {len(t.elems)}), got {_describe(v)}", where)
            for i, (e, et) in enumerate(zip(v, t.elems, strict=True)):
                go(e, et, f"{where}[{i}]")
        elif isinstance(t, StructType):
            if not isinstance(v, dict):
                fail(f"expected struct {t.name} (a JSON object), got {_describe(v)}", where)
            names = [n for n, _ in t.fields]
            extra = [k for k in v if k not in names]
            if extra:
                fail(f"struct {t.name} has no field {extra[0]!r}", where)
            for n, ft in t.fields:
                if n not in v:
                    fail(f"struct {t.name} is missing field {n!r}", where)
                go(v[n], ft, f"{where}.{n}")
        else:  # pragma: no cover - every Type subclass is handled above
            fail(f"unsupported type {t}", where)

    go(value, ty, path)


def canonical(value: Any, ty: Type) -> Any:
    """The canonical JSON form: sets, multisets and maps sorted, floats normalised.

    Two values that mean the same (``{1, 2}`` vs ``{2, 1}``) get the same canonical form, which is
    what the verdict cache and duplicate detection key on. Assumes ``validate`` passed.
    """
    if value is None:
        return None
    if isinstance(ty, NullableType):
        return canonical(value, ty.elem)
    if isinstance(ty, FloatType):
        if isinstance(value, str):
            return value
        f = float(value)
        if math.isnan(f):
            return "NaN"
        if math.isinf(f):
            return "Infinity" if f > 0 else "-Infinity"
        return f
    if isinstance(ty, SeqType):
        return [canonical(e, ty.elem) for e in value]
    if isinstance(ty, (SetType, MultisetType)):
        items = [canonical(e, ty.elem) for e in value]
        return sorted(items, key=_sort_key)
    if isinstance(ty, MapType):
        pairs = [[canonical(k, ty.key), canonical(v, ty.value)] for k, v in value]
        return sorted(pairs, key=lambda p: _sort_key(p[0]))
    if isinstance(ty, OptionType):
        return {"some": canonical(value["some"], ty.elem)}
    if isinstance(ty, TupleType):
        return [canonical(e, t) for e, t in zip(value, ty.elems, strict=True)]
    if isinstance(ty, StructType):
        return {n: canonical(value[n], t) for n, t in ty.fields}
    return value


_SORT_KEY = json.JSONEncoder(sort_keys=True, ensure_ascii=False, separators=(",", ":"))
_ENCODER = json.JSONEncoder(sort_keys=True, ensure_ascii=False, separators=(",", ":"),
                            allow_nan=False)
"""``json.dumps`` with these options builds an encoder per call (only the default options
share one); case identities are computed hundreds of thousands of times per import."""


def _sort_key(v: Any) -> str:
    return _SORT_KEY.encode(v)


def encode(value: Any, ty: Type | None = None) -> str:
    """Compact canonical JSON text (sorted object keys); with ``ty``, canonicalised first."""
    if ty is not None:
        value = canonical(value, ty)
    return _ENCODER.encode(value)


def content_hash(*parts: str) -> str:
    """A stable SHA-256 over text parts, separated so that ("ab","c") != ("a","bc")."""
    h = hashlib.sha256()
    for p in parts:
        data = p.encode("utf-8")
        h.update(len(data).to_bytes(8, "big"))
        h.update(data)
    return h.hexdigest()


def value_hash(value: Any, ty: Type) -> str:
    return content_hash(str(ty), encode(value, ty))


def as_float(value: Any) -> float:
    """A float value as Python float (``"NaN"`` and the infinities included)."""
    if isinstance(value, str):
        return _SPECIAL_FLOATS[value]
    return float(value)
