"""Reference for is_palindrome, written from statement.md: exact comparison, no case folding."""

from __future__ import annotations

from typing import Any


def reference(input: dict[str, Any]) -> dict[str, Any]:
    s = input["s"]
    return {"result": s == s[::-1]}
