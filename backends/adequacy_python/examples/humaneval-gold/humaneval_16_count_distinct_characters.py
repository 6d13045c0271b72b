import deal


@deal.post(lambda result: result >= 0)
@deal.ensure(lambda string, result: result == len({c.lower() for c in string}))
def count_distinct_characters(string: str) -> int:
    """How many distinct characters, regardless of case."""
