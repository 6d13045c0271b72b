"""Input promise of array_sum: a is non-null and the sum of its elements fits in an int."""

from __future__ import annotations

from typing import Any


def valid(input: dict[str, Any]) -> bool:
    a = input["a"]
    return a is not None and -(2**31) <= sum(a) <= 2**31 - 1
