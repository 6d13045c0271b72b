def post(string: str, result: str) -> bool:
    return result == string.swapcase()
