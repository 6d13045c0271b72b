"""What an agent's gym folder says about writing Python specs (the backend's ``gym_texts``).

``{buckets}`` and ``{workflow}`` are the gym's language-independent parts, filled in by core.
"""

from __future__ import annotations

from adequacy.plugin import GymTexts

INTRO = """\
# Write a Python specification

Complete `{spec_file}`: write the body of `pre` (which inputs the function promises to handle:
return a bool) and of `post` (which results are correct for such an input: return a bool, or
`assert` each condition; a failed assertion rejects). The function itself keeps its signature
and docstring and needs no body: it is never run.

You may add helper functions and import `math`, `itertools`, `functools`, `collections`, `re`,
`string` and `operator`. You may not do I/O (`open`, `print`), import anything else, define
classes, use `global`/`nonlocal`, `eval`/`exec`, dunder names or attributes (`__class__`),
`id()`, `hash()`, `is` between values, caches (`functools.lru_cache`), or catch
`BaseException`/`MemoryError`/`RecursionError` (bare `except:` included): such a spec is
invalid, and the line is named.

The decorator forms work too: `@icontract.require(lambda x: ...)` /
`@icontract.ensure(lambda x, result: ...)` or `@deal.pre` / `@deal.post` / `@deal.ensure` on the
function, and top-level `assert` statements over the parameters and `return_value` (a
postcondition).

## How cases reach your spec

Each case's input is passed to `pre` by parameter name; for post buckets the output is passed
too (the result as `result`). JSON in `visible_cases.jsonl` maps to Python values: integers
are `int` (any size), floats `float` (`"NaN"`, `"Infinity"`), strings `str`, arrays `list`,
tuples `tuple`, sets `set`, maps (`[key, value]` pairs) `dict`, `option` (`null` or
`{{"some": v}}`) `None` or the value. Post cases always hold valid inputs: `post` does not need to
repeat `pre`.

{buckets}
{workflow}"""

NOTES = """\
# Python language notes (what the engine decides)

Specs are scored by running `pre` and `post` on each case with Python's own semantics (engine
`exec`: a sandboxed interpreter, a fresh one for each spec; module-level values are made anew
for every case).

- Integers are unbounded; `//` and `%` round toward negative infinity (`-7 // 2 == -4`,
  `-7 % 2 == 1`); `/` is float division.
- Floats follow IEEE 754: `0.1 + 0.2 != 0.3`, `float('nan') != float('nan')`: compare
  computed floats with a tolerance (`math.isclose`, `abs(a - b) <= 1e-6`).
- `all([])` is `True`, `any([])` is `False`; `a < b < c` means `a < b and b < c`.
- Slicing never fails (`s[5:99]` of a short string is shorter); indexing out of range raises.
- A spec that raises (IndexError, ZeroDivisionError, KeyError, ...) is `unknown` on that case,
  and unknown counts as failed: guard what can fail. `AssertionError` is a rejection (false).
- Each case has a time limit; a loop that does not end, too deep a recursion or too much
  memory makes the case unknown.
- Where a value could depend on the interpreter (iteration order of a set of strings, the text
  of a function), the case is evaluated by two interpreters and is unknown when they differ:
  sort a set before you take its first element.
"""


def gym_texts() -> GymTexts:
    return GymTexts(intro=INTRO, notes=NOTES)
