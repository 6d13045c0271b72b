# the runs spell s, but neighbouring runs may repeat a character and counts may be 0
assert "".join(c * n for c, n in return_value) == s
