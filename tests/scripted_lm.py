"""A scripted language model for tests and benchmarks (no model can be reached from CI).

``ScriptedLM`` is a ``dspy.utils.DummyLM`` whose answer is computed from the prompt by a
function, so that a test can make the answer depend on the instruction (what GEPA changes).
It fakes token counts (a word is a token) so that the accounting paths run; it never stands in
for a model's results outside tests and benchmarks.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from dspy.clients.engines.dummy_engine import AsyncDummyEngine, DummyEngine
from dspy.lm15 import Message, Response, TextPart, Usage
from dspy.utils.dummies import DummyLM

Respond = Callable[[list[dict[str, Any]]], dict[str, str] | str]


class _Engine(DummyEngine):
    def _complete_messages(self, messages: list[dict[str, Any]]) -> Response:
        owner: ScriptedLM = self.owner
        if owner.delay:
            time.sleep(owner.delay)
        fields = owner.respond(messages)
        text = fields if isinstance(fields, str) else owner._format_answer_fields(fields)
        owner.calls += 1
        words_in = sum(len(str(m.get("content", "")).split()) for m in messages)
        words_out = len(text.split())
        return Response(id=None, model="scripted", message=Message.assistant([TextPart(text)]),
                        finish_reason="stop",
                        usage=Usage(input_tokens=words_in, output_tokens=words_out,
                                    total_tokens=words_in + words_out))


class ScriptedLM(DummyLM):
    """``respond(messages)`` gives ``{output field: value}`` (formatted the chat adapter's way)
    or the raw reply text (for callers that parse JSON, such as GEPA's proposer); ``delay``
    seconds per call."""

    def __init__(self, respond: Respond, delay: float = 0.0) -> None:
        super().__init__({})
        self.respond = respond
        self.delay = delay
        self.calls = 0
        self._engine_spec = _Engine(self)
        self._async_engine_spec = AsyncDummyEngine(self._engine_spec)

    def copy(self, **kwargs: Any) -> ScriptedLM:
        new = super().copy(**kwargs)
        new._engine_spec = _Engine(new)
        new._async_engine_spec = AsyncDummyEngine(new._engine_spec)
        return new


def prompt_text(messages: list[dict[str, Any]]) -> str:
    return "\n".join(str(m.get("content", "")) for m in messages)
