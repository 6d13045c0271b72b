"""Reference for remove_at, written from statement.md: arr without position idx, order kept."""

from __future__ import annotations

from typing import Any


def reference(input: dict[str, Any]) -> dict[str, Any]:
    arr, idx = input["arr"], input["idx"]
    return {"result": arr[:idx] + arr[idx + 1:]}
