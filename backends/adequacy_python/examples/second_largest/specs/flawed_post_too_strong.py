def pre(xs: list[int]) -> bool:
    return len(set(xs)) >= 2


def post(xs: list[int], result: int) -> bool:
    ordered = sorted(xs)
    return result == ordered[-2]  # the second element of the sorted list, not the second value
