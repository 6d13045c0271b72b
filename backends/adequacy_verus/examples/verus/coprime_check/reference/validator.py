"""Input promise of coprime_check: both numbers are positive."""

from __future__ import annotations

from typing import Any


def valid(input: dict[str, Any]) -> bool:
    return input["a"] >= 1 and input["b"] >= 1
