"""Input promise of smallest_divisor: n is at least 2."""

from __future__ import annotations

from typing import Any


def valid(input: dict[str, Any]) -> bool:
    return input["n"] >= 2
