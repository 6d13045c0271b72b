"""Output mutation operators: what a plugin returns from ``adequacy_mutation_operators``.

An operator makes a plausible wrong value of one type constructor from a right one. The
mutators ask the registry for the operators of a type's constructor (``int``, ``seq``, ...;
``adequacy.model.types.CONSTRUCTORS``), in registration order, and try them in an order their
seed shuffles; a nullable type gets its own null operators and its element's, unwrapped. The
built-in ones (docs/mutators.md) register through the same hook as a plugin's.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from adequacy.model.types import Type

__all__ = ["SKIP", "MutationOperator", "OperatorFn"]

SKIP: Any = object()
"""Returned by an operator that does not apply to the value (``seq.swap`` on one element)."""

OperatorFn = Callable[[Any, Any, random.Random], Any]
"""``fn(value, type, rng) -> (inner operator name or "", new value) | SKIP``. ``value`` may be
``None`` (a null array, an empty option): an operator that needs a value returns ``SKIP``.
The result need not validate nor differ from ``value``: the caller keeps only candidates that
are strictly valid and new."""


@dataclass(frozen=True)
class MutationOperator:
    """One named operator of one type constructor."""

    name: str
    """Unique over every plugin, ``<constructor>.<what>`` by convention (``int.plus_one``);
    mutants are named by it (``m-int.plus_one-<hash>``) and chains join names with ``>``."""
    constructor: str
    """The constructor it mutates values of: one of ``CONSTRUCTORS``."""
    fn: OperatorFn
    description: str = ""
    deterministic: bool = False
    """The result does not depend on the random generator: trying it twice on one value is
    useless, so a miss retires it at once."""
    applies: Callable[[Type], bool] | None = None
    """Narrower than the constructor (``array.null``: sequences of kind ``array`` only)."""

    def applies_to(self, ty: Type) -> bool:
        return ty.constructor == self.constructor and (self.applies is None or self.applies(ty))

    def apply(self, value: Any, ty: Type, rng: random.Random) -> tuple[str, Any] | None:
        """The operator's full name and candidate, or None when it does not apply."""
        res = self.fn(value, ty, rng)
        if res is SKIP:
            return None
        inner, new = res
        return (f"{self.name}>{inner}" if inner else self.name), new
