assert return_value == [string[:i] for i in range(1, len(string) + 1)]
