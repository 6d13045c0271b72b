"""Runtime values of the interpreter and their conversion from the task's JSON values.

Mathematical integers are Python ints, ``bool`` is Python bool, ``char`` a one-character str,
``Seq`` (and ``SpecString`` = ``Seq<char>``) a plain Python tuple so that indexing, slicing and
equality run at C speed; Rust tuples are ``Tup`` (a tuple subclass, told apart by type).
Everything is immutable and hashable, so values nest inside sets and map keys.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from adequacy.plugin import types as T


class Undef(Exception):
    """An unspecified value (Verus gives it an arbitrary value): unknown unless decided around."""

    def __init__(self, reason: str, line: int | None = None) -> None:
        self.reason = reason + (f" (line {line})" if line and "(line" not in reason else "")
        super().__init__(self.reason)


class Abort(Exception):
    """A resource limit was hit: the whole case is unknown, nothing may absorb this."""


MAX_BITS = 1_000_000
"""Largest integer result (in bits) an operation may build. One CPython bigint operation
cannot be interrupted by the wall-clock limit, so repeated squaring would otherwise run for
minutes; legitimate spec arithmetic stays far below this."""
MAX_ELEMS = 10_000_000
"""Largest collection an operation may build (memory, and uninterruptible C loops)."""


def too_big(what: str) -> Abort:
    return Abort(f"resource limit: {what}")


def check_bits(bits: int, what: str) -> None:
    if bits > MAX_BITS:
        raise too_big(f"{what} would have about {bits} bits (limit {MAX_BITS})")


def check_elems(n: int, what: str) -> None:
    if n > MAX_ELEMS:
        raise too_big(f"{what} would have {n} elements (limit {MAX_ELEMS})")


class Tup(tuple):
    """A Rust tuple (as opposed to a ``Seq``, which is a plain tuple)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "Tup" + tuple.__repr__(self)


class MSet:
    """A finite multiset: value -> positive count."""

    __slots__ = ("counts", "_h")

    def __init__(self, counts: dict[Any, int]) -> None:
        self.counts = {k: v for k, v in counts.items() if v > 0}
        self._h: int | None = None

    @classmethod
    def of(cls, items: Iterable[Any]) -> MSet:
        d: dict[Any, int] = {}
        for x in items:
            d[x] = d.get(x, 0) + 1
        return cls(d)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MSet) and self.counts == other.counts

    def __hash__(self) -> int:
        if self._h is None:
            self._h = hash(frozenset(self.counts.items()))
        return self._h

    def __len__(self) -> int:
        return sum(self.counts.values())

    def __repr__(self) -> str:
        return f"MSet({self.counts!r})"


class FMap(dict):
    """A finite map; a dict that hashes by content (it is never mutated after construction)."""

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(frozenset(self.items()))


class StructVal:
    __slots__ = ("name", "d", "_h")

    def __init__(self, name: str, d: dict[str, Any]) -> None:
        self.name = name
        self.d = d
        self._h: int | None = None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, StructVal) and self.name == other.name and self.d == other.d

    def __hash__(self) -> int:
        if self._h is None:
            self._h = hash((self.name, frozenset(self.d.items())))
        return self._h

    def __repr__(self) -> str:
        return f"{self.name}{self.d!r}"


class EnumVal:
    """A variant value; ``vals`` positional, ``names`` field names for struct-like variants."""

    __slots__ = ("enum", "variant", "vals", "names", "_h")

    def __init__(self, enum: str, variant: str, vals: tuple[Any, ...] = (),
                 names: tuple[str, ...] | None = None) -> None:
        self.enum = enum
        self.variant = variant
        self.vals = vals
        self.names = names
        self._h: int | None = None

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, EnumVal) and self.variant == other.variant
                and self.enum == other.enum and self.vals == other.vals)

    def __hash__(self) -> int:
        if self._h is None:
            self._h = hash((self.enum, self.variant, self.vals))
        return self._h

    def field(self, name: str) -> Any:
        if self.names and name in self.names:
            return self.vals[self.names.index(name)]
        if name.isdigit() and int(name) < len(self.vals):
            return self.vals[int(name)]
        pre = self.variant + "_"
        if name.startswith(pre) and name[len(pre):].isdigit():
            k = int(name[len(pre):])
            if k < len(self.vals):
                return self.vals[k]
        if self.names and name.startswith(pre) and name[len(pre):] in self.names:
            return self.vals[self.names.index(name[len(pre):])]
        raise Undef(f"field {name} of variant {self.variant} is unspecified")

    def __repr__(self) -> str:
        return f"{self.variant}{self.vals!r}" if self.vals else self.variant


NONE = EnumVal("Option", "None")


def some(v: Any) -> EnumVal:
    return EnumVal("Option", "Some", (v,))


class Closure:
    """A spec closure value (``|x| ...``); calling it evaluates its body in its captured frame."""

    __slots__ = ("fn", "arity")

    def __init__(self, fn: Any, arity: int) -> None:
        self.fn = fn
        self.arity = arity

    def __call__(self, *args: Any) -> Any:
        return self.fn(*args)

    def __eq__(self, other: object) -> bool:
        if other is self:
            return True
        raise Undef("equality of closures is not computable")

    __hash__ = object.__hash__


def kind_of(v: Any) -> str:
    t = type(v)
    if t is tuple:
        return "seq"
    if t is int:
        return "int"
    if t is bool:
        return "bool"
    if t is frozenset:
        return "set"
    if t is FMap:
        return "map"
    if t is MSet:
        return "multiset"
    if t is str:
        return "char"
    if t is EnumVal:
        return "option" if v.enum == "Option" else "enum"
    if t is StructVal:
        return "struct"
    if t is Tup:
        return "tuple"
    if t is float:
        return "float"
    if isinstance(v, Closure):
        return "closure"
    if v is None:
        return "unit"
    return t.__name__


INT_SEQS_KEPT = 8
_INT_SEQS: dict[int, tuple[Any, ...]] = {}


def note_int_seq(t: tuple[Any, ...]) -> tuple[Any, ...]:
    """Remember that every element of ``t`` is an ``int`` (from_json just checked it), so
    that a fast loop over it can skip its per-element type check (``fastloop``). The entry
    holds ``t`` itself, so its id cannot be reused while it is remembered; only the last
    few long ones are kept (short ones gain little)."""
    if 256 <= len(t) <= MAX_ELEMS:
        _INT_SEQS[id(t)] = t
        while len(_INT_SEQS) > INT_SEQS_KEPT:
            try:
                _INT_SEQS.pop(next(iter(_INT_SEQS)))
            except (StopIteration, KeyError, RuntimeError):  # another thread got there
                break
    return t


def known_int_seq(t: Any) -> bool:
    """Whether ``t`` is a tuple ``note_int_seq`` vouched for."""
    return _INT_SEQS.get(id(t)) is t


def _all_ints(v: list[Any]) -> bool:
    """Every element is exactly an ``int`` (not a bool), as ``from_json`` of IntType wants."""
    return list(map(type, v)).count(int) == len(v)  # 200,000 elements: ~2 ms


class _FromJson(T.TypeVisitor[[Any], Any]):
    """A JSON value as the interpreter's runtime value (see ``from_json``)."""

    def visit_int(self, ty: T.IntType, v: Any) -> Any:
        if type(v) is not int:
            raise ValueError(f"expected an integer, got {v!r}")
        return v

    def visit_bool(self, ty: T.BoolType, v: Any) -> Any:
        return bool(v)

    def visit_char(self, ty: T.CharType, v: Any) -> Any:
        return str(v)

    def visit_string(self, ty: T.StringType, v: Any) -> Any:
        return tuple(str(v))

    def visit_float(self, ty: T.FloatType, v: Any) -> Any:
        return float(v)

    def visit_seq(self, ty: T.SeqType, v: Any) -> Any:
        if isinstance(ty.elem, T.IntType) and type(v) is list and _all_ints(v):
            # what the per-element path gives, at C speed
            return note_int_seq(tuple(v))
        conv, et = T.method_for(ty.elem, self), ty.elem
        return tuple([conv(et, x) for x in v])

    def visit_set(self, ty: T.SetType, v: Any) -> Any:
        conv, et = T.method_for(ty.elem, self), ty.elem
        return frozenset([conv(et, x) for x in v])

    def visit_multiset(self, ty: T.MultisetType, v: Any) -> Any:
        conv, et = T.method_for(ty.elem, self), ty.elem
        return MSet.of([conv(et, x) for x in v])

    def visit_map(self, ty: T.MapType, v: Any) -> Any:
        ck, cv = T.method_for(ty.key, self), T.method_for(ty.value, self)
        return FMap([(ck(ty.key, k), cv(ty.value, x)) for k, x in v])

    def visit_option(self, ty: T.OptionType, v: Any) -> Any:
        return NONE if v is None else some(from_json(v["some"], ty.elem))

    def visit_nullable(self, ty: T.NullableType, v: Any) -> Any:
        return NONE if v is None else some(from_json(v, ty.elem))

    def visit_tuple(self, ty: T.TupleType, v: Any) -> Any:
        return Tup(from_json(x, t) for x, t in zip(v, ty.elems, strict=True))

    def visit_struct(self, ty: T.StructType, v: Any) -> Any:
        return StructVal(ty.name, {f: from_json(v[f], ft) for f, ft in ty.fields})


_FROM_JSON = _FromJson()


def from_json(v: Any, ty: T.Type) -> Any:
    """Convert a JSON value (adequacy.model.values conventions) of type ``ty`` to a runtime value."""
    return T.visit(ty, _FROM_JSON, v)


def show(v: Any, limit: int = 60) -> str:
    """Short rendering for reasons and debugging."""
    if type(v) is int and v.bit_length() > 4000:
        return f"<integer of {v.bit_length()} bits>"  # str() of it is slow or refused
    if type(v) is tuple and v and all(type(c) is str for c in v):
        s = '"' + "".join(v) + '"'
    elif type(v) is tuple:
        s = "seq![" + ", ".join(show(x, limit) for x in v[:20]) + (", ..]" if len(v) > 20
                                                                   else "]")
    else:
        s = repr(v)
    return s if len(s) <= limit else s[: limit - 3] + "..."
