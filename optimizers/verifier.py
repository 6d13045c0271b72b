"""Proving a spec against the method body, through the backends' optional ``verify`` capability.

The capability is looked up on the plugin manager's backends (adequacy/backend.py lists it:
``verify(task, spec, engine, limits) -> dict``), so optimizers never import a backend module.
Today only the ``key`` backend (JML) offers it; Verus has none until a ``verus`` verifier
backend adds one, and then it is found here without a change.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel

from adequacy import plugins
from adequacy.backend import Limits
from adequacy.errors import AdequacyError, SpecInvalid
from adequacy.tasks import Task

Result = Literal["verified", "not verified", "unknown", "invalid", "unavailable"]


class Proof(BaseModel):
    result: Result
    summary: str = ""
    open_goals: int = 0
    """Open goals over all contracts (KeY); the graduated score counts them as errors."""
    engine: str = ""


def prover_for(language: str) -> tuple[Any, str] | None:
    """A backend of ``language`` with an available engine and a ``verify`` method."""
    for b in plugins.backends().values():
        if b.language != language or not callable(getattr(b, "verify", None)):
            continue
        for e in b.engines():
            if e.available:
                return b, e.name
    return None


def why_no_prover(language: str) -> str:
    for b in plugins.backends().values():
        if b.language == language and callable(getattr(b, "verify", None)):
            reasons = [f"{e.name}: {e.reason}" for e in b.engines() if not e.available]
            return f"the {b.name} prover is unavailable ({'; '.join(reasons)})"
    return f"no installed backend can prove {language} specs against a body"


def prove(task: Task, spec_text: str, limits: Limits | None = None) -> Proof:
    """Prove every contract of the spec; never raises for the spec's own faults."""
    found = prover_for(task.language)
    if found is None:
        return Proof(result="unavailable", summary=why_no_prover(task.language))
    backend, engine = found
    limits = limits or Limits(spec_seconds=60.0)
    try:
        loaded = backend.load_spec(task, spec_text, None)
        raw = backend.verify(task, loaded, engine, limits)
    except SpecInvalid as e:
        return Proof(result="invalid", summary=str(e), engine=engine)
    except AdequacyError as e:
        return Proof(result="unknown", summary=str(e), engine=engine)
    goals = sum(int(c.get("open_goals", 0)) for c in raw.get("contracts", []))
    return Proof(result=raw.get("result", "unknown"), summary=str(raw.get("summary", "")),
                 open_goals=goals, engine=engine)
