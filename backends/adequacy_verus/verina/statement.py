"""VERINA's problem statements, reworded for a Verus task.

VERINA writes "This task requires writing a Lean 4 method that ..." (126 of its 189
``description.txt`` files name Lean). Shown as is on a Verus task, the statement tells a spec
writer (often a language model) to write Lean, and it answers in Lean: an invalid spec that says
nothing about the writer's understanding of the problem. The rest of the text (what the method
computes, its inputs and outputs) holds in any language and is kept word for word.
"""

from __future__ import annotations

import re

_RULES = (
    (re.compile(r"\bLean\s*4\s+method\b"), "Verus function"),
    (re.compile(r"\bLean\s*4\s+function\b"), "Verus function"),
    (re.compile(r"\bLean\s*4\b"), "Verus"),
    (re.compile(r"\bLean\b"), "Verus"),
)


def verus_statement(text: str) -> str:
    """The statement with every mention of Lean replaced by Verus."""
    for pattern, repl in _RULES:
        text = pattern.sub(repl, text)
    return text
