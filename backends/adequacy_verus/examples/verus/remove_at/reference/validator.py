"""Input promise of remove_at: idx is a position of arr."""

from __future__ import annotations

from typing import Any


def valid(input: dict[str, Any]) -> bool:
    return 0 <= input["idx"] < len(input["arr"])
