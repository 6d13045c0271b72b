"""Input promise of linear_search: a is non-null; key is any int."""

from __future__ import annotations

from typing import Any


def valid(input: dict[str, Any]) -> bool:
    return input["a"] is not None
