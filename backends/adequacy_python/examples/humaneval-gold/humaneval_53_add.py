import deal


@deal.ensure(lambda x, y, result: result == x + y)
def add(x: int, y: int) -> int:
    """Add two numbers x and y."""
