def euclid(a: int, b: int) -> int:
    """The canonical solution's Euclid: its sign follows the last non-zero remainder."""
    while b:
        a, b = b, a % b
    return a


def post(a: int, b: int, result: int) -> bool:
    return result == euclid(a, b) and (result == 0 or (a % result == 0 and b % result == 0))
