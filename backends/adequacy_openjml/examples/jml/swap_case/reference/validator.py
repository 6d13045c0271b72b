"""Input promise of swap_case: s is non-null (any characters)."""

from __future__ import annotations

from typing import Any


def valid(input: dict[str, Any]) -> bool:
    return input["s"] is not None
