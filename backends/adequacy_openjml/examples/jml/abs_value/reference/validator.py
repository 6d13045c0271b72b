"""Input promise of abs_value: x is not Integer.MIN_VALUE (any other int is valid)."""

from __future__ import annotations

from typing import Any


def valid(input: dict[str, Any]) -> bool:
    return bool(input["x"] != -(2**31))
