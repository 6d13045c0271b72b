import math


def post(numbers: list[int], result: tuple[int, int]) -> bool:
    return result == (sum(numbers), math.prod(numbers))
