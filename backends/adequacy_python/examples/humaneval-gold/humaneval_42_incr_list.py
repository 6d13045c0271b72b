def post(l: list[int], result: list[int]) -> bool:
    return result == [e + 1 for e in l]
