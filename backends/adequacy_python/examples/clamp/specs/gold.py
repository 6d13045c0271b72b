def clamp(x: int, lo: int, hi: int) -> int:
    """Return x limited to the closed range [lo, hi]; the range must not be empty."""


def pre(x: int, lo: int, hi: int) -> bool:
    return lo <= hi


def post(x: int, lo: int, hi: int, result: int) -> bool:
    return lo <= result <= hi and (result == x or (x < lo and result == lo)
                                   or (x > hi and result == hi))
