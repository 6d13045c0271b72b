"""The failure that stops a command whose language model cannot answer.

Kept apart from ``lm`` (which subclasses ``dspy.LM``) so that commands can catch it without the
optimize extra installed: a template or Houdini writer needs no model and no DSPy.
"""

from __future__ import annotations


class LmUnavailable(BaseException):  # noqa: N818 - reads as a state, like KeyboardInterrupt
    """The LM cannot answer (endpoint down, bad key, unknown model): stop the command.

    A ``BaseException`` on purpose: DSPy's executors, GEPA's adapter and ReAct catch
    ``Exception`` from LM calls and score them 0; this must reach the command instead."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message
