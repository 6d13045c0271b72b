import icontract


@icontract.ensure(lambda numbers, delimeter, result:
                  len(result) == max(0, 2 * len(numbers) - 1)
                  and result[::2] == numbers
                  and all(d == delimeter for d in result[1::2]))
def intersperse(numbers: list[int], delimeter: int) -> list[int]:
    """Insert delimeter between every two consecutive elements of numbers."""
