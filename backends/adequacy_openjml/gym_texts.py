"""What an agent's gym folder says about writing JML specs (the backend's ``gym_texts``).

Kept with the backend: the texts name the language's syntax and what its engines decide, and a
new language brings its own without an edit to core. ``{buckets}`` and ``{workflow}`` are the
gym's language-independent parts, filled in by ``adequacy.gym.texts``.
"""

from __future__ import annotations

from adequacy.plugin import GymTexts

INTRO = """\
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
argument's final contents under its name and `\\old(a)` is the input's. An instance method runs
on a fresh object from the no-argument constructor (`\\old(f)` is its field's initial value);
an output named like a field of the object holds that field's value after the call, which
`ensures` reads as `f` (a field the output does not hold cannot be checked after the call).
Post cases always hold valid inputs.

{buckets}
{workflow}"""

NOTES = """\
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


def gym_texts() -> GymTexts:
    return GymTexts(intro=INTRO, notes=NOTES)
