def post(n: int, result: str) -> bool:
    return result == " ".join(str(i) for i in range(n + 1))
