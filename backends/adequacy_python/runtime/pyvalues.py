"""Task values as Python values and back, by a type tree (standard library only).

This module runs inside the sandboxed worker, where nothing but the standard library exists, so
types arrive as plain JSON trees (``adequacy_python.types.type_tree`` builds them from the task's
types): ``"int"``, ``["int", lo, hi]`` (a bounded integer), ``"bool"``, ``"char"``, ``"str"``,
``"float"``, ``["float32"]``, ``["list", T]``, ``["array", T]`` (may be null), ``["set", T]``,
``["multiset", T]``, ``["map", K, V]``, ``["option", T]``, ``["nullable", T]``,
``["tuple", [T, ...]]``.

Why both directions live here: the worker decodes a case's JSON into the values a spec sees and
encodes what a reference function returned into a case's JSON, and both must agree on one
reading of every type (a ``set<string>`` is a Python ``set`` of ``str``, an ``option<T>`` is
``None`` or the value, a ``multiset`` is a ``collections.Counter``).
"""

from __future__ import annotations

import collections
import json
import math
from typing import Any

SPECIAL_FLOATS = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}
F32_MAX = 3.4028234663852886e38


class ValueMismatch(Exception):
    """A Python value that is not of the declared type (a reference returned something else)."""


def _head(t: Any) -> str:
    return t if isinstance(t, str) else t[0]


def decode(v: Any, t: Any) -> Any:
    """The Python value of JSON ``v`` of type tree ``t`` (validated by the caller)."""
    h = _head(t)
    if h in ("int", "bool", "str", "char"):
        return v
    if h in ("float", "float32"):
        if isinstance(v, str):
            return SPECIAL_FLOATS[v]
        return float(v)
    if h in ("list", "array"):
        if v is None:
            return None
        return [decode(e, t[1]) for e in v]
    if h == "set":
        return {decode(e, t[1]) for e in v}
    if h == "multiset":
        return collections.Counter(decode(e, t[1]) for e in v)
    if h == "map":
        return {decode(k, t[1]): decode(x, t[2]) for k, x in v}
    if h == "option":
        return None if v is None else decode(v["some"], t[1])
    if h == "nullable":
        return None if v is None else decode(v, t[1])
    if h == "tuple":
        return tuple(decode(e, et) for e, et in zip(v, t[1], strict=True))
    raise ValueMismatch(f"no Python reading of type {t!r}")


def _name(t: Any) -> str:
    h = _head(t)
    if h in ("int", "bool", "str", "char", "float", "float32"):
        return {"str": "str", "float32": "float"}.get(h, h)
    if h in ("list", "array", "set", "multiset", "option", "nullable"):
        return f"{h}[{_name(t[1])}]"
    if h == "map":
        return f"dict[{_name(t[1])}, {_name(t[2])}]"
    if h == "tuple":
        return "tuple[" + ", ".join(_name(e) for e in t[1]) + "]"
    return str(t)


def _float_json(f: float) -> Any:
    if math.isnan(f):
        return "NaN"
    if math.isinf(f):
        return "Infinity" if f > 0 else "-Infinity"
    return f


def _key(v: Any) -> str:
    return json.dumps(v, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def _sorted(items: list[Any]) -> list[Any]:
    """Set and multiset elements in one order (the task format's canonical one), so that the
    same set encodes the same whatever the interpreter's hash seed."""
    return sorted(items, key=_key)


def encode(v: Any, t: Any, where: str = "result") -> Any:
    """The JSON form of Python value ``v`` of type tree ``t``; ``ValueMismatch`` naming the
    place when ``v`` is not of that type (a ``bool`` is not an ``int``; an ``int`` is read as a
    ``float`` where the type says float, as Python's numeric tower allows)."""
    h = _head(t)

    def bad() -> ValueMismatch:
        shown = repr(v)
        if len(shown) > 60:
            shown = shown[:57] + "..."
        return ValueMismatch(f"{where}: expected {_name(t)}, got {type(v).__name__} {shown}")

    if h == "int":
        if isinstance(v, bool) or not isinstance(v, int):
            raise bad()
        if not isinstance(t, str):
            lo, hi = t[1], t[2]
            if (lo is not None and v < lo) or (hi is not None and v > hi):
                raise ValueMismatch(f"{where}: {v} is outside the declared range "
                                    f"[{lo}, {hi}]")
        return v
    if h == "bool":
        if not isinstance(v, bool):
            raise bad()
        return v
    if h == "str":
        if not isinstance(v, str):
            raise bad()
        return v
    if h == "char":
        if not isinstance(v, str) or len(v) != 1:
            raise bad()
        return v
    if h in ("float", "float32"):
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise bad()
        try:
            f = float(v)
        except OverflowError:
            raise ValueMismatch(f"{where}: {type(v).__name__} too large for a float") from None
        if h == "float32" and math.isfinite(f) and abs(f) > F32_MAX:
            raise ValueMismatch(f"{where}: {f} is outside f32's range")
        return _float_json(f)
    if h in ("list", "array"):
        if v is None and h == "array":
            return None
        if not isinstance(v, list):
            raise bad()
        return [encode(e, t[1], f"{where}[{i}]") for i, e in enumerate(v)]
    if h == "set":
        if not isinstance(v, (set, frozenset)):
            raise bad()
        return _sorted([encode(e, t[1], f"{where} element") for e in v])
    if h == "multiset":
        if not isinstance(v, collections.Counter):
            raise bad()
        out = []
        for e, n in v.items():
            if not isinstance(n, int) or n < 0:
                raise ValueMismatch(f"{where}: count {n!r} of a multiset element")
            out += [encode(e, t[1], f"{where} element")] * n
        return _sorted(out)
    if h == "map":
        if not isinstance(v, dict):
            raise bad()
        pairs = [[encode(k, t[1], f"{where} key"), encode(x, t[2], f"{where}[{k!r}]")]
                 for k, x in v.items()]
        return sorted(pairs, key=lambda p: _key(p[0]))
    if h == "option":
        if v is None:
            return None
        return {"some": encode(v, t[1], where)}
    if h == "nullable":
        return None if v is None else encode(v, t[1], where)
    if h == "tuple":
        if not isinstance(v, tuple) or len(v) != len(t[1]):
            raise bad()
        return [encode(e, et, f"{where}[{i}]") for i, (e, et) in enumerate(zip(v, t[1], strict=True))]
    raise ValueMismatch(f"{where}: no Python reading of type {t!r}")


def plain(v: Any, depth: int = 0) -> Any:
    """Any Python value as JSON that keeps its kind (tuples, sets and dicts tagged), for
    learning the type of a function's results from the values it returns."""
    if depth > 50:
        return {"other": "nested too deeply"}
    if v is None or isinstance(v, (bool, int, str)):
        return v
    if isinstance(v, float):
        return v if math.isfinite(v) else {"float": _float_json(v)}
    if isinstance(v, list):
        return [plain(e, depth + 1) for e in v]
    if isinstance(v, tuple):
        return {"tuple": [plain(e, depth + 1) for e in v]}
    if isinstance(v, (set, frozenset)):
        return {"set": [plain(e, depth + 1) for e in v]}
    if isinstance(v, dict):
        return {"dict": [[plain(k, depth + 1), plain(x, depth + 1)] for k, x in v.items()]}
    return {"other": type(v).__name__}
