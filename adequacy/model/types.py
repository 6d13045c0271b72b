"""The language-agnostic type language of task signatures (docs/tasks.md, "Types").

Types are small frozen dataclasses so that backends can pattern-match on them; ``parse_type``
reads the textual form (``seq<option<i64>>``, ``map<string, set<u8>>``, ``Point``) and
``str(t)`` prints it back in canonical spelling.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from adequacy.errors import TypeSyntaxError

#: bit width and signedness of the fixed-width integer types; ``usize``/``isize`` are 64-bit.
INT_WIDTHS: dict[str, tuple[int, bool]] = {
    "i8": (8, True), "i16": (16, True), "i32": (32, True), "i64": (64, True),
    "i128": (128, True), "isize": (64, True),
    "u8": (8, False), "u16": (16, False), "u32": (32, False), "u64": (64, False),
    "u128": (128, False), "usize": (64, False),
}


class Type:
    """Base of all types; subclasses are frozen dataclasses."""


@dataclass(frozen=True)
class BoolType(Type):
    def __str__(self) -> str:
        return "bool"


@dataclass(frozen=True)
class CharType(Type):
    def __str__(self) -> str:
        return "char"


@dataclass(frozen=True)
class StringType(Type):
    def __str__(self) -> str:
        return "string"


@dataclass(frozen=True)
class IntType(Type):
    """``name`` is one of INT_WIDTHS or ``int`` (unbounded) / ``nat`` (unbounded, >= 0)."""

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
    name: str  # "f32" | "f64"

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class SeqType(Type):
    """Ordered sequences; ``kind`` keeps the author's word (``seq``, ``array``, ``list``).

    ``array`` values may be ``null`` (Java arrays are references); ``seq`` and ``list`` may not.
    """

    elem: Type
    kind: str = "seq"

    def __str__(self) -> str:
        return f"{self.kind}<{self.elem}>"


@dataclass(frozen=True)
class SetType(Type):
    elem: Type

    def __str__(self) -> str:
        return f"set<{self.elem}>"


@dataclass(frozen=True)
class MultisetType(Type):
    elem: Type

    def __str__(self) -> str:
        return f"multiset<{self.elem}>"


@dataclass(frozen=True)
class MapType(Type):
    key: Type
    value: Type

    def __str__(self) -> str:
        return f"map<{self.key}, {self.value}>"


@dataclass(frozen=True)
class OptionType(Type):
    elem: Type

    def __str__(self) -> str:
        return f"option<{self.elem}>"


@dataclass(frozen=True)
class TupleType(Type):
    elems: tuple[Type, ...]

    def __str__(self) -> str:
        return "tuple<" + ", ".join(str(e) for e in self.elems) + ">"


@dataclass(frozen=True)
class StructType(Type):
    """A named struct; ``fields`` is filled from the task's ``[structs.NAME]`` table."""

    name: str
    fields: tuple[tuple[str, Type], ...] = field(default=(), compare=False, hash=False)

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class NullableType(Type):
    """A reference that may be ``null`` (Java ``String``, boxed values)."""

    elem: Type

    def __str__(self) -> str:
        return f"nullable<{self.elem}>"


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
