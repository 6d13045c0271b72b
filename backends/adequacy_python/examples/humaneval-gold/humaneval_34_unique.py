def post(l: list[int], result: list[int]) -> bool:
    return result == sorted(set(l))
