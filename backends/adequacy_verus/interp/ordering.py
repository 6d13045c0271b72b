"""One iteration order for unordered spec values, the same in every process.

Python randomises the hashes of strings per process (``PYTHONHASHSEED``), so a ``frozenset``
of chars, strings, structs or enums (their hashes mix in names) is iterated in another order
in each pool worker. Where the order of evaluation can change what is computed (a predicate
that is undefined for one element and true for another, a step limit reached before or after
the element that decides), the same spec on the same case got another verdict in another
process, and the first one was cached. Sets, maps and multisets are therefore iterated in a
canonical order here: integers as they are (their hashes are their values, not randomised),
anything else sorted by a key built from the value's content.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .values import EnumVal, FMap, MSet, StructVal


def order_key(v: Any) -> tuple[Any, ...]:
    """A total order on spec values, by content (never by hash or identity)."""
    t = type(v)
    if t is bool:
        return (0, v)
    if t is int:
        return (1, v)
    if t is str:
        return (2, v)
    if t is float:
        return (3, v)
    if isinstance(v, tuple):  # Seq, Tup
        return (4, tuple(order_key(x) for x in v))
    if t is frozenset:
        return (5, tuple(sorted(order_key(x) for x in v)))
    if isinstance(v, FMap):
        return (6, tuple(sorted((order_key(k), order_key(x)) for k, x in v.items())))
    if t is MSet:
        return (7, tuple(sorted((order_key(k), n) for k, n in v.counts.items())))
    if t is StructVal:
        return (8, v.name, tuple(sorted((k, order_key(x)) for k, x in v.d.items())))
    if t is EnumVal:
        return (9, v.enum, v.variant, tuple(order_key(x) for x in v.vals))
    return (10, t.__name__, repr(v))


def ordered(items: Iterable[Any]) -> list[Any]:
    """``items`` (the members of a set, keys of a map or multiset) in the canonical order."""
    out = list(items)
    if all(type(x) is int for x in out):
        return out if _int_order_is_fixed(items) else sorted(out)
    return sorted(out, key=order_key)


def _int_order_is_fixed(items: Iterable[Any]) -> bool:
    """Integers of a frozenset come out in an order fixed by their values; a dict's keys in
    insertion order, which may itself come from a set of other values: sorted then."""
    return type(items) is frozenset


__all__ = ["order_key", "ordered"]
