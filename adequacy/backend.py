"""The surface every backend offers (DESIGN section 4), as a Protocol plus boundary models.

A backend knows one specification language. It parses and checks a spec once (``load_spec``)
and then evaluates the spec's predicates on many cases with one engine at a time (``check``).
Chaining engines, caching, cross-checking and scoring are the runner's job, so that every backend
gets them the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

from adequacy.tasks import Case, Task
from adequacy.verdicts import Verdict


class EngineInfo(BaseModel):
    """One engine of a backend and whether it can run on this machine."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    available: bool
    version: str = ""
    """Goes into cache keys: a new engine version never reuses old verdicts."""
    reason: str = ""
    """Why unavailable (what to install), or a note on what the engine is."""
    default: bool = False
    """Part of the backend's default chain."""
    fidelity: int = 0
    """How faithfully the engine follows the language's semantics (higher is closer; the
    language's own verifier ranks highest). With ``--cross-check`` the final verdict of a case
    comes from the highest-ranked engine that decided it (ties: chain order)."""


class Limits(BaseModel):
    """Resource limits handed down to engines."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    case_seconds: float = 10.0
    """Wall-clock limit for one case; exceeding it makes that case unknown."""
    spec_seconds: float = 600.0
    """Wall-clock limit for one spec on one engine (compile included)."""
    memory_mb: int = 2048
    """Address-space limit of child processes."""
    steps: int = 2_000_000
    """Evaluation step limit for embedded interpreters (per case)."""
    timeout_streak: int = Field(default=3, ge=0)
    """After this many consecutive case timeouts of one predicate (pre or post), an engine
    stops evaluating that predicate: its remaining cases are unknown (0: never stop). Once
    one predicate is given up, one timeout is enough for the other."""


class TimeoutStreak:
    """Stop paying for a predicate that keeps running out of time.

    A spec whose helper loops forever costs the full case timeout on every case (206 cases x
    10 s on one SpecGenBench task); after ``Limits.timeout_streak`` timeouts in a row on one
    predicate, the rest of that predicate's cases are not run and say why. Engines call
    ``note`` after each case they ran and ``skip_reason`` before each case."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.run: dict[str, int] = {}

    def note(self, predicate: str, timed_out: bool) -> None:
        self.run[predicate] = self.run.get(predicate, 0) + 1 if timed_out else 0

    def skip_reason(self, predicate: str) -> str | None:
        """Why this predicate's next case is not run, or None to run it.

        Once one predicate has been given up, a single timeout is enough for the other: a
        looping helper is usually shared by both (measured on SpecGenBench: a helper looping in
        both clauses cost 74 s with 3 + 3 timeouts of 10 s, 3 + 1 keeps it under a minute)."""
        n = self.run.get(predicate, 0)
        if self.limit <= 0 or n == 0:
            return None
        other = any(k != predicate and v >= self.limit for k, v in self.run.items())
        if n < self.limit and not other:
            return None
        also = ("; the other predicate was already given up" if other and n < self.limit
                else "")
        return (f"not evaluated: the {predicate}condition ran out of its case budget (time or "
                f"steps) on {n} case{'s' if n > 1 else ''} in a row, so its remaining cases are "
                f"skipped{also} (--timeout-streak {self.limit})")


class LoadedSpec(BaseModel):
    """A spec that passed the backend's front end; ``data`` is the backend's own parse."""

    model_config = ConfigDict(extra="forbid", arbitrary_types_allowed=True)

    backend: str
    task_id: str
    text: str
    """The spec text as given."""
    normalized: str
    """Text with comments and layout normalised: the cache key part for the spec."""
    path: str | None = None
    data: Any = None


@runtime_checkable
class Backend(Protocol):
    """What the plugin hook ``adequacy_backends`` returns, one per specification language."""

    name: str
    language: str
    """Task language this backend scores (``verus`` or ``jml``)."""

    def engines(self) -> list[EngineInfo]:
        """All engines in default-chain order, each with its availability."""
        ...

    def load_spec(self, task: Task, text: str, path: str | None = None) -> LoadedSpec:
        """Parse and check a spec against its task; raise ``SpecInvalid`` with file:line."""
        ...

    def check(
        self, spec: LoadedSpec, task: Task, cases: Sequence[Case], engine: str, limits: Limits
    ) -> list[Verdict]:
        """One verdict per case, in order, from one engine.

        Per-case trouble (panic, timeout, undefined value, unsupported construct) is an
        ``unknown`` verdict with a reason, never an exception. Raise ``SpecInvalid`` (with the
        engine's name) when the engine finds the whole spec unusable (compile error), and
        ``EngineUnavailable`` when the engine cannot run.
        """
        ...


# Optional capabilities a backend may add (looked up with getattr, so a minimal third-party
# backend needs only the Protocol above):
#   prepare(self) -> str
#       Build or fetch what the engines need (compile vstd, build Java workers) ahead of time;
#       return a one-line summary; raise BackendError saying what to install on failure.
#       ``adequacy setup`` calls it.
#   run_reference(self, task, inputs: list[dict]) -> list[dict | None]
#       Run the task's reference implementation on inputs (mutator oracles use it).
#   new_skeleton(self, task_dir: Path) -> tuple[str, str]
#       (file name, text) of the skeleton a task's task.toml implies; ``adequacy task new``
#       writes it. Raise TaskError (file:line) on a schema the language cannot express.
#   verify(self, task, spec, engine, limits) -> dict
#       Prove the spec against the method body (verification rate; KeY).

