"""Turn a language model's answer into a whole spec file for the task.

Models wrap code in prose and fences, stop mid-answer, or send only part of a file. What a
spec file of the language is, and how a partial answer is completed from the task's skeleton,
is the language's backend's to say (``Backend.spec_from_answer``); whether the result is a
valid spec is for its front end to say when it is scored. What cannot be turned into a file
raises ``ExtractionError``, which a writer turns into a scored failure whose feedback is the
message.
"""

from __future__ import annotations

from adequacy.errors import BackendError, ExtractionError
from adequacy.extensions import registry
from adequacy.extensions.answers import FENCE, code_blocks
from adequacy.model.task import Task


def spec_from_answer(task: Task, answer: str) -> str:
    """The spec file for ``task`` from a model's answer, or ``ExtractionError``."""
    if not answer or not answer.strip():
        raise ExtractionError("the answer is empty")
    try:
        backend = registry.registry().owner(task.language)
    except BackendError as e:
        raise ExtractionError(str(e)) from None
    return backend.spec_from_answer(task, answer)


def spec_ext(language: str) -> str:
    """File extension of a written spec of ``language`` ("txt" without a backend)."""
    try:
        return registry.registry().owner(language).writer_texts().spec_ext
    except BackendError:
        return "txt"


__all__ = ["FENCE", "ExtractionError", "code_blocks", "spec_ext", "spec_from_answer"]
