def pre(xs: list[int]) -> bool:
    return len(set(xs)) >= 2


def post(xs: list[int], result: int) -> bool:
    assert result in xs
    assert result < max(xs)  # any smaller value passes
