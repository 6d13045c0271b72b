"""Candidate clauses as plain data: the part of the template writers a backend renders.

A backend turns these into its language's text (``Backend.render_clauses``), so the atoms live
in core where a third-party backend can import them (``adequacy.plugin``), while enumerating
them from a task's schema stays with the optimizers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from adequacy.model.types import Type

Side = Literal["in", "out"]
Op = Literal["<", "<=", "==", "!=", ">=", ">"]


@dataclass(frozen=True)
class Var:
    side: Side
    name: str
    type: Type


@dataclass(frozen=True)
class Len:
    of: Var


@dataclass(frozen=True)
class Const:
    value: int | bool


Term = Var | Len | Const


@dataclass(frozen=True)
class Cmp:
    left: Term
    op: Op
    right: Term


@dataclass(frozen=True)
class Sorted:
    seq: Var


@dataclass(frozen=True)
class AllElems:
    """Every element of ``seq`` stands in ``op`` to ``right``."""

    seq: Var
    op: Op
    right: Term


@dataclass(frozen=True)
class Member:
    seq: Var
    item: Term


@dataclass(frozen=True)
class IndexIn:
    index: Term
    seq: Var


@dataclass(frozen=True)
class Pointwise:
    """Same length, and ``left[i] op right[i]`` for every index."""

    left: Var
    op: Op
    right: Var


@dataclass(frozen=True)
class AllIn:
    """Every element of ``inner`` occurs in ``outer``."""

    inner: Var
    outer: Var


@dataclass(frozen=True)
class NonNull:
    var: Var


@dataclass(frozen=True)
class Iff:
    """A boolean output equals a property of the inputs."""

    out: Var
    atom: Atom


Atom = Cmp | Sorted | AllElems | Member | IndexIn | Pointwise | AllIn | NonNull | Iff


@dataclass(frozen=True)
class Clause:
    where: Literal["pre", "post"]
    atom: Atom


def atom_vars(x: object) -> list[Var]:
    """The variables an atom (or term) mentions, in order: a renderer checks their types."""
    if isinstance(x, Var):
        return [x]
    if isinstance(x, Len):
        return [x.of]
    fields = getattr(type(x), "__dataclass_fields__", None)
    if fields:
        return [v for f in fields for v in atom_vars(getattr(x, f))]
    return []

