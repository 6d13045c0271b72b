"""Input promise of is_palindrome: none; every string, the empty one included, is valid."""

from __future__ import annotations

from typing import Any


def valid(input: dict[str, Any]) -> bool:
    return isinstance(input["s"], str)
