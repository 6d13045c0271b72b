import icontract


@icontract.require(lambda lo, hi: lo <= hi)
@icontract.ensure(lambda lo, hi, result: lo <= result <= hi)  # any value in range passes
def clamp(x: int, lo: int, hi: int) -> int:
    """Return x limited to the closed range [lo, hi]."""
