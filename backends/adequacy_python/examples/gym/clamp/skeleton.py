from __future__ import annotations


def clamp(x: int, lo: int, hi: int) -> int:
    """
    Return `x` clamped into the range `[lo, hi]`: `lo` when `x` is below it, `hi` when `x` is above
    it, `x` itself otherwise. The caller promises `lo <= hi`.
    """


def pre(x: int, lo: int, hi: int) -> bool:
    """Which inputs clamp accepts."""
    return True


def post(x: int, lo: int, hi: int, result: int) -> bool:
    """Which outputs are correct for such an input."""
    return True
