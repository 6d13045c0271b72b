"""Hypothesis strategies for the type language: random types and valid values of a type.

Needs ``hypothesis`` (the ``dev`` extra); the mutators themselves do not import this module.
Values come out in the JSON conventions of ``adequacy.model.values`` and pass ``strictly_valid``.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from adequacy.model.identity import float_value, value_key
from adequacy.model.types import (
    INT_WIDTHS,
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

__all__ = ["chars", "types", "values"]

SCALARS: list[Type] = [BoolType(), CharType(), StringType(), FloatType("f32"), FloatType("f64"),
                       IntType("int"), IntType("nat"), *[IntType(n) for n in INT_WIDTHS]]

#: Java chars and Rust chars alike: one UTF-16 unit, no surrogates.
chars = st.characters(max_codepoint=0xFFFF, exclude_categories=["Cs"])


def types(max_leaves: int = 6) -> st.SearchStrategy[Type]:
    """Random types, nested up to a few levels, with every constructor of the language."""

    def extend(inner: st.SearchStrategy[Type]) -> st.SearchStrategy[Type]:
        names = st.from_regex(r"[a-z][a-z0-9_]{0,5}", fullmatch=True)
        return st.one_of(
            st.builds(SeqType, inner, st.sampled_from(["seq", "array", "list"])),
            st.builds(SetType, inner),
            st.builds(MultisetType, inner),
            st.builds(MapType, inner, inner),
            st.builds(OptionType, inner),
            st.builds(NullableType, inner),
            st.lists(inner, min_size=1, max_size=3).map(lambda ts: TupleType(tuple(ts))),
            st.dictionaries(names, inner, min_size=1, max_size=3).map(
                lambda d: StructType("S", tuple(d.items()))),
        )

    return st.recursive(st.sampled_from(SCALARS), extend, max_leaves=max_leaves)


Strategy = st.SearchStrategy[Any]


class _Values(TypeVisitor[[int], Strategy]):
    """The strategy of valid values of a type (``max_size``: collection length bound)."""

    def visit_nullable(self, ty: NullableType, max_size: int) -> Strategy:
        return st.one_of(st.none(), values(ty.elem, max_size))

    def visit_bool(self, ty: BoolType, max_size: int) -> Strategy:
        return st.booleans()

    def visit_int(self, ty: IntType, max_size: int) -> Strategy:
        lo, hi = ty.bounds
        return st.integers(min_value=lo, max_value=hi)

    def visit_float(self, ty: FloatType, max_size: int) -> Strategy:
        fs = st.floats(width=32) if ty.name == "f32" else st.floats()
        return fs.map(lambda f: float_value(f, ty))

    def visit_char(self, ty: CharType, max_size: int) -> Strategy:
        return chars

    def visit_string(self, ty: StringType, max_size: int) -> Strategy:
        return st.text(alphabet=chars, max_size=8)

    def visit_seq(self, ty: SeqType, max_size: int) -> Strategy:
        s = st.lists(values(ty.elem, max_size), max_size=max_size)
        return st.one_of(st.none(), s) if ty.kind == "array" else s

    def visit_set(self, ty: SetType, max_size: int) -> Strategy:
        et = ty.elem
        return st.lists(values(et, max_size), max_size=max_size,
                        unique_by=lambda x: value_key(x, et))

    def visit_multiset(self, ty: MultisetType, max_size: int) -> Strategy:
        return st.lists(values(ty.elem, max_size), max_size=max_size)

    def visit_map(self, ty: MapType, max_size: int) -> Strategy:
        kt = ty.key
        pair = st.tuples(values(kt, max_size), values(ty.value, max_size)).map(list)
        return st.lists(pair, max_size=max_size, unique_by=lambda p: value_key(p[0], kt))

    def visit_option(self, ty: OptionType, max_size: int) -> Strategy:
        return st.one_of(st.none(), values(ty.elem, max_size).map(lambda v: {"some": v}))

    def visit_tuple(self, ty: TupleType, max_size: int) -> Strategy:
        return st.tuples(*[values(t, max_size) for t in ty.elems]).map(list)

    def visit_struct(self, ty: StructType, max_size: int) -> Strategy:
        return st.fixed_dictionaries({n: values(t, max_size) for n, t in ty.fields})


_VALUES = _Values()


def values(ty: Type, max_size: int = 4) -> Strategy:
    """Valid values of ``ty`` (strictly valid: chars are BMP non-surrogates, floats JSON-safe)."""
    return visit(ty, _VALUES, max_size)
