"""Input promise of count_in_range: the closed range is not empty."""

from __future__ import annotations

from typing import Any


def valid(input: dict[str, Any]) -> bool:
    return input["lo"] <= input["hi"]
