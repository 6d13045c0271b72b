"""Recursive helpers by bounded unfolding, the remainder left uninterpreted.

A recursive definition handed to the solver as an axiom (`define-fun-rec`) is sound only when
it terminates: `f(x) = f(x) + 1` is a contradiction, and from a contradiction the solver proves
anything, so a spec with a non-terminating helper would get decided verdicts and "proved
equivalent" claims that mean nothing. Nothing here proves termination. Instead an encoder
inlines a recursive helper's body at each call, up to ``depth`` nested calls of one helper (and
``budget`` unfolded calls in all), and a call past that is the **remainder**: uninterpreted
functions of the call's arguments for its value and its definedness, defined only where the
encoding's ``cut`` flag allows.

Why that is sound: the true helper (terminating or not) is one interpretation of those
functions, so whatever the solver proves for every interpretation (unsat: a case decided, no
difference, an output pinned) holds for the true one too. Search queries assert
``exact`` (= not ``cut``): every remainder is then undefined, so a model (a difference, a
second output) lies where the unfolding was deep enough to be exact, and the concrete engines
confirm it as any other. A result that depends on the remainder is therefore neither proved nor
found: it is unknown.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import z3

from adequacy.extensions.symbolic import UNFOLD_DEPTH

__all__ = ["BUDGET", "Unfolder"]

BUDGET = 256
"""Unfolded calls in one spec's encoding, all helpers together (a helper that calls itself
twice would otherwise grow as 2^depth)."""


CUT = "unfold!cut"
"""The one flag of every encoding in a query: two specs sharing a helper (the same text) share
its remainder, and must share whether it is defined too, or their definedness would differ
for no reason."""


class Unfolder:
    """The depth bookkeeping and the remainder of one spec's encoding."""

    def __init__(self, depth: int = UNFOLD_DEPTH, budget: int = BUDGET) -> None:
        self.cut = z3.Bool(CUT)
        self.depth = max(0, depth)
        self.budget = max(0, budget)
        self.active: Counter[str] = Counter()
        self.total = 0
        self.used = False

    def may_unfold(self, key: str) -> bool:
        """Whether a call of the helper ``key`` is inlined here (else: the remainder)."""
        return self.active[key] < self.depth and self.total < self.budget

    @contextmanager
    def unfolding(self, key: str) -> Iterator[None]:
        """Around the encoding of one inlined body of ``key``."""
        self.active[key] += 1
        self.total += 1
        try:
            yield
        finally:
            self.active[key] -= 1

    def remainder(self, key: str, args: Sequence[Any], results: Sequence[Any]
                  ) -> tuple[list[Any], Any]:
        """The value terms (one per sort in ``results``) and the definedness of a call of
        ``key`` on ``args`` (Z3 terms) that is not unfolded. ``key`` names the helper by its
        text: two specs whose helpers read the same share the functions (the same helper on
        the same arguments is the same value), different texts never do."""
        self.used = True
        sorts = [a.sort() for a in args]
        sig = hashlib.sha256("\x1f".join([key, *map(str, sorts), *map(str, results)])
                             .encode()).hexdigest()[:12]
        vals = [z3.Function(f"rem!{sig}!{i}", *sorts, r)(*args) for i, r in enumerate(results)]
        defined = z3.Function(f"remd!{sig}", *sorts, z3.BoolSort())(*args)
        return vals, z3.And(self.cut, defined)

    @property
    def exact(self) -> Any | None:
        """What a search query asserts so that no remainder is defined; None when the
        encoding reached no remainder (it is exact everywhere)."""
        return z3.Not(self.cut) if self.used else None
