"""Input promise of array_max: a is non-null and non-empty."""

from __future__ import annotations

from typing import Any


def valid(input: dict[str, Any]) -> bool:
    a = input["a"]
    return a is not None and len(a) > 0
