"""The input domain each HumanEval docstring states, read by hand, as a validator expression.

HumanEval ships tests of valid inputs only; its docstrings say which inputs are valid ("Given
a positive integer n", "a non-empty list", "Restrictions: 1 <= num <= 1000", "you may assume
the input string contains only letters and spaces"). Each entry quotes the words and states
them as a Python expression over the task's JSON values (tuples are lists), which becomes the
task's ``reference/validator.py``: the oracle that labels generated inputs invalid, and the
reason no ``every_input_valid`` is inferred for the task. A problem whose docstring states no
domain has no entry; for it, ``adequacy cases generate`` labels only the inputs the canonical
solution raises on as invalid, and infers ``every_input_valid`` where it raises on none.

The importer checks every entry against the problem's own tests: a domain that rejects a
tested input contradicts the dataset and is dropped with a note (HumanEval/116 says
"non-negative integers" and tests negative ones; HumanEval/149 says "all words will have the
same length" and tests words of different lengths: neither has an entry).
"""

from __future__ import annotations

#: HumanEval number -> (the docstring's words, the validator expression).
DOMAINS: dict[int, tuple[str, str]] = {
    1: ("a string containing multiple groups of nested parentheses ... Separate groups are "
        "balanced ... Ignore any spaces",
        "set(paren_string) <= set('() ') and _balanced(paren_string.replace(' ', ''), '(', ')')"),
    2: ("Given a positive floating point number", "_real(number) and number > 0"),
    6: ("a string represented multiple groups for nested parentheses separated by spaces",
        "set(paren_string) <= set('() ') and all(_balanced(g, '(', ')') "
        "for g in paren_string.split(' '))"),
    11: ("two strings a and b consisting only of 1s and 0s",
         "set(a) <= set('01') and set(b) <= set('01')"),
    17: ("a string representing musical notes in a special ASCII format ... 'o' ... 'o|' ... "
         "'.|'", "all(t in ('o', 'o|', '.|') for t in music_string.split(' ') if t)"),
    19: ("a space-delimited string of numberals from 'zero' to 'nine'. Valid choices are ...",
         "all(w in ('zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', "
         "'nine') for w in numbers.split(' ') if w)"),
    20: ("a supplied list of numbers (of length at least two)",
         "len(numbers) >= 2 and all(_real(x) for x in numbers)"),
    21: ("Given list of numbers (of at least two elements)",
         "len(numbers) >= 2 and all(_real(x) for x in numbers)"),
    32: ("find_zero only takes list xs having even number of coefficients and largest non zero "
         "coefficient", "len(xs) >= 2 and len(xs) % 2 == 0 and _real(xs[-1]) and xs[-1] != 0 "
         "and all(_real(x) for x in xs)"),
    39: ("prime_fib returns n-th number", "n >= 1"),
    41: ("n cars are driving left to right", "n >= 0"),
    44: ("base numbers are less than 10", "2 <= base < 10"),
    45: ("Given length of a side and high", "a > 0 and h > 0"),
    46: ("compute the n-th element of the fib4 number sequence", "n >= 0"),
    49: ("Return 2^n modulo p", "n >= 0 and p >= 1"),
    50: ("takes as input string encoded with encode_shift function (which maps every character "
         "to a lowercase letter)", "all('a' <= c <= 'z' for c in s)"),
    55: ("Return n-th Fibonacci number", "n >= 0"),
    56: ('brackets is a string of "<" and ">"', "set(brackets) <= set('<>')"),
    59: ("Assume n > 1 and is not a prime", "n > 1 and not _prime(n)"),
    61: ('brackets is a string of "(" and ")"', "set(brackets) <= set('()')"),
    63: ("compute the n-th element of the fibfib number sequence", "n >= 0"),
    67: ("a string that represents a number of apples and oranges ... an integer that represent "
         "the total number of the fruits",
         "_fruits(s) is not None and n >= _fruits(s)"),
    68: ("an array representing a branch of a tree that has non-negative integer nodes",
         "all(x >= 0 for x in arr)"),
    69: ("You are given a non-empty list of positive integers",
         "len(lst) >= 1 and all(x > 0 for x in lst)"),
    75: ("Knowing that (a) is less then 100", "a < 100"),
    78: ("you may assume the input is always correct or empty string, and symbols A,B,C,D,E,F are "
         "always uppercase", "all(c in '0123456789ABCDEF' for c in num)"),
    81: ("a list of GPAs ... 4.0 A+ ... 0.0 E", "all(_real(g) and 0 <= g <= 4 for g in grades)"),
    83: ("Given a positive integer n", "n >= 1"),
    84: ("Constraints: 0 <= N <= 10000", "0 <= N <= 10000"),
    85: ("Given a non-empty list of integers lst", "len(lst) >= 1"),
    88: ("Given an array of non-negative integers", "all(x >= 0 for x in array)"),
    93: ("Assume only letters (the tests add spaces)",
         "all(c in _LETTERS or c == ' ' for c in message)"),
    96: ("takes an non-negative integer", "n >= 0"),
    99: ("a value (string) representing a number", "_decimal(value)"),
    100: ("Given a positive integer n", "n >= 1"),
    102: ("takes two positive numbers x and y", "x > 0 and y > 0"),
    104: ("Given a list of positive integers x", "all(e > 0 for e in x)"),
    106: ("returns a list of size n", "n >= 0"),
    107: ("Given a positive integer n ... 1 <= n <= 10^3", "1 <= n <= 1000"),
    109: ("The given list is guaranteed to have unique elements", "len(set(arr)) == len(arr)"),
    110: ("It is assumed that the input lists will be non-empty",
         "len(lst1) >= 1 and len(lst2) >= 1"),
    111: ("a string representing a space separated lowercase letters",
         "all(len(t) == 1 and 'a' <= t <= 'z' for t in test.split(' ') if t)"),
    113: ("each string consists of only digits",
         "all(all(c in '0123456789' for c in s) for s in lst)"),
    115: ("all wells have the same length; 1 <= grid.length <= 10^2; 1 <= grid[:,1].length <= "
          "10^2; grid[i][j] -> 0 | 1; 1 <= capacity <= 10",
          "1 <= len(grid) <= 100 and 1 <= len(grid[0]) <= 100 and all(len(r) == len(grid[0]) "
          "for r in grid) and all(v in (0, 1) for r in grid for v in r) and "
          "1 <= capacity <= 10"),
    117: ("a natural number n ... you may assume the input string contains only letters and "
          "spaces", "n >= 0 and all(c in _LETTERS or c == ' ' for c in s)"),
    118: ("You may assume that the given string contains English letter only",
          "all(c in _LETTERS for c in word)"),
    119: ("a list of two strings, both strings consist of open parentheses '(' or close "
          "parentheses ')' only", "len(lst) == 2 and all(set(s) <= set('()') for s in lst)"),
    120: ("The length of the array will be in the range of [1, 1000]. The elements in the array "
          "will be in the range of [-1000, 1000]. 0 <= k <= len(arr)",
          "1 <= len(arr) <= 1000 and all(-1000 <= x <= 1000 for x in arr) and "
          "0 <= k <= len(arr)"),
    121: ("Given a non-empty list of integers", "len(lst) >= 1"),
    122: ("1 <= len(arr) <= 100; 1 <= k <= len(arr)", "1 <= len(arr) <= 100 and 1 <= k <= len(arr)"),
    123: ("Given a positive integer n", "n >= 1"),
    126: ("Assume no negative numbers and only integers", "all(x >= 0 for x in lst)"),
    127: ("each interval is a pair of integers ... it is assumed that its start is less or equal "
          "its end", "interval1[0] <= interval1[1] and interval2[0] <= interval2[1]"),
    129: ("a grid with N rows and N columns (N >= 2) and a positive integer k ... Every integer in "
          "the range [1, N * N] inclusive appears exactly once",
          "len(grid) >= 2 and all(len(r) == len(grid) for r in grid) and "
          "sorted(v for r in grid for v in r) == list(range(1, len(grid) ** 2 + 1)) and k >= 1"),
    130: ("You are given a non-negative integer number n", "n >= 0"),
    131: ("Given a positive integer n", "n >= 1"),
    132: ("a string as input which contains only square brackets", "set(string) <= set('[]')"),
    135: ("The given array will not contain duplicate values", "len(set(arr)) == len(arr)"),
    139: ("where n > 0", "n > 0"),
    143: ("1 <= len(sentence) <= 100; sentence contains only letters (words separated by a "
          "space)", "1 <= len(sentence) <= 100 and all(c in _LETTERS or c == ' ' "
          "for c in sentence)"),
    144: ("<numerator>/<denominator> where both numerator and denominator are positive whole "
          "numbers", "_fraction(x) and _fraction(n)"),
    147: ("You are given a positive integer n", "n >= 1"),
    152: ("two arrays of scores and guesses of equal length", "len(game) == len(guess)"),
    156: ("Restrictions: 1 <= num <= 1000", "1 <= number <= 1000"),
    158: ("The list contains different words", "len(set(words)) == len(words)"),
    159: ("0 <= number <= 1000; 0 <= need <= 1000; 0 <= remaining <= 1000",
          "0 <= number <= 1000 and 0 <= need <= 1000 and 0 <= remaining <= 1000"),
    160: ("The length of operator list is equal to the length of operand list minus one. Operand "
          "is a list of of non-negative integers. Operator list has at least one operator, and "
          "operand list has at least two operands (+ - * // **)",
          "len(operand) >= 2 and len(operator) == len(operand) - 1 and all(x >= 0 for x in "
          "operand) and all(o in ('+', '-', '*', '//', '**') for o in operator)"),
    163: ("Given two positive integers a and b", "a >= 1 and b >= 1"),
}

#: Problems whose values no one task type can hold, with why.
UNTYPED: dict[int, str] = {
    22: "its list holds values of any type (List[Any])",
    92: "it tells integers from floats (any_int(3.6, -2.2, 2)), which one number type cannot",
    137: "it takes integers, floats or strings and returns the larger in its own type",
    151: "it ignores numbers that are not integers (5.0 against 5), which one number type "
         "cannot tell",
}

#: Problems with several right outputs: (the docstring's words, a checker's expression over
#: ``inp`` and ``out``, the test's own acceptance). Their tasks say ``unique_output = false``
#: and carry ``reference/checker.py``, so a mutated output is labelled wrong only when the
#: checker rejects it, never for differing from the canonical solution's choice.
CHECKERS: dict[int, tuple[str, str]] = {
    32: ("find_zero returns only only zero point, even if there are many (the test accepts "
         "|poly(xs, x)| < 1e-4)",
         "isinstance(out['result'], (int, float)) and math.isfinite(out['result']) and "
         "abs(sum(c * out['result'] ** i for i, c in enumerate(inp['xs']))) < 1e-4"),
}


def checker(number: int) -> str | None:
    """``reference/checker.py`` for a problem with several right outputs, or None."""
    if number not in CHECKERS:
        return None
    words, expr = CHECKERS[number]
    return (f'"""The right outputs of HumanEval/{number}: {words}."""\n\nimport math\n\n\n'
            f"def check(inp, out):\n    try:\n        return bool({expr})\n"
            "    except (TypeError, ValueError, OverflowError, KeyError):\n        return False\n")


HELPERS = '''\
import math
import re
import string

_LETTERS = string.ascii_letters


def _real(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def _prime(n):
    return n > 1 and all(n % d for d in range(2, math.isqrt(n) + 1))


def _balanced(s, open_, close):
    depth = 0
    for c in s:
        depth += 1 if c == open_ else -1 if c == close else 0
        if depth < 0:
            return False
    return depth == 0


def _fruits(s):
    m = re.fullmatch(r"(\\d+) apples and (\\d+) oranges", s)
    return int(m.group(1)) + int(m.group(2)) if m else None


def _decimal(s):
    return re.fullmatch(r"[+-]?(\\d+(\\.\\d*)?|\\.\\d+)", s) is not None


def _fraction(s):
    m = re.fullmatch(r"(\\d+)/(\\d+)", s)
    return m is not None and int(m.group(1)) > 0 and int(m.group(2)) > 0
'''


def validator(number: int, params: list[str]) -> str | None:
    """``reference/validator.py`` for HumanEval/``number``, or None when it states no domain."""
    if number not in DOMAINS:
        return None
    words, expr = DOMAINS[number]
    unpack = "".join(f"    {p} = inp[{p!r}]\n" for p in params)
    quoted = words.replace('"""', "'''")
    return (f'"""The valid inputs of HumanEval/{number}, as its docstring states them:\n\n'
            f'    {quoted}\n"""\n\n{HELPERS}\n\n'
            f"def valid(inp):\n{unpack}    try:\n        return bool({expr})\n"
            "    except (TypeError, ValueError, IndexError, KeyError):\n        return False\n")
