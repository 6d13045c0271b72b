"""The texts a gym folder gives an agent: instructions and language notes.

Written for a model that has never seen this project: what the task is, what each bucket asks,
how cases reach the spec, what the engines decide, and a strategy that works. The parts that
depend on the language come from its backend (``gym_texts``); the buckets, tools and strategy
are the same for every language and live here.
"""

from __future__ import annotations

from adequacy.extensions.texts import GymTexts

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
- `gym.json` and `.gym/` (where present): the gym's own files (which task this is, your checks
  and your submission). They are not shown to you and you need nothing in them.

## Tools

Run these in this folder, in a shell of your own or inside `adequacy gym shell` (the sandboxed
shell: there the gym runs them for you, outside the sandbox, on the files you edited):

- `adequacy check`: scores your spec on the visible cases only and prints each failing case
  with the engine's reason, or the line of a syntax or type error. Run it as often as you like;
  the gym counts and logs each check. `--spec FILE` checks another file.
{verify_line}- `adequacy submit`: grades your spec on all cases (visible and hidden) and records the grade.
  You get one submission.

Over MCP the same tools are `check`, {verify_mcp}`submit`, plus `list_tasks` and `read_file`
(and `bash`, where the server offers it: the sandboxed shell, in which the commands above work).

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

GENERIC = GymTexts(intro="""\
# Write a specification

Complete `{spec_file}`: write the precondition (which inputs the function promises to handle)
and the postcondition (which outputs are correct for such an input).

{buckets}
{workflow}""", notes="""\
# Language notes

The backend of this language gives no notes; `adequacy check` reports what its engines accept.
""")


def instructions(texts: GymTexts, spec_file: str, prover: str | None) -> str:
    verify_line = (f"- `adequacy verify .gym/task {spec_file}` (the `verify` tool over MCP): "
                   f"proves your contract against the method body with {prover}. A spec that "
                   "verifies can still be too weak; one that does not may only need a loop "
                   "invariant.\n" if prover else "")
    workflow = WORKFLOW_TEXT.format(spec_file=spec_file, verify_line=verify_line,
                                    verify_mcp="`verify`, " if prover else "")
    return texts.intro.format(spec_file=spec_file, buckets=BUCKETS_TEXT, workflow=workflow)
