"""Reference for count_in_range, written from statement.md: elements x with lo <= x <= hi."""

from __future__ import annotations

from typing import Any


def reference(input: dict[str, Any]) -> dict[str, Any]:
    lo, hi = input["lo"], input["hi"]
    return {"result": sum(1 for x in input["arr"] if lo <= x <= hi)}
