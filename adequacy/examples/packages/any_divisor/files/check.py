"""Checker of any_divisor (testlib's exit codes: 0 ok, 1 wrong answer, 2 presentation error,
3 fail): any d with 1 < d < n dividing n, or -1 exactly when n is prime."""
import sys

OK, WA, PE, FAIL = 0, 1, 2, 3


def read_int(path, on_error):
    with open(path, encoding="ascii", errors="replace") as f:
        words = f.read().split()
    if len(words) != 1 or not words[0].lstrip("-").isdigit():
        print(f"expected one integer in {path}", file=sys.stderr)
        sys.exit(on_error)
    return int(words[0])


n = read_int(sys.argv[1], FAIL)
got = read_int(sys.argv[2], PE)
jury = read_int(sys.argv[3], FAIL)
prime = all(n % d for d in range(2, n))
if (jury == -1) != prime:
    print("the jury's answer is wrong", file=sys.stderr)
    sys.exit(FAIL)
if got == -1:
    sys.exit(OK if prime else WA)
if 1 < got < n and n % got == 0:
    sys.exit(OK)
print(f"{got} is not a proper divisor of {n}", file=sys.stderr)
sys.exit(WA)
