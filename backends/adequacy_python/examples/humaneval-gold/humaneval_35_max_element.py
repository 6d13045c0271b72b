def pre(l: list[int]) -> bool:
    return len(l) > 0


def post(l: list[int], result: int) -> bool:
    return result in l and all(e <= result for e in l)
