def post(numbers: list[int], result: list[int]) -> bool:
    return len(result) == len(numbers) and all(
        result[i] == max(numbers[:i + 1]) for i in range(len(numbers)))
