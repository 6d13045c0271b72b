"""The ``[constraints]`` table of task.toml: a small vocabulary of stated input restrictions.

```toml
[constraints]
unique_output = true          # default; false: several outputs may be right, only a checker labels
k = [0, 100]                  # range of a number (inclusive); same as k.range = [0, 100]
nums.len = [1, 1000]          # length of a string, sequence, set, multiset or map
nums.elem.range = [-1000, 1000]   # every element's range ("nums.elem = [..]" also works)
nums.sorted = true            # true | "strict" | "desc" | "strict_desc"
nums.distinct = true          # no two equal elements (characters, for a string)
s.nonnull = true              # not null (Java references, nullable arrays)
i.range = [0, "nums.len - 1"] # a bound may name another argument or its .len, plus/minus an int
```
A key is an argument name, then path segments (``elem`` for sequence/set/multiset elements and
string characters, ``key`` / ``value`` for maps, ``some`` for options, a field name for structs,
an index for tuples), then a property (``range`` when omitted). Any property but ``nonnull`` also
requires the value to be non-null: a null array has no length. The constraints are what a stated
precondition says, so an input that breaks one is invalid; they may be incomplete, so an input
that keeps all of them is not thereby valid (only a validator says that).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

from adequacy.errors import TaskError
from adequacy.model.identity import value_key
from adequacy.model.types import (
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
from adequacy.model.values import as_float

__all__ = ["Constraint", "Constraints", "Location", "locations", "parse_constraints"]

PROPS = ("range", "len", "sorted", "distinct", "nonnull")
SORTED_MODES = {True: "asc", "strict": "strict", "desc": "desc", "strict_desc": "strict_desc",
                "asc": "asc"}
GLOBAL_KEYS = ("unique_output",)
_BOUND = re.compile(r"^\s*([A-Za-z_]\w*)(\.len)?\s*(?:([+-])\s*(\d+))?\s*$")

#: a place inside one argument's JSON value: list indices, object keys ("some", field names)
Location = tuple[int | str, ...]


@dataclass(frozen=True)
class Constraint:
    key: str
    """The key as written (``nums.elem.range``), used in reports and drop reasons."""
    param: str
    path: tuple[str, ...]
    prop: str
    value: Any


def _base(t: Type) -> Type:
    return t.elem if isinstance(t, NullableType) else t


class _Step(TypeVisitor[[str], "Type | None"]):
    """The type one path segment names inside a type (None: it names nothing there)."""

    def _nothing(self, t: Type, seg: str) -> Type | None:
        return None

    visit_bool = visit_char = visit_int = visit_float = visit_nullable = _nothing

    def _elements(self, t: SeqType | SetType | MultisetType, seg: str) -> Type | None:
        return t.elem if seg == "elem" else None

    visit_seq = visit_set = visit_multiset = _elements

    def visit_string(self, t: StringType, seg: str) -> Type | None:
        return CharType() if seg == "elem" else None

    def visit_map(self, t: MapType, seg: str) -> Type | None:
        return {"key": t.key, "value": t.value}.get(seg)

    def visit_option(self, t: OptionType, seg: str) -> Type | None:
        return t.elem if seg == "some" else None

    def visit_struct(self, t: StructType, seg: str) -> Type | None:
        return dict(t.fields).get(seg)

    def visit_tuple(self, t: TupleType, seg: str) -> Type | None:
        return t.elems[int(seg)] if seg.isdigit() and int(seg) < len(t.elems) else None


_STEP = _Step()


def _step_type(t: Type, seg: str) -> Type | None:
    """The type ``seg`` names inside ``t`` (a nullable's element: a null ends a path)."""
    return visit(_base(t), _STEP, seg)


def locations(value: Any, ty: Type, path: tuple[str, ...]) -> list[tuple[Location, Any, Type]]:
    """Every (location, value, type) the path reaches inside ``value`` (nulls end a path)."""
    found: list[tuple[Location, Any, Type]] = [((), value, ty)]
    for seg in path:
        nxt: list[tuple[Location, Any, Type]] = []
        for loc, v, t in found:
            st = _step_type(t, seg)
            if v is None or st is None:
                continue
            b = _base(t)
            if seg == "elem" and isinstance(b, StringType):
                nxt += [((*loc, i), c, st) for i, c in enumerate(v)]
            elif seg == "elem":
                nxt += [((*loc, i), e, st) for i, e in enumerate(v)]
            elif seg in ("key", "value") and isinstance(b, MapType):
                j = 0 if seg == "key" else 1
                nxt += [((*loc, i, j), p[j], st) for i, p in enumerate(v)]
            elif seg == "some":
                nxt.append(((*loc, "some"), v["some"], st))
            elif isinstance(b, TupleType):
                nxt.append(((*loc, int(seg)), v[int(seg)], st))
            else:
                nxt.append(((*loc, seg), v[seg], st))
        found = nxt
    return found


def _bad(key: str, msg: str) -> TaskError:
    return TaskError(f"{msg} (see docs/mutators.md for the [constraints] vocabulary)",
                     file="task.toml", field=f"constraints.{key}")


def _flatten(table: dict[str, Any], prefix: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...],
                                                                                Any]]:
    out: list[tuple[tuple[str, ...], Any]] = []
    for k, v in table.items():
        segs = (*prefix, *str(k).split("."))
        if isinstance(v, dict):
            out += _flatten(v, segs)
        else:
            out.append((segs, v))
    return out


class Constraints:
    """Parsed constraints of one task; ``violations(input)`` lists the keys an input breaks."""

    def __init__(self, items: list[Constraint], unique_output: bool, types: dict[str, Type]):
        self.items = items
        self.unique_output = unique_output
        self.types = types

    def __bool__(self) -> bool:
        return bool(self.items)

    def bound(self, b: Any, inp: dict[str, Any], ty: Type) -> Any:
        """A bound's value for this input (None: unbounded or not computable)."""
        if isinstance(b, bool):
            return None
        if isinstance(b, (int, float)):
            return b
        if isinstance(b, str):
            if isinstance(_base(ty), CharType) and len(b) == 1:
                return b
            if b.strip() in ("inf", "-inf"):
                return None
            m = _BOUND.match(b)
            if not m:
                return None
            v = inp.get(m.group(1))
            if v is None:
                return None
            if m.group(2):
                v = len(v)
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                return None
            d = int(m.group(4) or 0)
            return v + d if m.group(3) == "+" else v - d
        return None

    def broken(self, c: Constraint, inp: dict[str, Any]) -> bool:
        """Whether ``inp`` breaks ``c`` (a missing argument breaks nothing)."""
        if c.param not in inp or c.value is False:
            return False
        for _, v, t in locations(inp[c.param], self.types[c.param], c.path):
            if c.prop == "nonnull":
                if v is None:
                    return True
                continue
            if v is None:
                return True
            if c.prop == "range":
                lo, hi = (self.bound(b, inp, t) for b in c.value)
                if isinstance(v, str) and not isinstance(_base(t), CharType):
                    x: Any = as_float(v)
                elif isinstance(v, str):
                    x = v
                else:
                    x = v
                if isinstance(x, float) and math.isnan(x):
                    return True
                if (lo is not None and x < lo) or (hi is not None and x > hi):
                    return True
            elif c.prop == "len":
                lo, hi = (self.bound(b, inp, t) for b in c.value)
                if (lo is not None and len(v) < lo) or (hi is not None and len(v) > hi):
                    return True
            elif c.prop == "sorted":
                mode = SORTED_MODES[c.value] if c.value is not False else None
                if mode and not is_sorted(v, mode):
                    return True
            elif c.prop == "distinct" and c.value:
                et = _step_type(t, "elem")
                keys = list(v) if isinstance(_base(t), StringType) else [
                    value_key(e, et) for e in v] if et is not None else []
                if len(set(keys)) != len(keys):
                    return True
        return False

    def violations(self, inp: dict[str, Any]) -> list[str]:
        return [c.key for c in self.items if self.broken(c, inp)]


def is_sorted(v: list[Any] | str, mode: str) -> bool:
    vals: list[Any] = [as_float(x) if isinstance(x, str) and x in ("NaN", "Infinity",
                                                                     "-Infinity") else x
                       for x in v]
    pairs = list(zip(vals, vals[1:], strict=False))
    try:
        if mode == "asc":
            return all(a <= b for a, b in pairs)
        if mode == "strict":
            return all(a < b for a, b in pairs)
        if mode == "desc":
            return all(a >= b for a, b in pairs)
        return all(a > b for a, b in pairs)
    except TypeError:
        return False


def parse_constraints(table: dict[str, Any], inputs: list[Any]) -> Constraints:
    """Parse a task's ``[constraints]`` table against its inputs (``Param`` list).

    Raises ``TaskError`` naming the key for anything outside the vocabulary, so a typo never
    silently weakens what the generator and the oracle know.
    """
    types = {p.name: p.type for p in inputs}
    items: list[Constraint] = []
    unique = True
    for segs, v in _flatten(table):
        key = ".".join(segs)
        if len(segs) == 1 and segs[0] in GLOBAL_KEYS:
            if not isinstance(v, bool):
                raise _bad(key, f"must be true or false, got {v!r}")
            unique = v
            continue
        param = segs[0]
        if param not in types:
            raise _bad(key, f"{param!r} is not an argument (arguments: "
                            f"{', '.join(types) or 'none'}; global keys: unique_output)")
        rest = list(segs[1:])
        prop = rest.pop() if rest and rest[-1] in PROPS else "range"
        t: Type | None = types[param]
        for seg in rest:
            assert t is not None
            nt = _step_type(t, seg)
            if nt is None:
                raise _bad(key, f"type {t} has no part {seg!r} (use elem, key, value, some, a "
                                f"field name or a tuple index; properties: {', '.join(PROPS)})")
            t = nt
        assert t is not None
        b = _base(t)
        if prop in ("range", "len"):
            if not (isinstance(v, list) and len(v) == 2 and all(
                    isinstance(x, (int, float, str)) and not isinstance(x, bool) for x in v)):
                raise _bad(key, f"a {prop} is [low, high] (numbers or bound expressions), "
                                f"got {v!r}")
            for x in v:
                if isinstance(x, str) and not (isinstance(b, CharType) and len(x) == 1) and \
                        x.strip() not in ("inf", "-inf") and not _BOUND.match(x):
                    raise _bad(key, f"bound {x!r} is not a number, 'inf', 'name', 'name.len' "
                                    "or one of those plus/minus an integer")
            if prop == "range" and not isinstance(b, (IntType, FloatType, CharType)):
                raise _bad(key, f"a range needs a number or char, but this is {t}")
            if prop == "len" and not isinstance(b, (StringType, SeqType, SetType, MultisetType,
                                                    MapType)):
                raise _bad(key, f"len needs a string or a collection, but this is {t}")
        elif prop == "sorted":
            if v is not False and v not in SORTED_MODES:
                raise _bad(key, f"sorted is true, false, 'strict', 'desc' or 'strict_desc', "
                                f"got {v!r}")
            if not isinstance(b, (SeqType, StringType)):
                raise _bad(key, f"sorted needs a sequence or string, but this is {t}")
        elif prop in ("distinct", "nonnull"):
            if not isinstance(v, bool):
                raise _bad(key, f"{prop} is true or false, got {v!r}")
            if prop == "distinct" and not isinstance(b, (SeqType, StringType, MultisetType)):
                raise _bad(key, f"distinct needs a sequence, string or multiset, but this is {t}")
        items.append(Constraint(key=key, param=param, path=tuple(rest), prop=prop, value=v))
    return Constraints(items, unique, types)
