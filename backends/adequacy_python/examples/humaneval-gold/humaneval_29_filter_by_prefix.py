import icontract


@icontract.ensure(lambda strings, prefix, result:
                  result == [s for s in strings if s.startswith(prefix)])
def filter_by_prefix(strings: list[str], prefix: str) -> list[str]:
    """Only the strings that start with prefix."""
