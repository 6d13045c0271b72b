"""Input promise of binary_search_first: arr is sorted non-decreasingly (nothing else)."""

from __future__ import annotations

from typing import Any


def valid(input: dict[str, Any]) -> bool:
    arr = input["arr"]
    return all(a <= b for a, b in zip(arr, arr[1:], strict=False))
