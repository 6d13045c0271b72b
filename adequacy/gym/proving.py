"""The gym's one adapter to verification (proving a spec against the method body).

Provers are found through ``adequacy.scoring.verification`` (the backends' ``Verifier`` objects), never
by importing a backend module; the answer is text a model can read.
"""

from __future__ import annotations

from adequacy.errors import AdequacyError
from adequacy.extensions.backend import Limits
from adequacy.model.proofs import VerifyResult
from adequacy.model.task import Task
from adequacy.scoring.verification import prove_quietly, provers, why_no_prover


def can_verify(language: str) -> bool:
    try:
        return bool(provers(language))
    except AdequacyError:
        return False


def prover_name(language: str) -> str | None:
    """The name an agent is told for the language's prover (None: no prover here)."""
    try:
        found = provers(language)
    except AdequacyError:
        return None
    if not found:
        return None
    return found[0][1].name


def verify_text(task: Task, spec_text: str, spec_path: str, limits: Limits) -> str:
    """A model-readable answer: verified / not verified / unknown, with the prover's summary."""
    if not can_verify(task.language):
        return f"verify: no prover is installed here ({why_no_prover(task.language)})."
    res = prove_quietly(task, spec_text, limits)
    if not isinstance(res, VerifyResult):
        return f"verify: {res}"
    lines = [f"verify ({res.engine}): {res.result} - {res.summary}"]
    for c in res.contracts[:5]:
        lines.append(f"  {c.contract}: {c.status}, {c.open_goals} open goal(s)")
        for g in c.goals[:3]:
            lines.append(f"    open at {' / '.join(g.branch) or '(root)'}: {g.sequent[:400]}")
    lines.append("(verification says whether the body meets your contract; it says nothing "
                 "about whether the contract is strong enough: use check for that)")
    return "\n".join(lines)
