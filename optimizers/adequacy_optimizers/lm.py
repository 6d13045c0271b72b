"""Language models by litellm model string, guarded so that an LM failure is never a spec's.

Any litellm model string works (``openai/gpt-4o``, ``anthropic/...``, ``ollama_chat/...``,
``openai/<name>`` with ``api_base`` for a local vLLM, llama.cpp or LM Studio server); keys come
from the environment as litellm reads them. ``make_lm`` is the one place an LM is made
(``synthesize``, ``optimize``, ``judge`` and ``agent`` all use it).

Why a guard: DSPy, GEPA and ReAct catch ``Exception`` around LM calls and turn it into a zero
score, a wasted agent step or an empty answer, so an endpoint that is down, a missing key or a
misspelt model became "specs without a usable spec" that ``run`` counted invalid. ``GuardedLM``
owns the retries (DSPy's own are switched off): transient failures (rate limit, 5xx, timeout,
connection refused) are retried ``tries`` times in all with a doubling wait; what cannot get
better (authentication, model not found, no key, or a transient one that outlived its tries)
raises ``LmUnavailable``, a ``BaseException`` so it crosses those handlers, and trips a breaker
shared by every copy of the LM so later calls fail at once without touching the network.

Why our own cache key: DSPy's response cache leaves ``api_base`` out of its key, so two
endpoints serving one model name shared answers. The guard keeps DSPy's store but keys it with
the endpoint (``api_base``, else the provider's ``*_API_BASE`` / ``*_BASE_URL`` variable);
the API key stays out of it.
"""

from __future__ import annotations

import copy
import os
import re
import threading
import time
from collections.abc import Iterable
from typing import Any, Literal

import dspy
from pydantic import BaseModel, ConfigDict, Field

from adequacy.extensions.writers import Usage

from .lm_errors import LmUnavailable

# litellm prices calls from a bundled table; by default it first tries to download a newer
# one, which stalls for seconds on machines without internet. The user can set it to False.
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

Kind = Literal["fatal", "transient", "request"]
CACHE_VERSION = "adequacy.lm.v1"


class LmSettings(BaseModel):
    """How to reach one model and how hard to try."""

    model_config = ConfigDict(extra="forbid")

    model: str
    api_base: str | None = None
    api_key: str | None = Field(default=None, repr=False, exclude=True)
    """The endpoint's key (never in a repr or a dump); None: the provider's variable (``OPENAI_API_KEY``...). With an
    ``api_base`` and no key anywhere, a placeholder is sent: local servers (vLLM, llama.cpp,
    LM Studio) want none, and one that does answers 401, which says so."""
    temperature: float | None = None
    max_tokens: int | None = None
    cache: bool = True
    tries: int = Field(default=3, ge=1, le=20)
    """Attempts per call in all (the first one included)."""
    retry_wait: float = Field(default=1.0, ge=0.0, le=60.0)
    """Seconds before the second attempt; doubles after each, at most 60."""
    timeout: float = Field(default=300.0, gt=0.0)
    """Seconds one request may take (litellm's default is 600)."""


def _chain(exc: BaseException) -> Iterable[BaseException]:
    seen: set[int] = set()
    c: BaseException | None = exc
    while c is not None and id(c) not in seen:
        seen.add(id(c))
        yield c
        c = c.__cause__ or c.__context__


def _is_connection(exc: BaseException) -> bool:
    for c in _chain(exc):
        name = type(c).__name__
        if isinstance(c, ConnectionError) or name in ("APIConnectionError", "ConnectError",
                                                      "ConnectTimeout"):
            return True
    return False


def _no_credentials(exc: BaseException) -> bool:
    """The OpenAI client refusing to start without a key (litellm reports it as a 500)."""
    return any(type(c).__name__ == "OpenAIError" and type(c).__module__.startswith("openai")
               for c in _chain(exc))


def classify(exc: BaseException) -> tuple[Kind, str]:
    """What an LM call's failure means, and a short reason for the user.

    ``fatal``: retrying cannot help; ``transient``: retry, fatal once the tries are spent;
    ``request``: this one request was refused (too long a prompt, a 400) -- the spec's writer
    failed, unless the endpoint refused every request so far (then it is the endpoint)."""
    from dspy.utils import exceptions as ex

    status = getattr(exc, "status", None)
    http = f" (HTTP {status})" if isinstance(status, int) else ""
    if _no_credentials(exc) or isinstance(exc, ex.LMNotConfiguredError):
        return "fatal", ("no API key (pass --api-key or set the provider's key variable, e.g. "
                         "OPENAI_API_KEY)")
    if isinstance(exc, ex.LMAuthError):
        return "fatal", f"authentication failed{http}"
    if isinstance(exc, ex.LMBillingError):
        return "fatal", f"billing or quota refused{http}"
    if isinstance(exc, ex.LMUnsupportedModelError):
        return "fatal", f"model not found{http}"
    if isinstance(exc, ex.LMConfigurationError | ex.LMUnsupportedFeatureError):
        return "fatal", "the LM is misconfigured"
    if _is_connection(exc):
        return "transient", "cannot connect"
    if isinstance(exc, ex.LMRateLimitError):
        return "transient", f"rate limited{http}"
    if isinstance(exc, ex.LMTimeoutError):
        return "transient", f"timed out{http}"
    if isinstance(exc, ex.LMServerError | ex.LMTransportError | ex.LMLockTimeoutError):
        return "transient", f"server error{http}"
    if isinstance(exc, ex.ContextWindowExceededError):
        return "request", "prompt longer than the model's context window"
    if isinstance(exc, ex.LMError):
        return "request", f"request refused{http}"
    return "request", type(exc).__name__


_PREFIX = re.compile(r"^(\[[^\]]*\]\s*)?(litellm\.\w+:\s*)?(\w+Error:\s*)?(\w+Exception\s*-\s*)?")


def provider_message(exc: BaseException, limit: int = 160) -> str:
    """The provider's own words, first line, without litellm's class-name prefixes."""
    text = (str(exc).strip().splitlines() or [""])[0]
    text = _PREFIX.sub("", text).strip()
    return text if len(text) <= limit else text[:limit] + "..."


PLACEHOLDER_KEY = "no-key"
"""Sent to an ``api_base`` when no key is given anywhere (never to a provider's default)."""


def key_variable(model: str) -> str:
    """The environment variable litellm reads the model's key from (``OPENAI_API_KEY``)."""
    provider = model.split("/", 1)[0] if "/" in model else "openai"
    return f"{provider.upper()}_API_KEY"


def endpoint_of(model: str, api_base: str | None) -> str:
    """Where requests go: ``api_base``, else the provider's base-URL variable, else its
    default (named by the provider)."""
    if api_base:
        return api_base.rstrip("/")
    provider = model.split("/", 1)[0].upper() if "/" in model else "OPENAI"
    for var in (f"{provider}_API_BASE", f"{provider}_BASE_URL"):
        if os.environ.get(var):
            return os.environ[var].rstrip("/")
    return f"default:{provider.lower()}"


class _Breaker:
    """Shared by an LM and all its copies: the first fatal failure, and whether any call ever
    succeeded (a refused request before any success is the endpoint's fault)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.failure: LmUnavailable | None = None
        self.succeeded = False
        self.refused = 0
        """Requests refused (a 400, a garbled answer) before any success."""

    def __deepcopy__(self, memo: dict[int, Any]) -> _Breaker:
        return self

    def refuse(self) -> int:
        with self.lock:
            self.refused += 1
            return self.refused

    def trip(self, message: str) -> LmUnavailable:
        with self.lock:
            if self.failure is None:
                self.failure = LmUnavailable(message)
            return self.failure


class GuardedLM(dspy.LM):
    """A ``dspy.LM`` whose calls retry, classify and cache as the module docstring says."""

    def __init__(self, settings: LmSettings) -> None:
        kw: dict[str, Any] = {"timeout": settings.timeout}
        if settings.api_base:
            kw["api_base"] = settings.api_base
        self.placeholder_key = False
        if settings.api_key:
            kw["api_key"] = settings.api_key
        elif settings.api_base and not os.environ.get(key_variable(settings.model)):
            # the OpenAI client refuses to start without some key, though a local server
            # reads none
            kw["api_key"] = PLACEHOLDER_KEY
            self.placeholder_key = True
        super().__init__(settings.model, temperature=settings.temperature,
                         max_tokens=settings.max_tokens, cache=False, num_retries=0,
                         engine="litellm", **kw)
        self.settings = settings
        self.endpoint = endpoint_of(settings.model, settings.api_base)
        self.breaker = _Breaker()

    @property
    def where(self) -> str:
        return f"LM {self.model} at {self.endpoint.removeprefix('default:')}"

    def raise_if_failed(self) -> None:
        """Re-raise the breaker's failure (for code after a library that may swallow it)."""
        if self.breaker.failure is not None:
            raise self.breaker.failure

    def _key(self, prompt: Any, messages: Any, kwargs: dict[str, Any]) -> dict[str, Any]:
        merged = {k: v for k, v in {**self.kwargs, **kwargs}.items() if k != "api_key"}
        merged["api_base"] = self.endpoint  # DSPy drops api_base from its keys; we do not
        return {"_fn_identifier": CACHE_VERSION, "model": self.model,
                "model_type": self.model_type, "prompt": prompt, "messages": messages,
                "kwargs": merged}

    def _wait(self, exc: BaseException, attempt: int) -> float:
        hint = getattr(exc, "retry_after", None)
        base = self.settings.retry_wait * 2 ** (attempt - 1)
        return min(float(hint) if isinstance(hint, int | float) and hint >= 0 else base, 60.0)

    def _fail(self, exc: BaseException, reason: str, attempt: int) -> LmUnavailable:
        tries = f" after {attempt} tries" if attempt > 1 else ""
        said = provider_message(exc)
        if self.placeholder_key and reason.startswith("authentication failed"):
            reason += (f" (no key was given: this endpoint wants one; pass --api-key or set "
                       f"{key_variable(self.settings.model)})")
        return self.breaker.trip(f"{self.where}: {reason}{tries}" + (f": {said}" if said else ""))

    def _decide(self, exc: Exception, attempt: int) -> float:
        """Seconds to wait before trying again; raises when not trying again."""
        from dspy.utils.exceptions import ContextWindowExceededError

        kind, reason = classify(exc)
        if kind == "request":
            # One refused request is that request's problem (a prompt too long, a statement a
            # provider's filter refuses: its writer failed, the batch goes on; ReAct truncates
            # its trajectory on a too-long one). ``tries`` refusals in a row before anything
            # ever succeeded are the endpoint's (a wrong API, a parameter it rejects).
            if (self.breaker.succeeded or isinstance(exc, ContextWindowExceededError)
                    or self.breaker.refuse() < self.settings.tries):
                raise exc
            raise self.breaker.trip(
                f"{self.where}: refused each of the first {self.breaker.refused} requests "
                f"({reason}): {provider_message(exc)}") from exc
        if kind == "transient" and attempt < self.settings.tries:
            return self._wait(exc, attempt)
        raise self._fail(exc, reason, attempt) from exc

    def __call__(self, prompt: Any = None, *, messages: Any = None, **kwargs: Any) -> Any:
        self.raise_if_failed()
        use_cache = bool(kwargs.pop("cache", self.settings.cache))
        key = self._key(prompt, messages, kwargs) if use_cache else None
        if key is not None and (hit := dspy.cache.get(key, [])) is not None:
            return hit
        for attempt in range(1, self.settings.tries + 1):
            try:
                out = super().__call__(prompt, messages=messages, **kwargs)
            except Exception as e:  # noqa: BLE001 - classified; what is not retried re-raises
                time.sleep(self._decide(e, attempt))
                self.raise_if_failed()
                continue
            self.breaker.succeeded = True
            if key is not None:
                dspy.cache.put(key, copy.deepcopy(out), [])
            return out
        raise AssertionError("unreachable: the last attempt raises or returns")

    async def acall(self, prompt: Any = None, *, messages: Any = None, **kwargs: Any) -> Any:
        import asyncio

        self.raise_if_failed()
        use_cache = bool(kwargs.pop("cache", self.settings.cache))
        key = self._key(prompt, messages, kwargs) if use_cache else None
        if key is not None and (hit := dspy.cache.get(key, [])) is not None:
            return hit
        for attempt in range(1, self.settings.tries + 1):
            try:
                out = await super().acall(prompt, messages=messages, **kwargs)
            except Exception as e:  # noqa: BLE001 - as in __call__
                await asyncio.sleep(self._decide(e, attempt))
                self.raise_if_failed()
                continue
            self.breaker.succeeded = True
            if key is not None:
                dspy.cache.put(key, copy.deepcopy(out), [])
            return out
        raise AssertionError("unreachable: the last attempt raises or returns")


def make_lm(settings: LmSettings) -> GuardedLM:
    """The one way an LM is made (DSPy's litellm engine: its lm15 engine knows fewer
    providers)."""
    return GuardedLM(settings)


def raise_if_failed(*lms: Any) -> None:
    """Re-raise the first tripped breaker among ``lms`` (None and plain LMs are skipped)."""
    for lm in lms:
        if isinstance(lm, GuardedLM):
            lm.raise_if_failed()


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
