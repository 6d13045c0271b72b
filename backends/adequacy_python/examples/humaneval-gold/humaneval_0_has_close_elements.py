def pre(numbers: list[float], threshold: float) -> bool:
    return True


def post(numbers: list[float], threshold: float, result: bool) -> bool:
    close = any(abs(a - b) < threshold
                for i, a in enumerate(numbers) for j, b in enumerate(numbers) if i != j)
    return result == close
