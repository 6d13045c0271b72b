import icontract


def runs_ok(s: str, result: list[tuple[str, int]]) -> bool:
    """Each run is a character repeated count >= 1 times, neighbours differ, and the runs
    spell s."""
    if "".join(c * n for c, n in result) != s:
        return False
    if any(len(c) != 1 or n < 1 for c, n in result):
        return False
    return all(a[0] != b[0] for a, b in zip(result, result[1:]))


@icontract.ensure(lambda s, result: runs_ok(s, result))
def run_length(s: str) -> list[tuple[str, int]]:
    """The runs of s."""
