"""What a backend tells the people and models who write its specs: spec writers and agents.

The optimizers build their prompts from ``WriterTexts`` and the gym its INSTRUCTIONS.md and
LANGUAGE_NOTES.md from ``GymTexts``, so a new language needs no edit in either.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class WriterTexts(BaseModel):
    """What a spec writer (a DSPy program, an agent, a few-shot demo) is told about a language.

    The optimizers build their prompts from these, so a new language needs no edit there."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    instructions: str = (
        "Write a formal specification for the function. Given what it should do, the file to "
        "complete and some sample cases, write the precondition (which inputs the function "
        "accepts) and the postcondition (which outputs are correct for such an input). Say "
        "everything the statement says: accept every valid input and correct output, reject "
        "every invalid input and wrong output. Answer with the whole completed file in one "
        "fenced code block.")
    """The writing signature's instructions (a DSPy Signature's docstring)."""
    code_field: str = "skeleton"
    """Name of the program's input field holding the task's skeleton."""
    code_desc: str = "the file to complete"
    spec_desc: str = "the completed spec file in one fenced code block"
    fence: str = ""
    """Info string of the code fence a worked example's answer is wrapped in."""
    spec_ext: str = "txt"
    """File extension of a written spec (``synthesize`` writes ``<task>.<ext>``)."""


class GymTexts(BaseModel):
    """A backend's texts for its gym folders (the optional ``gym_texts`` capability)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    intro: str
    """INSTRUCTIONS.md, a template with ``{spec_file}``, ``{buckets}`` and ``{workflow}``."""
    notes: str
    """LANGUAGE_NOTES.md: what the spec language and the engines accept."""
