# the assert block (nl2postcond's form): a postcondition over the arguments and return_value
assert lo <= return_value <= hi
assert return_value == x  # wrong when x lies outside the range
