def post(string: str, result: int) -> bool:
    return result == len(string)
