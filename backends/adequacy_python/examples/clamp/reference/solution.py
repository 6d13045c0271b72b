def clamp(x: int, lo: int, hi: int) -> int:
    if lo > hi:
        raise ValueError("empty range")
    return max(lo, min(x, hi))
