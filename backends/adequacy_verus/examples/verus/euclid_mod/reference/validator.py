"""Input promise of euclid_mod: the divisor b is not zero (a is any integer)."""

from __future__ import annotations

from typing import Any


def valid(input: dict[str, Any]) -> bool:
    return input["b"] != 0
