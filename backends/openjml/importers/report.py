"""What an import converted and why the rest did not: the figures a user checks first."""

from __future__ import annotations

import re
from collections import Counter

from pydantic import BaseModel, ConfigDict


class ImportFailure(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    task_id: str
    case: str | None = None
    """``official-003`` / ``generated-017``; None when the whole task failed."""
    stage: str
    """``task``, ``input``, ``output`` (input kept for pre_complete) or ``duplicate``."""
    reason: str


def reason_kind(reason: str) -> str:
    """The reason without its case-specific details (quoted text, numbers), for grouping."""
    kind = re.sub(r"^[A-Z]\w+(?:Error|Unsupported): ", "", reason)
    kind = re.sub(r"'[^']*'|\"[^\"]*\"", "…", kind)
    kind = re.sub(r"\d+", "N", kind)
    if kind.startswith(("unknown", "expected the call")):
        kind = kind.split(": ", 1)[0]
    return kind


class ImportReport(BaseModel):
    model_config = ConfigDict(extra="forbid")

    dataset: str
    source: str
    dest: str
    tasks_total: int = 0
    tasks_written: int = 0
    pairs_total: int = 0
    """Raw (input, output) pairs in the records (official and generated)."""
    pairs_converted: int = 0
    """Pairs whose input and output both converted and round-tripped."""
    inputs_converted: int = 0
    """Pairs whose input converted (they feed pre_complete even when the output did not)."""
    pre_complete: int = 0
    post_complete: int = 0
    """Cases written after removing duplicates."""
    failures: list[ImportFailure] = []

    def reasons(self) -> Counter[tuple[str, str]]:
        return Counter((f.stage, reason_kind(f.reason)) for f in self.failures)

    def summary(self) -> str:
        lines = [
            f"{self.dataset}: {self.tasks_written}/{self.tasks_total} tasks written to "
            f"{self.dest}",
            f"  pairs: {self.pairs_converted}/{self.pairs_total} converted (input and output), "
            f"{self.inputs_converted} inputs converted",
            f"  cases: {self.pre_complete} pre_complete, {self.post_complete} post_complete "
            "(duplicates removed)",
        ]
        if self.failures:
            lines.append("  not converted, by reason:")
            for (stage, kind), n in self.reasons().most_common():
                lines.append(f"    {n:6d}  [{stage}] {kind}")
        return "\n".join(lines)
