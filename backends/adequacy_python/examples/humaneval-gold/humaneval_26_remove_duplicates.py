def post(numbers: list[int], result: list[int]) -> bool:
    return result == [x for x in numbers if numbers.count(x) == 1]
