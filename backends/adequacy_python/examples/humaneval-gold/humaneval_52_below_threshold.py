def post(l: list[int], t: int, result: bool) -> bool:
    return result == all(e < t for e in l)
