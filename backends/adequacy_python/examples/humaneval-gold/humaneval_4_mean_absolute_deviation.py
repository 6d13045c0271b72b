import math


def pre(numbers: list[float]) -> bool:
    return len(numbers) > 0


def post(numbers: list[float], result: float) -> bool:
    mean = sum(numbers) / len(numbers)
    mad = sum(abs(x - mean) for x in numbers) / len(numbers)
    if math.isnan(mad):
        return math.isnan(result)
    return math.isclose(result, mad, rel_tol=1e-9, abs_tol=1e-12)
