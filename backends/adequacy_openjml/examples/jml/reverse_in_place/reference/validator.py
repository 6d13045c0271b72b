"""Input promise of reverse_in_place: a is non-null (empty is fine)."""

from __future__ import annotations

from typing import Any


def valid(input: dict[str, Any]) -> bool:
    return input["a"] is not None
