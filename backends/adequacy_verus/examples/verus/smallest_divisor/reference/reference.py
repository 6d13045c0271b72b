"""Reference for smallest_divisor, written from statement.md: least d > 1 dividing n."""

from __future__ import annotations

from typing import Any


def reference(input: dict[str, Any]) -> dict[str, Any]:
    n = input["n"]
    d = 2
    while d * d <= n:
        if n % d == 0:
            return {"result": d}
        d += 1
    return {"result": n}
