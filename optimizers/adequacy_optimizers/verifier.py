"""Proving a spec against the method body for optimizers (Houdini), as a flat ``Proof``.

Provers come from ``adequacy.scoring.verification`` (the backends' ``Verifier`` objects, found through
the plugin manager), so optimizers never import a backend module, and a language that gains a
verifier (Verus with the ``verus`` binary installed) is served without a change here.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel

from adequacy.errors import AdequacyError, SpecInvalid
from adequacy.extensions.backend import Limits
from adequacy.model.task import Task
from adequacy.scoring import verification

Result = Literal["verified", "not verified", "unknown", "invalid", "unavailable"]


class Proof(BaseModel):
    result: Result
    summary: str = ""
    open_goals: int = 0
    """Open goals over all contracts (KeY); the graduated score counts them as errors."""
    engine: str = ""


def prover_for(language: str) -> tuple[Any, str] | None:
    """(backend, prover name) of the most faithful available prover of ``language``."""
    found = verification.provers(language)
    return (found[0][0], found[0][1].name) if found else None


def why_no_prover(language: str) -> str:
    return verification.why_no_prover(language)


def prove(task: Task, spec_text: str, limits: Limits | None = None) -> Proof:
    """Prove every contract of the spec; never raises for the spec's own faults."""
    if prover_for(task.language) is None:
        return Proof(result="unavailable", summary=why_no_prover(task.language))
    limits = limits or Limits(spec_seconds=60.0)
    try:
        res = verification.prove(task, spec_text, None, limits)
    except SpecInvalid as e:
        return Proof(result="invalid", summary=str(e))
    except AdequacyError as e:
        return Proof(result="unknown", summary=str(e))
    return Proof(result=res.result, summary=res.summary, open_goals=res.open_goals,
                 engine=res.engine)
