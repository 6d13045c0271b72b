"""What an agent's gym folder says about writing Verus specs (the backend's ``gym_texts``).

Kept with the backend: the texts name the language's syntax and what its engines decide, and a
new language brings its own without an edit to core. ``{buckets}`` and ``{workflow}`` are the
gym's language-independent parts, filled in by ``adequacy.gym.texts``.
"""

from __future__ import annotations

from adequacy.plugin import GymTexts

INTRO = """\
# Write a Verus specification

Complete `{spec_file}`: fill the bodies of `pre_spec` (which inputs the function promises to
handle) and `post_spec` (which outputs are correct for such an input). The file is Rust with
Verus; everything sits inside `exec_spec_unverified! {{ ... }}`.

You may add helper `spec fn`s (and structs or enums) inside the block. You may not change the
`Input` and `Output` structs, the two signatures, or add `exec`/`proof` code, `unsafe`,
`extern`, `include!`, `env!`, `#[path]` or modules: such a spec is invalid.

## How cases reach your spec

Each case's input becomes an `Input` value and, for post buckets, its output an `Output` value
(JSON in `visible_cases.jsonl`: integers of any size, sequences and sets as arrays, `option` as
`null` or `{{"some": v}}`, `char` as a one-character string, maps as `[key, value]` pairs). Then
`pre_spec(input)` is evaluated for pre buckets and `post_spec(input, output)` for post buckets.
Post cases always hold valid inputs: `post_spec` does not need to repeat `pre_spec`.

{buckets}
{workflow}"""

NOTES = """\
# Verus language notes (what the engines decide)

Specs are scored by evaluating `pre_spec` and `post_spec` on concrete values, with Verus spec
semantics (engine `interp`; the real `exec_spec_unverified!` macro of vstd where cargo is
installed, engine `exec_spec`).

- Integers in spec code are mathematical: `+ - *` never overflow; `/` and `%` on `int` are
  Euclidean (`-7 / 2 == -4`, `-7 % 2 == 1`). Cast with `as int` before subtracting `usize`s.
- `Seq<T>`: `s.len()`, `s[i]` (with `i: int`; out of range is undefined, so guard it),
  `s.subrange(lo, hi)`, `s.push(x)`, `s + t`, `s.contains(x)`, `s.take(n)`, `s.skip(n)`,
  `s.first()`, `s.last()`, `s.to_multiset()`, `seq![1, 2]`. Strings are `SpecString`
  (`Seq<char>`).
- `Set<T>`, `Multiset<T>`, `Map<K, V>`, `Option<T>` (`Some(x)`, `None`, `match`,
  `is_some()`, `unwrap()` only when known `Some`), tuples, structs, enums, `if`/`else`,
  `match`, `let`.
- Quantifiers must be bounded by their guard: `forall|i: int| 0 <= i < s.len() ==> ...`,
  `exists|i: int| 0 <= i < s.len() && ...`. An unbounded quantifier is undecidable here and
  the case is unknown.
- Recursive helper `spec fn`s are fine when they terminate on the case values (add a
  `decreases` clause as Verus wants).
- `choose` is unknown unless exactly one value satisfies it: prefer an explicit definition.
- What the engines cannot decide is reported as `unknown` with a reason; unknown counts as failed.
"""


def gym_texts() -> GymTexts:
    return GymTexts(intro=INTRO, notes=NOTES)
