"""Reference for euclid_mod, written from statement.md: the r with 0 <= r < |b| and b | a - r."""

from __future__ import annotations

from typing import Any


def reference(input: dict[str, Any]) -> dict[str, Any]:
    a, b = input["a"], input["b"]
    # Python's % takes the divisor's sign; with |b| the remainder lies in [0, |b|)
    return {"result": a % abs(b)}
