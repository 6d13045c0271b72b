from __future__ import annotations


def run_length(s: str) -> list[tuple[str, int]]:
    """
    Encode `s` as its runs: a list of `(character, count)` pairs, one for each maximal run of equal
    consecutive characters, in order. The empty string has no runs. Every string is a valid input.
    """


def pre(s: str) -> bool:
    """Which inputs run_length accepts."""
    return True


def post(s: str, result: list[tuple[str, int]]) -> bool:
    """Which outputs are correct for such an input."""
    return True
