"""Task values as Z3 terms: the SMT-term-level helper a backend's encoder builds on.

Every backend that answers symbolic questions with Z3 names a task's inputs and outputs the
same way, so core can turn a solver's model back into the task's JSON values without knowing
the language. A parameter's value is a ``Sym`` tree that mirrors its type (``adequacy.model.types``):

| task type | ``Sym`` | Z3 |
|---|---|---|
| integers (`i32`, `u64`, `int`, `nat`...) | ``Scalar`` | `Int`, with its bounds as an invariant |
| `bool` | ``Scalar`` | `Bool` |
| `char` | ``Scalar`` | `Int` (a Unicode scalar value: no surrogates) |
| `string`, `seq<T>`, `array<T>`, `list<T>` of scalar `T` | ``Scalar`` | `Seq(Int)` / `Seq(Bool)` |
| `set<T>`, `multiset<T>` of integers or chars | ``Scalar`` | `Seq(Int)` in canonical (sorted) order, as the task's JSON lists them |
| `option<T>` | ``Opt`` | a `Bool` (is `Some`) and `T`'s ``Sym`` |
| `nullable<T>`, `array<T>` (references that may be null) | ``Null`` | a `Bool` (is null) and `T`'s ``Sym`` |
| tuples, structs | ``Rec`` | one ``Sym`` per field |

Anything else (floats, maps, sets of other elements, sequences of compound values) raises
``Unsupported``: the
question is then unknown, never approximated. Each leaf is a named constant (``leaf_names``),
and ``decode`` rebuilds the JSON value from the raw values the solver child reports for them.
"""

from __future__ import annotations

from typing import Any

import z3

from adequacy.extensions.symbolic import Null, Opt, Rec, Scalar, Sym, Unsupported
from adequacy.model.types import (
    BoolType,
    CharType,
    IntType,
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

__all__ = ["Null", "Opt", "Rec", "Scalar", "Sym", "Unsupported", "char_ok", "decode",
           "declare_params", "invariant", "leaf_names", "leaf_terms", "literal", "sym_eq",
           "value_term"]

MAX_CHAR = 0x10FFFF


def _scalar_sort(t: Type) -> Any:
    if isinstance(t, BoolType):
        return z3.BoolSort()
    if isinstance(t, (IntType, CharType)):
        return z3.IntSort()
    raise Unsupported(f"type {t} has no SMT encoding here")


def sort_of(t: Type) -> Any:
    """The Z3 sort of a scalar-represented type (``Unsupported`` otherwise)."""
    if isinstance(t, StringType):
        return z3.SeqSort(z3.IntSort())
    if isinstance(t, SeqType):
        return z3.SeqSort(sort_of(t.elem))
    if isinstance(t, (SetType, MultisetType)):
        if not isinstance(t.elem, (IntType, CharType)):
            raise Unsupported(f"type {t} has no SMT encoding here")
        return z3.SeqSort(z3.IntSort())
    return _scalar_sort(t)


def declare(name: str, t: Type) -> Sym:
    """Fresh constants for a value of type ``t`` named from ``name``."""
    if isinstance(t, (BoolType, IntType, CharType, StringType)):
        return Scalar(t, z3.Const(name, sort_of(t)))
    if isinstance(t, SeqType):
        if t.kind == "array":
            inner = SeqType(t.elem, "seq")
            return Null(t, z3.Bool(name + "!null"), declare(name, inner))
        return Scalar(t, z3.Const(name, sort_of(t)))
    if isinstance(t, (SetType, MultisetType)):
        return Scalar(t, z3.Const(name, sort_of(t)))
    if isinstance(t, OptionType):
        return Opt(t, z3.Bool(name + "!some"), declare(name + "!val", t.elem))
    if isinstance(t, NullableType):
        return Null(t, z3.Bool(name + "!null"), declare(name, t.elem))
    if isinstance(t, TupleType):
        return Rec(t, {str(i): declare(f"{name}!{i}", e) for i, e in enumerate(t.elems)})
    if isinstance(t, StructType):
        if not t.fields:
            raise Unsupported(f"struct {t.name} without declared fields")
        return Rec(t, {f: declare(f"{name}!{f}", ft) for f, ft in t.fields})
    raise Unsupported(f"type {t} has no SMT encoding here")


def declare_params(prefix: str, params: list[tuple[str, Type]]) -> dict[str, Sym]:
    """One ``Sym`` per parameter (``prefix`` keeps inputs and outputs apart)."""
    return {n: declare(f"{prefix}!{n}", t) for n, t in params}


def char_ok(c: Any) -> Any:
    return z3.And(c >= 0, c <= MAX_CHAR, z3.Or(c < 0xD800, c > 0xDFFF))


def _elem_invariant(t: Type, x: Any) -> Any | None:
    if isinstance(t, IntType):
        lo, hi = t.bounds
        parts = ([x >= lo] if lo is not None else []) + ([x <= hi] if hi is not None else [])
        return z3.And(*parts) if parts else None
    if isinstance(t, CharType):
        return char_ok(x)
    if isinstance(t, (SeqType, StringType)):
        et = t.elem if isinstance(t, SeqType) else CharType()
        i = z3.FreshInt("i")
        body = _elem_invariant(et, x[i])
        if body is None:
            return None
        return z3.ForAll([i], z3.Implies(z3.And(i >= 0, i < z3.Length(x)), body))
    if isinstance(t, (SetType, MultisetType)):
        # the canonical form: sorted (strictly for a set: no element twice)
        i = z3.FreshInt("i")
        step = x[i] < x[i + 1] if isinstance(t, SetType) else x[i] <= x[i + 1]
        each = _elem_invariant(t.elem, x[i])
        ordered = z3.ForAll([i], z3.Implies(z3.And(i >= 0, i + 1 < z3.Length(x)), step))
        if each is None:
            return ordered
        return z3.And(ordered, z3.ForAll([i], z3.Implies(z3.And(i >= 0, i < z3.Length(x)),
                                                         each)))
    return None


def invariant(s: Sym, max_len: int | None = None) -> list[Any]:
    """What every value of the type satisfies (integer bounds, scalar chars), and
    ``len <= max_len`` for every collection when a bound is given."""
    out: list[Any] = []
    if isinstance(s, Scalar):
        inv = _elem_invariant(s.ty, s.term)
        if inv is not None:
            out.append(inv)
        if max_len is not None and isinstance(s.ty, (SeqType, StringType, SetType,
                                                     MultisetType)):
            out.append(z3.Length(s.term) <= max_len)
            if isinstance(s.ty, SeqType) and isinstance(s.ty.elem, (SeqType, StringType)):
                raise Unsupported("a bounded sequence of sequences")
    elif isinstance(s, (Opt, Null)):
        out += invariant(s.val, max_len)
    elif isinstance(s, Rec):
        for v in s.fields.values():
            out += invariant(v, max_len)
    return out


def has_collection(s: Sym) -> bool:
    if isinstance(s, Scalar):
        return isinstance(s.ty, (SeqType, StringType, SetType, MultisetType))
    if isinstance(s, (Opt, Null)):
        return has_collection(s.val)
    if isinstance(s, Rec):
        return any(has_collection(v) for v in s.fields.values())
    return False


def sym_eq(a: Sym, b: Sym) -> Any:
    """Structural equality of two values of one type (a null equals a null whatever the
    unused value constants hold)."""
    if isinstance(a, Scalar) and isinstance(b, Scalar):
        return a.term == b.term
    if isinstance(a, Opt) and isinstance(b, Opt):
        return z3.And(a.some == b.some, z3.Implies(a.some, sym_eq(a.val, b.val)))
    if isinstance(a, Null) and isinstance(b, Null):
        return z3.And(a.null == b.null, z3.Implies(z3.Not(a.null), sym_eq(a.val, b.val)))
    if isinstance(a, Rec) and isinstance(b, Rec):
        return z3.And(*[sym_eq(a.fields[k], b.fields[k]) for k in a.fields]) \
            if a.fields else z3.BoolVal(True)
    raise Unsupported("comparing values of different shapes")


def sym_differs(a: Sym, b: Sym) -> Any:
    """``a`` and ``b`` differ, stated so the solver has a witness to find: two sequences differ
    in length or at an index (a fresh constant) of both, not by sequence disequality, which
    leaves the solver to invent the index itself (measured: a pointwise postcondition's
    second output timed out at 5 s as a disequality, answered at once with the witness)."""
    if isinstance(a, Scalar) and isinstance(b, Scalar):
        if z3.is_seq(a.term):
            k = z3.FreshInt("k")
            la, lb = z3.Length(a.term), z3.Length(b.term)
            return z3.Or(la != lb, z3.And(k >= 0, k < la, a.term[k] != b.term[k]))
        return a.term != b.term
    if isinstance(a, Opt) and isinstance(b, Opt):
        return z3.Or(a.some != b.some, z3.And(a.some, sym_differs(a.val, b.val)))
    if isinstance(a, Null) and isinstance(b, Null):
        return z3.Or(a.null != b.null, z3.And(z3.Not(a.null), sym_differs(a.val, b.val)))
    if isinstance(a, Rec) and isinstance(b, Rec):
        return z3.Or(*[sym_differs(a.fields[k], b.fields[k]) for k in a.fields]) \
            if a.fields else z3.BoolVal(False)
    raise Unsupported("comparing values of different shapes")


def leaf_terms(s: Sym) -> list[Any]:
    """The Z3 terms of ``s``'s leaves, in a fixed order (a null or ``None`` keeps the unused
    value's terms: a function of them is still a function of the value)."""
    if isinstance(s, Scalar):
        return [s.term]
    if isinstance(s, Opt):
        return [s.some, *leaf_terms(s.val)]
    if isinstance(s, Null):
        return [s.null, *leaf_terms(s.val)]
    if isinstance(s, Rec):
        return [t for v in s.fields.values() for t in leaf_terms(v)]
    raise Unsupported(f"a value of {type(s).__name__} as a function argument")


def leaf_names(s: Sym) -> list[str]:
    """Names of the constants the solver child reports for ``s``."""
    if isinstance(s, Scalar):
        return [str(s.term)]
    if isinstance(s, Opt):
        return [str(s.some), *leaf_names(s.val)]
    if isinstance(s, Null):
        return [str(s.null), *leaf_names(s.val)]
    if isinstance(s, Rec):
        return [n for v in s.fields.values() for n in leaf_names(v)]
    return []


def _scalar_json(t: Type, raw: Any) -> Any:
    if isinstance(t, BoolType):
        return bool(raw)
    if isinstance(t, IntType):
        return int(raw)
    if isinstance(t, CharType):
        return chr(int(raw))
    if isinstance(t, StringType):
        return "".join(chr(int(c)) for c in raw)
    if isinstance(t, (SeqType, SetType, MultisetType)):
        return [_scalar_json(t.elem, x) for x in raw]
    raise Unsupported(f"cannot decode {t}")


def decode(s: Sym, raw: dict[str, Any]) -> Any:
    """The JSON value of ``s`` in the model whose leaves are ``raw`` (name -> raw value:
    int, bool, or a list for a sequence)."""
    if isinstance(s, Scalar):
        v = raw.get(str(s.term))
        if v is None:
            v = False if isinstance(s.ty, BoolType) else [] if isinstance(
                s.ty, (SeqType, StringType, SetType, MultisetType)) else 0
        return _scalar_json(s.ty, v)
    if isinstance(s, Opt):
        return {"some": decode(s.val, raw)} if raw.get(str(s.some)) else None
    if isinstance(s, Null):
        return None if raw.get(str(s.null)) else decode(s.val, raw)
    if isinstance(s, Rec):
        vals = {k: decode(v, raw) for k, v in s.fields.items()}
        return list(vals.values()) if isinstance(s.ty, TupleType) else vals
    raise Unsupported("cannot decode")


def value_term(s: Sym, v: Any) -> Any:
    """``s`` equals the JSON value ``v`` (for a case's concrete input or output)."""
    if isinstance(s, Scalar):
        return s.term == literal(s.ty, v)
    if isinstance(s, Opt):
        if v is None:
            return z3.Not(s.some)
        return z3.And(s.some, value_term(s.val, v["some"]))
    if isinstance(s, Null):
        if v is None:
            return s.null
        return z3.And(z3.Not(s.null), value_term(s.val, v))
    if isinstance(s, Rec):
        items = (list(zip(s.fields, v, strict=True)) if isinstance(s.ty, TupleType)
                 else [(k, v[k]) for k in s.fields])
        return z3.And(*[value_term(s.fields[k], x) for k, x in items]) if items \
            else z3.BoolVal(True)
    raise Unsupported("cannot encode a value")


def literal(t: Type, v: Any) -> Any:
    """A Z3 literal of the scalar-represented type ``t``."""
    if isinstance(t, BoolType):
        return z3.BoolVal(bool(v))
    if isinstance(t, IntType):
        return z3.IntVal(int(v))
    if isinstance(t, CharType):
        return z3.IntVal(ord(v))
    if isinstance(t, StringType):
        return seq_literal(z3.IntSort(), [z3.IntVal(ord(c)) for c in v])
    if isinstance(t, SeqType):
        return seq_literal(sort_of(t.elem), [literal(t.elem, x) for x in v])
    if isinstance(t, (SetType, MultisetType)):
        sort_of(t)  # refuses element types without an encoding
        items = sorted(literal(t.elem, x).as_long() for x in v)
        return seq_literal(z3.IntSort(), [z3.IntVal(x) for x in items])
    raise Unsupported(f"no literal of {t}")


def seq_literal(elem_sort: Any, items: list[Any]) -> Any:
    if not items:
        return z3.Empty(z3.SeqSort(elem_sort))
    units = [z3.Unit(x) for x in items]
    return units[0] if len(units) == 1 else z3.Concat(*units)


def small(s: Sym, magnitude: int = 16, length: int = 3) -> list[Any]:
    """Constraints to a small corner of the values (integers and elements within
    ``magnitude``, collections at most ``length`` long): where a first, cheap search looks.
    A model there is a model; "none there" proves nothing."""
    out: list[Any] = []

    def num(t: Type, x: Any) -> Any | None:
        if isinstance(t, IntType):
            return z3.And(x >= -magnitude, x <= magnitude)
        if isinstance(t, CharType):
            return z3.And(x >= 32, x <= 126)
        return None

    if isinstance(s, Scalar):
        c = num(s.ty, s.term)
        if c is not None:
            out.append(c)
        if isinstance(s.ty, (SeqType, StringType, SetType, MultisetType)):
            et = CharType() if isinstance(s.ty, StringType) else s.ty.elem
            out.append(z3.Length(s.term) <= length)
            i = z3.FreshInt("i")
            body = num(et, s.term[i])
            if body is not None:
                out.append(z3.ForAll([i], z3.Implies(z3.And(i >= 0, i < z3.Length(s.term)),
                                                     body)))
    elif isinstance(s, (Opt, Null)):
        out += small(s.val, magnitude, length)
    elif isinstance(s, Rec):
        for v in s.fields.values():
            out += small(v, magnitude, length)
    return out
