"""Candidate invalid inputs: each constraint broken on purpose, plus schema boundary values.

Constraint-driven candidates start from a known valid input and break one stated constraint
with the smallest change that does it (one element just past the range, the length one past the
limit, two neighbours swapped, one element copied onto its neighbour, one argument set to null),
so they are near-valid: a spec that checks everything but that one constraint still accepts them.
Schema boundary candidates (null, empty, 0, -1, the type's extremes, a single element) are the
values the original tool used blindly; here they are only candidates, and they enter a bucket
only when an oracle (validator or constraints) says they are invalid.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from typing import Any

from adequacy.model.identity import params_key, strictly_valid, value_key
from adequacy.model.random_values import CHAR_POOL, random_value
from adequacy.model.types import (
    CharType,
    FloatType,
    IntType,
    MapType,
    MultisetType,
    NullableType,
    SeqType,
    SetType,
    StringType,
    Type,
    TypeVisitor,
    visit,
)

from ._constraints import Constraint, Constraints, Location, _base, _step_type, locations
from ._operators import _sort_key

__all__ = ["InputCandidate", "invalid_candidates"]

#: longest collection the generator builds to break an upper length bound.
LEN_CAP = 10_000


class InputCandidate:
    """A made input and the operator that made it (``len.long``, ``schema.null``, ...)."""

    __slots__ = ("input", "operator", "target")

    def __init__(self, input: dict[str, Any], operator: str, target: str) -> None:
        self.input = input
        self.operator = operator
        self.target = target
        """The constraint key broken on purpose, or the argument a schema value was put in."""


def _set_at(root: Any, loc: Location, new: Any) -> Any:
    if not loc:
        return new
    if isinstance(root, str):  # a character of a string
        i = int(loc[0])
        return root[:i] + new + root[i + 1:]
    out = copy.copy(root)
    out[loc[0]] = _set_at(root[loc[0]], loc[1:], new)
    return out


def _nudge(x: Any, t: Type, up: bool) -> Any:
    """The nearest value past a bound: an int +-1, a float +-1, a char's neighbour."""
    if isinstance(x, str):
        n = ord(x) + (1 if up else -1)
        return chr(n) if 0 <= n <= 0xFFFF and not 0xD800 <= n <= 0xDFFF else None
    if isinstance(_base(t), FloatType):
        return float(x) + (1.0 if up else -1.0)
    return x + (1 if up else -1)


def _fill(items: list[Any], et: Type, count: int, rng: random.Random, cons: Constraints,
          c: Constraint, inp: dict[str, Any]) -> list[Any]:
    """``count`` more elements that keep the element range and distinctness where stated."""
    elem_path = (*c.path, "elem")
    rng_c = next((k for k in cons.items if k.param == c.param and k.path == elem_path
                  and k.prop == "range"), None)
    distinct = any(k.param == c.param and k.path == c.path and k.prop == "distinct" and k.value
                   for k in cons.items) or isinstance(_base(cons.types[c.param]), SetType)
    lo = hi = None
    if rng_c is not None:
        lo, hi = (cons.bound(b, inp, et) for b in rng_c.value)
    seen = {value_key(e, et) for e in items}
    out = list(items)
    b = _base(et)
    if isinstance(b, IntType):
        tlo, thi = b.bounds
        a = lo if isinstance(lo, int) else (tlo if tlo is not None else -1000)
        z = hi if isinstance(hi, int) else (thi if thi is not None else 1000)
        a = a if tlo is None else max(a, tlo)
        z = z if thi is None else min(z, thi)
        if a <= z and distinct:
            v = a
            while len(out) - len(items) < count and v <= z:
                if value_key(v, et) not in seen:
                    seen.add(value_key(v, et))
                    out.append(v)
                v += 1
        elif a <= z:
            out += [rng.randint(a, z) for _ in range(count)]
    else:
        for _ in range(count * 4):
            if len(out) - len(items) >= count:
                break
            x = random_value(et, rng)
            if distinct and value_key(x, et) in seen:
                continue
            seen.add(value_key(x, et))
            out.append(x)
    # not enough values keep the other constraints: break them too, the length still breaks
    while len(out) - len(items) < count:
        out.append(out[-1] if out else random_value(et, rng))
    return out


def _for_constraint(c: Constraint, inp: dict[str, Any], cons: Constraints,
                    rng: random.Random) -> list[tuple[str, dict[str, Any]]]:
    ty = cons.types[c.param]
    root = inp[c.param]
    out: list[tuple[str, dict[str, Any]]] = []
    if c.value is False:  # "sorted = false" states nothing
        return out

    def emit(op: str, loc: Location, new: Any) -> None:
        out.append((op, {**inp, c.param: _set_at(root, loc, new)}))

    locs = locations(root, ty, c.path)
    if c.prop == "nonnull":
        for loc, v, _t in locs[:1] + locs[-1:]:
            if v is not None:
                emit("nonnull.null", loc, None)
        return out
    if c.prop == "range":
        lo, hi = (cons.bound(b, inp, locs[0][2] if locs else ty) for b in c.value)
        live = [x for x in locs if x[1] is not None]
        if lo is not None and live:
            loc, _, t = live[0]
            new = _nudge(lo, t, up=False)
            if new is not None:
                emit("range.below", loc, new)
        if hi is not None and live:
            loc, _, t = live[-1]
            new = _nudge(hi, t, up=True)
            if new is not None:
                emit("range.above", loc, new)
        return out
    for loc, v, t in locs:
        if v is None:
            continue
        b = _base(t)
        if c.prop == "len":
            lo, hi = (cons.bound(x, inp, t) for x in c.value)
            if isinstance(lo, int) and lo >= 1:
                emit("len.short", loc, v[:lo - 1])
            if isinstance(hi, int) and 0 <= hi < LEN_CAP:
                extra = hi + 1 - len(v)
                if isinstance(b, StringType):
                    pad = (v[-1] if v else rng.choice(CHAR_POOL)) * extra
                    emit("len.long", loc, v + pad)
                elif isinstance(b, (SeqType, SetType, MultisetType)):
                    grown = _fill(list(v), b.elem, extra, rng, cons, c, inp)
                    if any(k.param == c.param and k.path == c.path and k.prop == "sorted"
                           and k.value for k in cons.items):
                        desc = "desc" in str(next(k.value for k in cons.items if
                                                  k.param == c.param and k.path == c.path
                                                  and k.prop == "sorted"))
                        grown.sort(key=_sort_key(b.elem), reverse=desc)
                    emit("len.long", loc, grown)
                elif isinstance(b, MapType):
                    keys = _fill([p[0] for p in v], b.key, extra, rng, cons, c, inp)[len(v):]
                    emit("len.long", loc, list(v) + [[k, random_value(b.value, rng)]
                                                     for k in keys])
        elif c.prop == "sorted" and len(v) >= 2:
            et = _step_type(t, "elem") or CharType()
            keys = [value_key(e, et) for e in v]
            for i in range(len(v) - 1):
                if keys[i] != keys[i + 1]:
                    items = list(v)
                    items[i], items[i + 1] = items[i + 1], items[i]
                    emit("sorted.swap", loc, "".join(items) if isinstance(v, str) else items)
                    break
            else:
                if c.value in ("strict", "strict_desc"):
                    pass  # all equal already breaks strictness; nothing valid to start from
        elif c.prop == "distinct" and len(v) >= 1:
            if len(v) >= 2:
                new = v[0] + v[0] + v[2:] if isinstance(v, str) else [v[0], v[0], *v[2:]]
                emit("distinct.copy_neighbour", loc, new)
            else:
                emit("distinct.duplicate", loc, v + v if isinstance(v, str) else [v[0], v[0]])
    return out


class _Schema(TypeVisitor[[Any], list[tuple[str, Any]]]):
    """The schema's boundary values of a (non-nullable) type, given the input's own value."""

    def _none(self, b: Type, v: Any) -> list[tuple[str, Any]]:
        return []

    visit_bool = visit_option = visit_tuple = visit_struct = visit_nullable = _none

    def visit_int(self, b: IntType, v: Any) -> list[tuple[str, Any]]:
        lo, hi = b.bounds
        return [("schema.zero", 0), ("schema.negative", -1), ("schema.min", lo),
                ("schema.max", hi)]

    def visit_float(self, b: FloatType, v: Any) -> list[tuple[str, Any]]:
        return [("schema.zero", 0.0), ("schema.negative", -1.0), ("schema.nan", "NaN")]

    def visit_char(self, b: CharType, v: Any) -> list[tuple[str, Any]]:
        return [("schema.space", " "), ("schema.nul", "\x00")]

    def visit_string(self, b: StringType, v: Any) -> list[tuple[str, Any]]:
        return self._sized("", v)

    def _sized(self, empty: Any, v: Any) -> list[tuple[str, Any]]:
        out: list[tuple[str, Any]] = [("schema.empty", empty)]
        if v is not None and len(v) > 1:
            out.append(("schema.single", v[:1]))
        return out

    def visit_set(self, b: SetType, v: Any) -> list[tuple[str, Any]]:
        return self._sized([], v)

    def visit_map(self, b: MapType, v: Any) -> list[tuple[str, Any]]:
        return self._sized([], v)

    def _elements(self, b: SeqType | MultisetType, v: Any) -> list[tuple[str, Any]]:
        out = self._sized([], v)
        if v and isinstance(_base(b.elem), IntType):
            out.append(("schema.negative_elem", [-1, *v[1:]]))
        return out

    visit_seq = visit_multiset = _elements


_SCHEMA = _Schema()


def _schema_values(v: Any, t: Type) -> list[tuple[str, Any]]:
    b = _base(t)
    out: list[tuple[str, Any]] = []
    if isinstance(t, NullableType) or (isinstance(b, SeqType) and b.kind == "array"):
        out.append(("schema.null", None))
    boundary: list[tuple[str, Any]] = visit(b, _SCHEMA, v)
    out += boundary
    return [(op, x) for op, x in out if x is not None or op == "schema.null"]


def invalid_candidates(
    inp: dict[str, Any], params: Sequence[Any], cons: Constraints, n: int, seed: int = 0,
    schema: bool = True,
) -> list[InputCandidate]:
    """Up to ``n`` distinct candidates derived from the valid input ``inp``.

    Constraint-breaking candidates come first (one per constraint in turn, in a seed-shuffled
    order), then schema boundary values. Every candidate fits the type schema and differs from
    ``inp``; whether it is really invalid is for an oracle to say.
    """
    rng = random.Random(f"{seed}\x1f{params_key(inp, params)}")
    types = {p.name: p.type for p in params}
    orig = params_key(inp, params)
    per_constraint: list[list[InputCandidate]] = []
    items = list(cons.items)
    rng.shuffle(items)
    for c in items:
        made = _for_constraint(c, inp, cons, rng)
        per_constraint.append([InputCandidate(x, op, c.key) for op, x in made])
    if schema:
        for p in params:
            made2 = _schema_values(inp[p.name], p.type)
            per_constraint.append([InputCandidate({**inp, p.name: x}, op, p.name)
                                   for op, x in made2])
    out: list[InputCandidate] = []
    seen = {orig}
    depth = 0
    while len(out) < n and any(depth < len(g) for g in per_constraint):
        for g in per_constraint:
            if depth < len(g) and len(out) < n:
                cand = g[depth]
                if not all(strictly_valid(cand.input[k], t) for k, t in types.items()):
                    continue
                key = params_key(cand.input, params)
                if key in seen:
                    continue
                seen.add(key)
                out.append(cand)
        depth += 1
    return out
