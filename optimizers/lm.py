"""Language models by litellm model string, and the tokens and cost of what they were asked.

Any litellm model string works (``openai/gpt-4o``, ``anthropic/...``, ``ollama_chat/...``,
``openai/<name>`` with ``api_base`` for a local vLLM, llama.cpp or LM Studio server); keys come
from the environment as litellm reads them. DSPy's on-disk cache is on by default (a rerun of
the same prompt costs nothing), and litellm retries failed calls with exponential backoff.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Any

import dspy

from .writer import Usage

# litellm prices calls from a bundled table; by default it first tries to download a newer
# one, which stalls for seconds on machines without internet. The user can set it to False.
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")


def make_lm(model: str, api_base: str | None = None, temperature: float | None = None,
            max_tokens: int | None = None, cache: bool = True, retries: int = 3,
            api_key: str | None = None) -> dspy.LM:
    """A DSPy LM on litellm's engine (DSPy's lm15 engine knows fewer providers)."""
    kw: dict[str, Any] = {}
    if api_base:
        kw["api_base"] = api_base
    if api_key:
        kw["api_key"] = api_key
    return dspy.LM(model, temperature=temperature, max_tokens=max_tokens, cache=cache,
                   num_retries=retries, engine="litellm", **kw)


def usage_of(entries: Iterable[dict[str, Any]]) -> Usage:
    """Sum of LM history entries: calls, tokens and litellm's cost (None counts as 0)."""
    u = Usage()
    for e in entries:
        usage = e.get("usage") or {}
        u.calls += 1
        u.prompt_tokens += int(usage.get("prompt_tokens") or usage.get("input_tokens") or 0)
        u.completion_tokens += int(usage.get("completion_tokens")
                                   or usage.get("output_tokens") or 0)
        u.cost += float(e.get("cost") or 0.0)
    return u


def call_records(lm: Any) -> list[dict[str, Any]]:
    """One JSON-able record per call in ``lm.history``: model, tokens, cost, time."""
    out = []
    for e in getattr(lm, "history", []):
        u = usage_of([e])
        out.append({"model": e.get("model"), "timestamp": e.get("timestamp"),
                    "prompt_tokens": u.prompt_tokens, "completion_tokens": u.completion_tokens,
                    "cost": u.cost})
    return out
