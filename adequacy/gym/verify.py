"""The gym's one adapter to verification (proving a spec against the method body).

Verification has no Protocol yet: it is the optional ``verify(task, spec, engine, limits) ->
dict`` capability of a backend (adequacy/backend.py), today offered by the key backend only
(OpenJML would offer it the same way once its backend grows the method). Everything about it
is isolated here, reached through the plugin manager, never by importing a backend module.
"""

from __future__ import annotations

from typing import Any

from adequacy import plugins
from adequacy.backend import Limits
from adequacy.errors import AdequacyError, SpecInvalid
from adequacy.tasks import Task


def _provers(language: str) -> list[tuple[Any, str]]:
    """(backend, engine name) pairs that can prove specs of ``language`` on this machine."""
    out = []
    for b in plugins.backends().values():
        if b.language != language or not callable(getattr(b, "verify", None)):
            continue
        out += [(b, e.name) for e in b.engines() if e.available]
    return out


def can_verify(language: str) -> bool:
    try:
        return bool(_provers(language))
    except AdequacyError:
        return False


def verify_text(task: Task, spec_text: str, spec_path: str, limits: Limits) -> str:
    """A model-readable answer: verified / not verified / unknown, with the prover's summary."""
    provers = _provers(task.language)
    if not provers:
        return (f"verify: no prover for {task.language} specs is installed here "
                "(KeY needs a JDK 17+ and `adequacy setup`).")
    backend, engine = provers[0]
    if "@" not in spec_text:
        # JML lives in comments that start with @: without one there is no contract to prove
        # (and the prover would take half a minute to say so)
        return "verify: the spec has no JML annotation (//@ requires ...; //@ ensures ...;)"
    try:
        loaded = backend.load_spec(task, spec_text, spec_path)
        res = backend.verify(task, loaded, engine, limits)
    except SpecInvalid as e:
        return f"verify: INVALID SPEC: {e.render()}"
    except AdequacyError as e:
        return f"verify: could not run {engine}: {str(e).splitlines()[0][:300]}"
    lines = [f"verify ({engine}): {res.get('result', 'unknown')} - {res.get('summary', '')}"]
    for c in res.get("contracts", [])[:5]:
        lines.append(f"  {c.get('contract')}: {c.get('status')}, "
                     f"{c.get('open_goals', 0)} open goal(s)")
        for g in c.get("goals", [])[:3]:
            lines.append(f"    open at {' / '.join(g.get('branch', [])) or '(root)'}: "
                         f"{str(g.get('sequent', ''))[:400]}")
    lines.append("(verification says whether the body meets your contract; it says nothing "
                 "about whether the contract is strong enough: use check for that)")
    return "\n".join(lines)
