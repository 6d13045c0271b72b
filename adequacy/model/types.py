"""The language-agnostic type language of task signatures (docs/tasks.md, "Types").

Types are small frozen dataclasses; ``parse_type`` reads the textual form (``seq<option<i64>>``,
``map<string, set<u8>>``, ``Point``) and ``str(t)`` prints it back in canonical spelling.

Code that does something per type constructor (validating a value, rendering it in a language,
mutating it, shrinking it) is a ``TypeVisitor``: one method per constructor, all abstract, and
``visit(ty, visitor, ...)`` calls the one for ``ty``. A walker that misses a constructor cannot
be instantiated (mypy says so where it is built, Python when it is), so a new constructor is one
class here plus one method in each walker, each pointed at by the type checker.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Concatenate, Generic, ParamSpec, TypeVar

from adequacy.errors import TypeSyntaxError

P = ParamSpec("P")
R = TypeVar("R")

#: bit width and signedness of the fixed-width integer types; ``usize``/``isize`` are 64-bit.
INT_WIDTHS: dict[str, tuple[int, bool]] = {
    "i8": (8, True), "i16": (16, True), "i32": (32, True), "i64": (64, True),
    "i128": (128, True), "isize": (64, True),
    "u8": (8, False), "u16": (16, False), "u32": (32, False), "u64": (64, False),
    "u128": (128, False), "usize": (64, False),
}


class Type:
    """Base of all types; subclasses are frozen dataclasses, one per constructor."""

    constructor: ClassVar[str]
    """The constructor's name (``CONSTRUCTORS``); ``visit`` calls the visitor's ``visit_`` +
    this."""
    _method: ClassVar[str]

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        if "constructor" in cls.__dict__:
            cls._method = f"visit_{cls.constructor}"


@dataclass(frozen=True)
class BoolType(Type):
    constructor = "bool"

    def __str__(self) -> str:
        return "bool"


@dataclass(frozen=True)
class CharType(Type):
    constructor = "char"

    def __str__(self) -> str:
        return "char"


@dataclass(frozen=True)
class StringType(Type):
    constructor = "string"

    def __str__(self) -> str:
        return "string"


@dataclass(frozen=True)
class IntType(Type):
    """``name`` is one of INT_WIDTHS or ``int`` (unbounded) / ``nat`` (unbounded, >= 0)."""

    constructor = "int"

    name: str

    @property
    def bounds(self) -> tuple[int | None, int | None]:
        if self.name == "int":
            return (None, None)
        if self.name == "nat":
            return (0, None)
        bits, signed = INT_WIDTHS[self.name]
        if signed:
            return (-(1 << (bits - 1)), (1 << (bits - 1)) - 1)
        return (0, (1 << bits) - 1)

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class FloatType(Type):
    constructor = "float"

    name: str  # "f32" | "f64"

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class SeqType(Type):
    """Ordered sequences; ``kind`` keeps the author's word (``seq``, ``array``, ``list``).

    ``array`` values may be ``null`` (Java arrays are references); ``seq`` and ``list`` may not.
    """

    constructor = "seq"

    elem: Type
    kind: str = "seq"

    def __str__(self) -> str:
        return f"{self.kind}<{self.elem}>"


@dataclass(frozen=True)
class SetType(Type):
    constructor = "set"

    elem: Type

    def __str__(self) -> str:
        return f"set<{self.elem}>"


@dataclass(frozen=True)
class MultisetType(Type):
    constructor = "multiset"

    elem: Type

    def __str__(self) -> str:
        return f"multiset<{self.elem}>"


@dataclass(frozen=True)
class MapType(Type):
    constructor = "map"

    key: Type
    value: Type

    def __str__(self) -> str:
        return f"map<{self.key}, {self.value}>"


@dataclass(frozen=True)
class OptionType(Type):
    constructor = "option"

    elem: Type

    def __str__(self) -> str:
        return f"option<{self.elem}>"


@dataclass(frozen=True)
class TupleType(Type):
    constructor = "tuple"

    elems: tuple[Type, ...]

    def __str__(self) -> str:
        return "tuple<" + ", ".join(str(e) for e in self.elems) + ">"


@dataclass(frozen=True)
class StructType(Type):
    """A named struct; ``fields`` is filled from the task's ``[structs.NAME]`` table."""

    constructor = "struct"

    name: str
    fields: tuple[tuple[str, Type], ...] = field(default=(), compare=False, hash=False)

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class NullableType(Type):
    """A reference that may be ``null`` (Java ``String``, boxed values)."""

    constructor = "nullable"

    elem: Type

    def __str__(self) -> str:
        return f"nullable<{self.elem}>"


class TypeVisitor(ABC, Generic[P, R]):
    """Something done per constructor of the type language: one method each, all abstract.

    ``P`` is what travels with the type (the value being validated and its path, a random
    generator, nothing at all), ``R`` what each method returns. A walker recurses by calling
    ``visit(part, self, ...)`` on the parts it wants; constructors it handles alike share one
    function (``visit_set = visit_multiset = _elements``). Built-in walkers: validation and
    canonical forms (``adequacy.model.values``), identity (``identity``), random values,
    shrinking, the mutators' operators, profiles and schema values, every backend's renderers.
    """

    @abstractmethod
    def visit_bool(self, ty: BoolType, /, *args: P.args, **kwargs: P.kwargs) -> R: ...

    @abstractmethod
    def visit_char(self, ty: CharType, /, *args: P.args, **kwargs: P.kwargs) -> R: ...

    @abstractmethod
    def visit_string(self, ty: StringType, /, *args: P.args, **kwargs: P.kwargs) -> R: ...

    @abstractmethod
    def visit_int(self, ty: IntType, /, *args: P.args, **kwargs: P.kwargs) -> R: ...

    @abstractmethod
    def visit_float(self, ty: FloatType, /, *args: P.args, **kwargs: P.kwargs) -> R: ...

    @abstractmethod
    def visit_seq(self, ty: SeqType, /, *args: P.args, **kwargs: P.kwargs) -> R: ...

    @abstractmethod
    def visit_set(self, ty: SetType, /, *args: P.args, **kwargs: P.kwargs) -> R: ...

    @abstractmethod
    def visit_multiset(self, ty: MultisetType, /, *args: P.args, **kwargs: P.kwargs) -> R: ...

    @abstractmethod
    def visit_map(self, ty: MapType, /, *args: P.args, **kwargs: P.kwargs) -> R: ...

    @abstractmethod
    def visit_option(self, ty: OptionType, /, *args: P.args, **kwargs: P.kwargs) -> R: ...

    @abstractmethod
    def visit_tuple(self, ty: TupleType, /, *args: P.args, **kwargs: P.kwargs) -> R: ...

    @abstractmethod
    def visit_struct(self, ty: StructType, /, *args: P.args, **kwargs: P.kwargs) -> R: ...

    @abstractmethod
    def visit_nullable(self, ty: NullableType, /, *args: P.args, **kwargs: P.kwargs) -> R: ...


def visit(ty: Type, visitor: TypeVisitor[P, R], /, *args: P.args, **kwargs: P.kwargs) -> R:
    """``visitor``'s method for the constructor of ``ty``, called with ``ty`` and the rest.

    One attribute lookup by name: a method per type class (``ty.accept(visitor)``) would cost a
    second Python frame on every element of every value walked."""
    method: Callable[..., R] = getattr(visitor, ty._method)
    return method(ty, *args, **kwargs)


def method_for(ty: Type, visitor: TypeVisitor[P, R]) -> Callable[Concatenate[Any, P], R]:
    """The method ``visit(ty, visitor, ...)`` calls, to call on many values of one type: a
    walker over a sequence's elements looks it up once, not once per element (for a scalar
    element the lookup and the extra frame cost more than the element's own work)."""
    found: Callable[Concatenate[Any, P], R] = getattr(visitor, ty._method)
    return found


#: the name of each constructor, as the text form spells it (``seq`` for every sequence kind)
#: and as registries key what they hold per constructor (mutation operators).
CONSTRUCTORS: tuple[str, ...] = ("bool", "char", "string", "int", "float", "seq", "set",
                                 "multiset", "map", "option", "tuple", "struct", "nullable")


class _Parts(TypeVisitor[[], tuple[Type, ...]]):
    def _none(self, ty: Type) -> tuple[Type, ...]:
        return ()

    visit_bool = visit_char = visit_string = visit_int = visit_float = _none

    def _elem(self, ty: SeqType | SetType | MultisetType | OptionType | NullableType
              ) -> tuple[Type, ...]:
        return (ty.elem,)

    visit_seq = visit_set = visit_multiset = visit_option = visit_nullable = _elem

    def visit_map(self, ty: MapType) -> tuple[Type, ...]:
        return (ty.key, ty.value)

    def visit_tuple(self, ty: TupleType) -> tuple[Type, ...]:
        return ty.elems

    def visit_struct(self, ty: StructType) -> tuple[Type, ...]:
        return tuple(t for _, t in ty.fields)


_PARTS = _Parts()


def parts(ty: Type) -> tuple[Type, ...]:
    """The types directly inside ``ty`` (elements, key and value, fields), in declared order."""
    return visit(ty, _PARTS)


_SCALARS: dict[str, Type] = {
    "bool": BoolType(), "char": CharType(), "string": StringType(),
    "f32": FloatType("f32"), "f64": FloatType("f64"),
    "int": IntType("int"), "nat": IntType("nat"),
    **{n: IntType(n) for n in INT_WIDTHS},
}
_UNARY = {"seq", "array", "list", "set", "multiset", "option", "nullable"}


def _tokenize(text: str) -> list[str]:
    out: list[str] = []
    i = 0
    while i < len(text):
        c = text[i]
        if c.isspace():
            i += 1
        elif c in "<>,":
            out.append(c)
            i += 1
        elif c.isalnum() or c == "_":
            j = i
            while j < len(text) and (text[j].isalnum() or text[j] == "_"):
                j += 1
            out.append(text[i:j])
            i = j
        else:
            raise TypeSyntaxError(f"unexpected character {c!r} in type {text!r}")
    return out


def parse_type(text: str, structs: Mapping[str, Mapping[str, str]] | None = None) -> Type:
    """Parse one type; ``structs`` maps struct names to ``{field: type text}``.

    Struct definitions may refer to each other but not recursively (values must be finite JSON).
    """
    structs = structs or {}
    toks = _tokenize(text)
    pos = 0
    resolving: list[str] = []

    def expect(tok: str) -> None:
        nonlocal pos
        if pos >= len(toks) or toks[pos] != tok:
            found = toks[pos] if pos < len(toks) else "end of type"
            raise TypeSyntaxError(f"expected {tok!r} but found {found!r} in type {text!r}")
        pos += 1

    def one() -> Type:
        nonlocal pos
        if pos >= len(toks):
            raise TypeSyntaxError(f"type {text!r} ends too early")
        name = toks[pos]
        pos += 1
        if name in _SCALARS:
            return _SCALARS[name]
        if name in _UNARY:
            expect("<")
            elem = one()
            expect(">")
            if name in ("seq", "array", "list"):
                return SeqType(elem, name)
            return {"set": SetType, "multiset": MultisetType, "option": OptionType,
                    "nullable": NullableType}[name](elem)
        if name == "map":
            expect("<")
            k = one()
            expect(",")
            v = one()
            expect(">")
            return MapType(k, v)
        if name == "tuple":
            expect("<")
            elems = [one()]
            while pos < len(toks) and toks[pos] == ",":
                pos += 1
                elems.append(one())
            expect(">")
            return TupleType(tuple(elems))
        if name in structs:
            if name in resolving:
                raise TypeSyntaxError(f"struct {name} is recursive, which values cannot be")
            resolving.append(name)
            fields = tuple((f, parse_type_inner(t)) for f, t in structs[name].items())
            resolving.pop()
            return StructType(name, fields)
        if not (name[:1].isalpha() or name[:1] == "_"):
            raise TypeSyntaxError(f"expected a type name but found {name!r} in type {text!r}")
        raise TypeSyntaxError(
            f"unknown type {name!r} in {text!r} (not a built-in type and no [structs.{name}] "
            "table defines it)"
        )

    def parse_type_inner(t: str) -> Type:
        nonlocal toks, pos
        saved = (toks, pos)
        toks, pos = _tokenize(t), 0
        try:
            r = one()
            if pos != len(toks):
                raise TypeSyntaxError(f"unexpected {toks[pos]!r} after type in {t!r}")
            return r
        finally:
            toks, pos = saved

    result = one()
    if pos != len(toks):
        raise TypeSyntaxError(f"unexpected {toks[pos]!r} after the type in {text!r}")
    return result
