"""Lean types as VERINA writes them in signatures, and their image in our type language.

The Lean type is kept as its own small tree (not only the mapped schema type) because the value
printer needs the Lean shape: ``List`` and ``Array`` map to the same ``seq<T>`` but print as
``[..]`` and ``#[..]``, and VERINA's task-local ``Map K V`` structure maps to a sequence of pairs
but prints as ``⟨[..]⟩``.
"""

from __future__ import annotations

from dataclasses import dataclass

from adequacy.plugin import DatasetError, Type, parse_type

#: Lean numeric types with an exact fixed-width image. ``Int``/``Nat`` are unbounded in Lean;
#: mapping them to 64 bits is the importer's one deliberate narrowing, and values that do not fit
#: make their case (and by default the task) fail to convert instead of wrapping.
_SCALARS: dict[str, str] = {
    "Int": "i64", "Nat": "u64", "Bool": "bool", "Char": "char", "String": "string",
    "UInt8": "u8", "UInt16": "u16", "UInt32": "u32", "UInt64": "u64",
    "Int8": "i8", "Int16": "i16", "Int32": "i32", "Int64": "i64", "USize": "usize",
}
_UNARY = {"List", "Array", "Option"}
_BINARY = {"Prod", "Map"}

#: Lean types we recognise but refuse, with the reason shown in import reports.
_REFUSED: dict[str, str] = {
    "Float": "Float: the Verus spec fragment has no floating-point arithmetic or literals, so no "
             "spec could decide these cases",
    "Prop": "Prop: a proposition is not a runtime value",
    "HashMap": "HashMap: Std.HashMap values have no printed form in VERINA's tests",
    "HashSet": "HashSet: Std.HashSet values have no printed form in VERINA's tests",
    "Std.HashMap": "HashMap: Std.HashMap values have no printed form in VERINA's tests",
    "Rat": "Rat: rational numbers have no type in the exec_spec fragment",
    "Real": "Real: real numbers have no type in the exec_spec fragment",
}


class LeanTypeError(DatasetError):
    """A Lean type that does not parse or has no image in the type language (message = reason;
    ``what`` names the offending type for grouping refusals)."""

    def __init__(self, message: str, what: str = "") -> None:
        super().__init__(message)
        self.what = what


@dataclass(frozen=True)
class LeanType:
    """``head`` is a scalar name, ``List``/``Array``/``Option``/``Prod``/``Map`` or ``Fun``."""

    head: str
    args: tuple[LeanType, ...] = ()

    def __str__(self) -> str:
        if self.head == "Prod":
            return "(" + " × ".join(str(a) for a in self.args) + ")"
        if self.head == "Fun":
            return f"({self.args[0]} -> {self.args[1]})"
        if not self.args:
            return self.head
        return self.head + " " + " ".join(
            f"({a})" if a.args and a.head not in ("Prod", "Fun") else str(a) for a in self.args)


def _tokenize(text: str) -> list[str]:
    out: list[str] = []
    i = 0
    while i < len(text):
        c = text[i]
        if c.isspace():
            i += 1
        elif c in "()×":
            out.append(c)
            i += 1
        elif text.startswith("->", i) or c == "→":
            out.append("->")
            i += 1 if c == "→" else 2
        elif c.isalnum() or c in "_.":
            j = i
            while j < len(text) and (text[j].isalnum() or text[j] in "_."):
                j += 1
            out.append(text[i:j])
            i = j
        else:
            raise LeanTypeError(f"unexpected character {c!r} in Lean type {text!r}")
    return out


def parse_lean_type(text: str) -> LeanType:
    """Parse a VERINA signature type: ``List (Nat × Nat)``, ``Prod Int Int``, ``Int -> Bool``.

    ``×`` is right-associative as in Lean, and ``A × B × C`` flattens into one three-element
    product, which is also how Lean prints its values: ``(a, b, c)``.
    """
    toks = _tokenize(text)
    pos = 0

    def peek() -> str | None:
        return toks[pos] if pos < len(toks) else None

    def take() -> str:
        nonlocal pos
        if pos >= len(toks):
            raise LeanTypeError(f"Lean type {text!r} ends too early")
        pos += 1
        return toks[pos - 1]

    def atom() -> LeanType:
        t = take()
        if t == "(":
            inner = arrow()
            if take() != ")":
                raise LeanTypeError(f"unbalanced parentheses in Lean type {text!r}")
            return inner
        if t in (")", "×", "->"):
            raise LeanTypeError(f"unexpected {t!r} in Lean type {text!r}")
        return LeanType(t)

    def app() -> LeanType:
        head = atom()
        if head.args or head.head not in _UNARY | _BINARY:
            args: list[LeanType] = []
            # a non-constructor applied to arguments (``HashMap Int Nat``): keep it for refusal
            while peek() not in (None, ")", "×", "->"):
                args.append(atom())
            return LeanType(head.head, tuple(args)) if args else head
        n = 1 if head.head in _UNARY else 2
        args = [atom() for _ in range(n)]
        if head.head == "Prod":
            return _flatten_prod(args[0], args[1])
        return LeanType(head.head, tuple(args))

    def prod() -> LeanType:
        left = app()
        if peek() == "×":
            take()
            return _flatten_prod(left, prod())
        return left

    def arrow() -> LeanType:
        left = prod()
        if peek() == "->":
            take()
            return LeanType("Fun", (left, arrow()))
        return left

    result = arrow()
    if pos != len(toks):
        raise LeanTypeError(f"unexpected {toks[pos]!r} in Lean type {text!r}")
    return result


def _flatten_prod(left: LeanType, right: LeanType) -> LeanType:
    rest = right.args if right.head == "Prod" else (right,)
    return LeanType("Prod", (left, *rest))


def schema_text(lt: LeanType) -> str:
    """The type-language spelling of a Lean type, or ``LeanTypeError`` with the refusal reason."""
    h = lt.head
    if h in _SCALARS and not lt.args:
        return _SCALARS[h]
    if h in ("List", "Array"):
        return f"seq<{schema_text(lt.args[0])}>"
    if h == "Option":
        return f"option<{schema_text(lt.args[0])}>"
    if h == "Prod":
        return "tuple<" + ", ".join(schema_text(a) for a in lt.args) + ">"
    if h == "Map":
        # VERINA's task-local `structure Map K V where entries : List (K × V)`, compared with
        # List.beq: an ordered association list (duplicate keys possible), not a finite map.
        return f"seq<tuple<{schema_text(lt.args[0])}, {schema_text(lt.args[1])}>>"
    if h == "Fun":
        raise LeanTypeError(f"function type {lt}: a function value cannot be a test input",
                            "function")
    if h in _REFUSED:
        raise LeanTypeError(_REFUSED[h], h)
    raise LeanTypeError(f"unknown Lean type {lt}: no mapping to the type language", h)


def schema_type(lt: LeanType) -> Type:
    return parse_type(schema_text(lt))
