assert return_value == "".join(strings)
