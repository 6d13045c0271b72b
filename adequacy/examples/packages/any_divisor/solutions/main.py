"""Main solution of any_divisor: the smallest proper divisor, or -1."""
n = int(input())
print(next((d for d in range(2, n) if n % d == 0), -1))
