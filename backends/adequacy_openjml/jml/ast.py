"""Our own AST of JML expressions (what the rac translator and the stub renderer walk)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Expr:
    line: int


@dataclass(frozen=True)
class Lit(Expr):
    kind: str
    """``int``, ``long``, ``float``, ``double``, ``char``, ``string``, ``bool``, ``null``."""
    value: object
    text: str


@dataclass(frozen=True)
class Name(Expr):
    id: str


@dataclass(frozen=True)
class Result(Expr):
    pass


@dataclass(frozen=True)
class Old(Expr):
    expr: Expr


@dataclass(frozen=True)
class Field(Expr):
    obj: Expr
    name: str


@dataclass(frozen=True)
class Index(Expr):
    arr: Expr
    index: Expr


@dataclass(frozen=True)
class Call(Expr):
    target: Expr | None
    """None: an unqualified call (a method of the spec's class)."""
    name: str
    args: tuple[Expr, ...]


@dataclass(frozen=True)
class Unary(Expr):
    op: str
    expr: Expr


@dataclass(frozen=True)
class Binary(Expr):
    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True)
class Chain(Expr):
    """``a < b <= c``: JML's chained comparison, meaning ``a < b && b <= c``."""

    ops: tuple[str, ...]
    operands: tuple[Expr, ...]


@dataclass(frozen=True)
class Cond(Expr):
    cond: Expr
    then: Expr
    other: Expr


@dataclass(frozen=True)
class Cast(Expr):
    type: str
    expr: Expr


@dataclass(frozen=True)
class InstanceOf(Expr):
    expr: Expr
    type: str


@dataclass(frozen=True)
class Quant(Expr):
    kind: str
    """``forall``, ``exists``, ``num_of``, ``sum``, ``product``, ``max``, ``min``."""
    type: str
    vars: tuple[str, ...]
    range: Expr | None
    body: Expr


@dataclass(frozen=True)
class Special(Expr):
    """Other backslash functions: ``\\nonnullelements(a)``, ``\\fresh(e)``, ``\\typeof(e)``..."""

    name: str
    args: tuple[Expr, ...]


@dataclass(frozen=True)
class New(Expr):
    """``new T(args)``, ``new T[n]...`` or ``new T[]{e, ...}``: valid JML (OpenJML verifies
    specs that allocate, JML RM 12.4), which the front end accepts and an engine that cannot
    evaluate it answers ``unknown`` for."""

    type: str
    """The class or element type as written (``Factorial``, ``int``)."""
    args: tuple[Expr, ...]
    """Constructor arguments (empty for an array)."""
    dims: tuple[Expr, ...] = ()
    """Array lengths given (``new int[n][]`` has one); empty for an object."""
    brackets: int = 0
    """Every ``[]`` pair, with or without a length (0 for an object)."""
    elements: tuple[Expr, ...] | None = None
    """An array initializer's elements (``new int[]{1, 2}``), else None."""


@dataclass(frozen=True)
class TypeRef(Expr):
    """A class name used as a qualifier (``Math`` in ``Math.abs(x)``)."""

    name: str


def balanced(line: int, op: str, operands: list[Expr]) -> Expr:
    """``a op b op c op d`` as ``(a op b) op (c op d)`` for an associative ``op``: the same
    operands in the same order (so the same short-circuits), depth log2(n) instead of n."""
    if len(operands) == 1:
        return operands[0]
    mid = len(operands) // 2
    return Binary(line, op, balanced(line, op, operands[:mid]),
                  balanced(line, op, operands[mid:]))


def children(e: Expr) -> list[Expr]:
    """The expressions directly below ``e``, in field order: the one child walk every pass over
    the tree uses (a node's fields are expressions or tuples of them)."""
    kids: list[Expr] = []
    for v in e.__dict__.values():
        if isinstance(v, Expr):
            kids.append(v)
        elif isinstance(v, tuple):
            kids.extend(y for y in v if isinstance(y, Expr))
    return kids


def walk(e: Expr) -> list[Expr]:
    """Every node of the tree, pre-order (iterative: hostile trees may be deep)."""
    out: list[Expr] = []
    stack = [e]
    while stack:
        x = stack.pop()
        out.append(x)
        stack.extend(reversed(children(x)))
    return out
