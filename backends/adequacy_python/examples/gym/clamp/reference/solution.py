def clamp(x: int, lo: int, hi: int) -> int:
    if lo > hi:
        raise ValueError("lo > hi")
    return max(lo, min(x, hi))
