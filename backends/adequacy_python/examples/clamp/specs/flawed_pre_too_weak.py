def pre(x: int, lo: int, hi: int) -> bool:
    return True


def post(x: int, lo: int, hi: int, result: int) -> bool:
    return result == max(lo, min(x, hi))
