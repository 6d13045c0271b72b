def post(strings: list[str], substring: str, result: list[str]) -> bool:
    return result == [s for s in strings if substring in s]
