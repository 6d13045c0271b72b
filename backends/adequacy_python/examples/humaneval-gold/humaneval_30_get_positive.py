def post(l: list[int], result: list[int]) -> bool:
    return result == [e for e in l if e > 0]
