# nl2postcond's assert block: the runs spell s ... and every count is 1 (too strong)
assert "".join(c * n for c, n in return_value) == s
assert all(n == 1 for _, n in return_value)
