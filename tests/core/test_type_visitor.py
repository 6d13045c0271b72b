"""The one dispatch over the type language: every constructor has one visitor method, a walker
that misses one cannot be made, and ``visit`` calls the method of the type's constructor."""

from __future__ import annotations

import inspect
from typing import Any

import pytest
from hypothesis import given

from adequacy.model import types as T
from adequacy_mutators.strategies import types


def _constructor_classes() -> list[type[T.Type]]:
    return [c for _, c in inspect.getmembers(T, inspect.isclass)
            if issubclass(c, T.Type) and c is not T.Type]


def test_each_constructor_has_exactly_one_abstract_method() -> None:
    classes = _constructor_classes()
    assert sorted(c.constructor for c in classes) == sorted(T.CONSTRUCTORS)
    assert T.TypeVisitor.__abstractmethods__ == {f"visit_{c}" for c in T.CONSTRUCTORS}


def test_a_walker_missing_a_constructor_cannot_be_made() -> None:
    class Partial(T.TypeVisitor[[], str]):
        def visit_int(self, ty: T.IntType) -> str:
            return "int"

    with pytest.raises(TypeError, match="abstract"):
        Partial()  # type: ignore[abstract]


class _Rebuild(T.TypeVisitor[[], T.Type]):
    """Rebuilds a type from its constructor and ``parts``: agrees with the original only if
    ``visit`` called the right method and ``parts`` gave every part, in order."""

    def _leaf(self, ty: Any) -> T.Type:
        return ty

    visit_bool = visit_char = visit_string = visit_int = visit_float = _leaf

    def visit_seq(self, ty: T.SeqType) -> T.Type:
        (e,) = T.parts(ty)
        return T.SeqType(T.visit(e, self), ty.kind)

    def visit_set(self, ty: T.SetType) -> T.Type:
        return T.SetType(*(T.visit(p, self) for p in T.parts(ty)))

    def visit_multiset(self, ty: T.MultisetType) -> T.Type:
        return T.MultisetType(*(T.visit(p, self) for p in T.parts(ty)))

    def visit_map(self, ty: T.MapType) -> T.Type:
        return T.MapType(*(T.visit(p, self) for p in T.parts(ty)))

    def visit_option(self, ty: T.OptionType) -> T.Type:
        return T.OptionType(*(T.visit(p, self) for p in T.parts(ty)))

    def visit_nullable(self, ty: T.NullableType) -> T.Type:
        return T.NullableType(*(T.visit(p, self) for p in T.parts(ty)))

    def visit_tuple(self, ty: T.TupleType) -> T.Type:
        return T.TupleType(tuple(T.visit(p, self) for p in T.parts(ty)))

    def visit_struct(self, ty: T.StructType) -> T.Type:
        fields = tuple(zip((n for n, _ in ty.fields), (T.visit(p, self) for p in T.parts(ty)),
                           strict=True))
        return T.StructType(ty.name, fields)


@given(types())
def test_visit_dispatches_by_constructor_and_parts_are_the_parts(t: T.Type) -> None:
    back = T.visit(t, _Rebuild())
    assert back == t and str(back) == str(t)
    if isinstance(back, T.StructType):
        assert back.fields == t.fields  # not compared by ==


def test_extra_arguments_reach_the_method() -> None:
    class Depth(T.TypeVisitor[[int], int]):
        def _leaf(self, ty: Any, d: int) -> int:
            return d

        visit_bool = visit_char = visit_string = visit_int = visit_float = _leaf

        def _nest(self, ty: Any, d: int) -> int:
            return max((T.visit(p, self, d + 1) for p in T.parts(ty)), default=d)

        visit_seq = visit_set = visit_multiset = visit_map = visit_option = _nest
        visit_nullable = visit_tuple = visit_struct = _nest

    assert T.visit(T.parse_type("map<string, seq<option<i8>>>"), Depth(), 0) == 3
