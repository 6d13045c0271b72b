from __future__ import annotations


def second_largest(xs: list[int]) -> int:
    """
    Return the second largest distinct value in `xs`: the largest value that is smaller than the
    maximum. `xs` must hold at least two distinct values (repeats are allowed).
    """


def pre(xs: list[int]) -> bool:
    """Which inputs second_largest accepts."""
    return True


def post(xs: list[int], result: int) -> bool:
    """Which outputs are correct for such an input."""
    return True
