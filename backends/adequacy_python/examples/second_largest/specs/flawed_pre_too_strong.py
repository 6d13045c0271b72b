import deal


@deal.pre(lambda xs: len(set(xs)) == len(xs) >= 2)  # refuses repeated values
@deal.ensure(lambda xs, result: result in xs and result < max(xs)
             and all(x <= result for x in xs if x != max(xs)))
def second_largest(xs: list[int]) -> int:
    """The largest value of xs that is smaller than its maximum."""
