"""The texts a gym folder gives an agent: instructions and language notes, per language.

Written for a model that has never seen this project: what the task is, what each bucket asks,
how cases reach the spec, what the engines decide, and a strategy that works. Kept here (not in
the task) so every folder of a language reads the same and an improvement reaches all of them.
"""

from __future__ import annotations

BUCKETS_TEXT = """\
Your spec is judged on four kinds of test case ("buckets"). A faithful spec passes all of them:

| bucket | the case holds | your spec must | why it matters |
|---|---|---|---|
| pre_complete  | a valid input                   | ACCEPT it (precondition true)  | a too-strong precondition refuses legitimate callers |
| pre_sound     | an invalid input                | REJECT it (precondition false) | a too-weak precondition promises what the code cannot do |
| post_complete | a valid input + a correct output | ACCEPT it (postcondition true) | a too-strong postcondition rejects right answers |
| post_sound    | a valid input + a WRONG output   | REJECT it (postcondition false) | a too-weak postcondition accepts wrong answers |

"Complete" means nothing legitimate is refused; "sound" means nothing wrong gets through.
`ensures true` is complete and useless: the hidden post_sound cases will fail it. A case whose
value your spec leaves undefined (index out of range, division by zero, overflow in exec code)
is "unknown", and unknown counts as failed.
"""

WORKFLOW_TEXT = """\
## Files here

- `statement.md`: what the function must do (the informal specification).
- `{spec_file}`: the file you complete. Edit only what the instructions below allow.
- `visible_cases.jsonl`: a few cases you may look at, one JSON object per line
  (`bucket`, `id`, `input`, and `output` for post buckets). All come from the completeness
  buckets (valid inputs, correct outputs). Most cases are hidden and decide your grade.
- `example/`: a worked example on a different task: its statement, a correct spec and its
  visible cases. Copy its style, not its content.
- `LANGUAGE_NOTES.md`: what the spec language and our engines accept.
- `gym.json`: the task id and a hash that ties this folder to its task. Do not edit it.

## Tools

- `adequacy check` (in this folder, or `adequacy check DIR`): scores your spec on the visible
  cases only and prints each failing case with the engine's reason, or the line of a syntax or
  type error. Run it as often as you like; logs go to `.gym/logs/`.
{verify_line}- `adequacy submit`: grades your spec on all cases (visible and hidden) and records the grade.
  You get one submission; `--again` is for people re-running a study, not for you.

Over MCP the same tools are `check`, {verify_mcp}`submit`, plus `list_tasks` and `read_file`.

## Strategy that works

1. Read the statement twice: list every condition on the inputs (the precondition) and every
   property of a correct output (the postcondition). Hidden cases test each one.
2. Write the precondition as exactly the promised inputs: not `true` if the statement restricts
   inputs, and nothing stricter than the statement.
3. Write the postcondition so that it pins the output down: for a function, every correct
   output passes and every other output fails (think of the near misses: off by one, the wrong
   one of several matches, a missing element, wrong order, a wrong sign).
4. Run check. Fix syntax errors first (they name the line), then failing cases.
5. Passing the visible cases is necessary, not sufficient: before submitting, imagine wrong
   outputs and invalid inputs and make sure your spec rejects them.
"""

VERUS_TEXT = """\
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

JML_TEXT = """\
# Write a JML specification

Complete `{spec_file}`: annotate the method with JML contracts: `//@ requires ...;` (which inputs
the method promises to handle) and `//@ ensures ...;` (what holds of `\\result` and the state
afterwards). The Java code itself must stay exactly as it is (comments aside); you may add
`/*@ pure @*/` helper methods or `model` methods for the spec, and `loop_invariant`s.

## How cases reach your spec

Each case is a Hoare triple `{{pre}} x := input; y := output {{post}}` on the method's contract,
not a run of its body: the precondition is evaluated on the input (pre buckets) and the
postcondition on the input and the given output (post buckets), with `\\result` = the output's
`result` (JSON in `visible_cases.jsonl`; arrays as JSON arrays, `null` as null, `char` as a
one-character string). For a method that modifies an array argument, the output holds the
argument's final contents under its name and `\\old(a)` is the input's. Post cases always hold
valid inputs.

{buckets}
{workflow}"""

VERUS_NOTES = """\
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

JML_NOTES = """\
# JML language notes (the subset our engines decide)

Contracts are evaluated on concrete values by runtime checking (engine `rac`, OpenJML's default
spec semantics); `verify` proves the contract against the method body with KeY.

- Clauses: `requires`, `ensures`, several of each (conjoined); spec cases with `also`,
  `normal_behavior`, `exceptional_behavior` (exceptional cases do not constrain returned
  values). The precondition is the disjunction over spec cases.
- Expressions: Java expressions plus `==>`, `<==`, `<==>`, `<=!=>`, `\\result`, `\\old(e)`,
  `\\forall`, `\\exists`, `\\num_of`, `\\sum`, `\\product`, `\\max`, `\\min` with a bounded range:
  `(\\forall int i; 0 <= i && i < a.length; a[i] >= 0)`.
- Arithmetic in specs is mathematical (bigint): `\\result == x + y` is false when Java's `x + y`
  overflowed. `/` and `%` truncate toward zero as in Java.
- Undefined values make a case unknown (counted as failed): null dereference, index out of
  bounds, division by zero. Guard them in order: `a != null && a.length > 0 && a[0] == ...`
  (clauses and `&&` short-circuit).
- Calls: your own `/*@ pure @*/` helpers and pure library methods (`Math`, `String`,
  `Integer`, `Character`, `Arrays`); mutating calls are refused.
- `==` on objects (strings, arrays) is identity; compare contents with `.equals` or a quantifier.
- Not supported (unknown): `\\fresh`, `\\typeof`, `<:`, quantifiers over reference or
  floating-point types.
"""


def instructions(language: str, spec_file: str, can_verify: bool) -> str:
    verify_line = (f"- `adequacy verify .gym/task {spec_file}` (the `verify` tool over MCP): "
                   "proves your contract against the method body with KeY. A spec that verifies "
                   "can still be too weak; one that does not may only need a loop invariant.\n"
                   if can_verify else "")
    workflow = WORKFLOW_TEXT.format(spec_file=spec_file, verify_line=verify_line,
                                    verify_mcp="`verify`, " if can_verify else "")
    base = JML_TEXT if language == "jml" else VERUS_TEXT
    return base.format(spec_file=spec_file, buckets=BUCKETS_TEXT, workflow=workflow)


def language_notes(language: str) -> str:
    return JML_NOTES if language == "jml" else VERUS_NOTES
