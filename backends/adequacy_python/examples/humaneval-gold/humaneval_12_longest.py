def post(strings: list[str], result: str | None) -> bool:
    if not strings:
        return result is None
    most = max(len(s) for s in strings)
    return result == next(s for s in strings if len(s) == most)
