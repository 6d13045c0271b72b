"""Which Spec-Harness dataset a JSONL file holds, read from its records.

SpecGenBench and FormalBench share one record format, so ``adequacy import specgenbench`` given
``fb.jsonl`` used to convert all 662 FormalBench methods and label them SpecGenBench: a study
would then report FormalBench scores under the wrong benchmark's name. The task ids tell the two
apart (``SGB_Abs``; ``FB_AccessElements``, whose ``origin_id`` is ``MBJP/825``).
"""

from __future__ import annotations

import json
from pathlib import Path

_PEEK = 20
"""Records read: enough to outvote a stray line, few enough to read nothing of a large file."""


def _kind(rec: object) -> str | None:
    if not isinstance(rec, dict):
        return None
    tid, origin = str(rec.get("task_id", "")), str(rec.get("origin_id", ""))
    if tid.startswith("SGB_"):
        return "specgenbench"
    if tid.startswith("FB_") or origin.startswith("MBJP/"):
        return "formalbench"
    return None


def detect_dataset(path: Path) -> str | None:
    """``specgenbench``, ``formalbench``, or None when the first records do not say (a
    user's own file in the same format is then imported under the name asked for)."""
    votes: dict[str, int] = {}
    seen = 0
    with path.open(encoding="utf-8", errors="replace") as f:
        for raw in f:
            if seen >= _PEEK:
                break
            if not raw.strip():
                continue
            seen += 1
            try:
                kind = _kind(json.loads(raw))
            except (json.JSONDecodeError, RecursionError):
                continue
            if kind:
                votes[kind] = votes.get(kind, 0) + 1
    if not votes:
        return None
    best = max(votes, key=lambda k: votes[k])
    return best if votes[best] * 2 > sum(votes.values()) else None
