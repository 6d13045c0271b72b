def post(n: int, result: int) -> bool:
    return result == (n * (n + 1) // 2 if n >= 1 else 0)
