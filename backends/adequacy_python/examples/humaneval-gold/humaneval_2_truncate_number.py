import math


def pre(number: float) -> bool:
    return math.isfinite(number) and number > 0


def post(number: float, result: float) -> bool:
    return 0 <= result < 1 and math.isclose(result, number - math.floor(number),
                                            rel_tol=1e-9, abs_tol=1e-12)
