"""What a prover says about a spec: data only, part of the plugin contract (``Verifier``)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

ProofOutcome = Literal["verified", "not verified", "unknown"]


class OpenGoal(BaseModel):
    branch: list[str]
    """The prover's branch labels from the root: what was being proved (e.g. "Post")."""
    sequent: str


class ContractResult(BaseModel):
    contract: str
    status: str
    """closed | open | timeout | error"""
    steps: int = 0
    seconds: float = 0.0
    open_goals: int = 0
    reason: str = ""
    goals: list[OpenGoal] = []


class VerifyResult(BaseModel):
    """What one prover said about one spec."""

    task_id: str
    method: str = ""
    engine: str
    result: ProofOutcome
    summary: str
    contracts: list[ContractResult] = []
    has_loops: bool = False
    loop_invariants: bool = False

    @property
    def open_goals(self) -> int:
        return sum(c.open_goals for c in self.contracts)
