"""Validator of any_divisor: one line holding n (2..10000) without leading zeros."""
import sys

text = sys.stdin.buffer.read().decode("ascii")
if not text.endswith("\n") or text.count("\n") != 1:
    sys.exit(1)
s = text[:-1]
if not s.isdigit() or s[0] == "0":
    sys.exit(1)
sys.exit(0 if 2 <= int(s) <= 10000 else 1)
