"""Input promise of is_prime: 0 <= n <= 100000."""

from __future__ import annotations

from typing import Any


def valid(input: dict[str, Any]) -> bool:
    return bool(0 <= input["n"] <= 100000)
