def second_largest(xs: list[int]) -> int:
    top = max(xs)
    return max(x for x in xs if x < top)
