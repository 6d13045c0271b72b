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
from typing import Any, NoReturn

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
    method_for,
    visit,
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


def _fail(msg: str, where: str) -> NoReturn:
    raise ValueTypeError(msg, field=where)


class _Validate(TypeVisitor[[Any, str], None]):
    """Raise ``ValueTypeError`` at the first part of the value (``where``) that does not fit."""

    def visit_nullable(self, t: NullableType, v: Any, where: str) -> None:
        if v is not None:
            visit(t.elem, self, v, where)

    def visit_bool(self, t: BoolType, v: Any, where: str) -> None:
        if not isinstance(v, bool):
            _fail(f"expected bool, got {_describe(v)}", where)

    def visit_int(self, t: IntType, v: Any, where: str) -> None:
        if isinstance(v, bool) or not isinstance(v, int):
            _fail(f"expected {t}, got {_describe(v)}", where)
        lo, hi = t.bounds
        if (lo is not None and v < lo) or (hi is not None and v > hi):
            rng = f"[{lo}, {hi}]" if hi is not None else f">= {lo}"
            _fail(f"{t} value {v} out of range {rng}", where)

    def visit_float(self, t: FloatType, v: Any, where: str) -> None:
        if isinstance(v, str) and v in _SPECIAL_FLOATS:
            return
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            _fail(f"expected {t}, got {_describe(v)}", where)
        if t.name == "f32" and math.isfinite(v) and abs(v) > F32_MAX:
            _fail(f"f32 value {v} out of range", where)

    def visit_char(self, t: CharType, v: Any, where: str) -> None:
        if not isinstance(v, str) or len(v) != 1:
            _fail(f"expected char (a one-character string), got {_describe(v)}", where)

    def visit_string(self, t: StringType, v: Any, where: str) -> None:
        if not isinstance(v, str):
            _fail(f"expected string, got {_describe(v)}", where)

    def visit_seq(self, t: SeqType, v: Any, where: str) -> None:
        if v is None and t.kind == "array":
            return
        if not isinstance(v, list):
            _fail(f"expected {t} (a JSON array), got {_describe(v)}", where)
        check, et = method_for(t.elem, self), t.elem
        for i, e in enumerate(v):
            check(et, e, f"{where}[{i}]")

    def visit_set(self, t: SetType, v: Any, where: str) -> None:
        self._elements(t, v, where, distinct=True)

    def visit_multiset(self, t: MultisetType, v: Any, where: str) -> None:
        self._elements(t, v, where, distinct=False)

    def _elements(self, t: SetType | MultisetType, v: Any, where: str, distinct: bool) -> None:
        if not isinstance(v, list):
            _fail(f"expected {t} (a JSON array), got {_describe(v)}", where)
        seen: set[str] = set()
        check, et = method_for(t.elem, self), t.elem
        for i, e in enumerate(v):
            check(et, e, f"{where}[{i}]")
            if distinct:
                key = encode(e, t.elem)
                if key in seen:
                    _fail(f"set element {_describe(e)} appears twice", f"{where}[{i}]")
                seen.add(key)

    def visit_map(self, t: MapType, v: Any, where: str) -> None:
        if not isinstance(v, list):
            _fail(f"expected {t} (an array of [key, value] pairs), got {_describe(v)}", where)
        keys: set[str] = set()
        check_key, check_value = method_for(t.key, self), method_for(t.value, self)
        for i, pair in enumerate(v):
            if not isinstance(pair, list) or len(pair) != 2:
                _fail(f"expected a [key, value] pair, got {_describe(pair)}", f"{where}[{i}]")
            check_key(t.key, pair[0], f"{where}[{i}][0]")
            check_value(t.value, pair[1], f"{where}[{i}][1]")
            key = encode(pair[0], t.key)
            if key in keys:
                _fail(f"map key {_describe(pair[0])} appears twice", f"{where}[{i}][0]")
            keys.add(key)

    def visit_option(self, t: OptionType, v: Any, where: str) -> None:
        if v is None:
            return
        if not isinstance(v, dict) or set(v) != {"some"}:
            _fail(f"expected {t} (null or {{\"some\": value}}), got {_describe(v)}", where)
        visit(t.elem, self, v["some"], f"{where}.some")

    def visit_tuple(self, t: TupleType, v: Any, where: str) -> None:
        if not isinstance(v, list) or len(v) != len(t.elems):
            _fail(f"expected {t} (an array of {len(t.elems)}), got {_describe(v)}", where)
        for i, (e, et) in enumerate(zip(v, t.elems, strict=True)):
            visit(et, self, e, f"{where}[{i}]")

    def visit_struct(self, t: StructType, v: Any, where: str) -> None:
        if not isinstance(v, dict):
            _fail(f"expected struct {t.name} (a JSON object), got {_describe(v)}", where)
        names = [n for n, _ in t.fields]
        extra = [k for k in v if k not in names]
        if extra:
            _fail(f"struct {t.name} has no field {extra[0]!r}", where)
        for n, ft in t.fields:
            if n not in v:
                _fail(f"struct {t.name} is missing field {n!r}", where)
            visit(ft, self, v[n], f"{where}.{n}")


_VALIDATE = _Validate()


def validate(value: Any, ty: Type, path: str = "value") -> None:
    """Raise ``ValueTypeError`` (field = the path to the bad part) unless ``value`` fits ``ty``."""
    visit(ty, _VALIDATE, value, path)


class _Canonical(TypeVisitor[[Any], Any]):
    """The canonical form of a non-null value (``canonical`` answers null itself)."""

    def _same(self, ty: Type, value: Any) -> Any:
        return value

    visit_bool = visit_char = visit_string = visit_int = _same

    def visit_nullable(self, ty: NullableType, value: Any) -> Any:
        return canonical(value, ty.elem)

    def visit_float(self, ty: FloatType, value: Any) -> Any:
        if isinstance(value, str):
            return value
        f = float(value)
        if math.isnan(f):
            return "NaN"
        if math.isinf(f):
            return "Infinity" if f > 0 else "-Infinity"
        return f

    def visit_seq(self, ty: SeqType, value: Any) -> Any:
        return each_present(self, ty.elem, value)

    def _bag(self, ty: SetType | MultisetType, value: Any) -> Any:
        return sorted(each_present(self, ty.elem, value), key=_sort_key)

    visit_set = visit_multiset = _bag

    def visit_map(self, ty: MapType, value: Any) -> Any:
        ck, cv = method_for(ty.key, self), method_for(ty.value, self)
        pairs = [[None if k is None else ck(ty.key, k), None if v is None else cv(ty.value, v)]
                 for k, v in value]
        return sorted(pairs, key=lambda p: _sort_key(p[0]))

    def visit_option(self, ty: OptionType, value: Any) -> Any:
        return {"some": canonical(value["some"], ty.elem)}

    def visit_tuple(self, ty: TupleType, value: Any) -> Any:
        return [canonical(e, t) for e, t in zip(value, ty.elems, strict=True)]

    def visit_struct(self, ty: StructType, value: Any) -> Any:
        return {n: canonical(value[n], t) for n, t in ty.fields}


_CANONICAL = _Canonical()


def each_present(visitor: TypeVisitor[[Any], Any], ty: Type, items: list[Any]) -> list[Any]:
    """The visitor's result for each non-null item of type ``ty`` (None stays None), the
    method looked up once for the lot."""
    m = method_for(ty, visitor)
    return [None if e is None else m(ty, e) for e in items]


def canonical(value: Any, ty: Type) -> Any:
    """The canonical JSON form: sets, multisets and maps sorted, floats normalised.

    Two values that mean the same (``{1, 2}`` vs ``{2, 1}``) get the same canonical form, which is
    what the verdict cache and duplicate detection key on. Assumes ``validate`` passed.
    """
    if value is None:
        return None
    return visit(ty, _CANONICAL, value)


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
