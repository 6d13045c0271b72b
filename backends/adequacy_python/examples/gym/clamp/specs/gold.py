def clamp(x: int, lo: int, hi: int) -> int:
    """Return x clamped into the range [lo, hi]; the caller promises lo <= hi."""


def pre(x: int, lo: int, hi: int) -> bool:
    return lo <= hi


def post(x: int, lo: int, hi: int, result: int) -> bool:
    if x < lo:
        return result == lo
    if x > hi:
        return result == hi
    return result == x
