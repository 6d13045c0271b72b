"""Reference for binary_search_first, written from statement.md: the smallest index of target."""

from __future__ import annotations

from typing import Any


def reference(input: dict[str, Any]) -> dict[str, Any]:
    arr = input["arr"]
    target = input["target"]
    for i, x in enumerate(arr):
        if x == target:
            return {"result": {"some": i}}
    return {"result": None}
