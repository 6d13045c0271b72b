"""Reference for coprime_check, written from statement.md: no common divisor other than 1."""

from __future__ import annotations

import math
from typing import Any


def reference(input: dict[str, Any]) -> dict[str, Any]:
    return {"result": math.gcd(input["a"], input["b"]) == 1}
