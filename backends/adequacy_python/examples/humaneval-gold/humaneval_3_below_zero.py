import itertools

# nl2postcond's assert block: the balance dips below zero at some prefix exactly when True
assert return_value == any(b < 0 for b in itertools.accumulate(operations))
