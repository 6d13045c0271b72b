"""What an import did, task by task, with failures grouped by reason for the summary."""

from __future__ import annotations

from collections import defaultdict

from pydantic import BaseModel


class Problem(BaseModel):
    """``kind`` groups problems in summaries (``unsupported type``); ``detail`` says exactly what
    and where (``test 3 input n: u64 value ... out of range``)."""

    kind: str
    detail: str


class TaskOutcome(BaseModel):
    task_id: str
    converted: bool
    dest: str | None = None
    problems: list[Problem] = []
    """Why the task did not convert; in lenient mode, also the cases that were dropped."""
    counts: dict[str, int] = {}
    """Cases written per bucket."""


class ImportReport(BaseModel):
    src: str
    dest: str
    outcomes: list[TaskOutcome] = []

    @property
    def converted(self) -> list[TaskOutcome]:
        return [o for o in self.outcomes if o.converted]

    @property
    def failed(self) -> list[TaskOutcome]:
        return [o for o in self.outcomes if not o.converted]

    def by_kind(self) -> dict[str, list[TaskOutcome]]:
        """Failed tasks grouped by the kind of their first problem (one group per task)."""
        groups: dict[str, list[TaskOutcome]] = defaultdict(list)
        for o in self.failed:
            groups[o.problems[0].kind if o.problems else "unknown"].append(o)
        return dict(sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])))

    def summary(self) -> str:
        lines = [f"converted {len(self.converted)} of {len(self.outcomes)} tasks from {self.src} "
                 f"into {self.dest}"]
        totals: dict[str, int] = defaultdict(int)
        for o in self.converted:
            for b, n in o.counts.items():
                totals[b] += n
        if totals:
            lines.append("cases: " + ", ".join(f"{b} {n}" for b, n in totals.items()))
        for kind, outs in self.by_kind().items():
            lines.append(f"not converted ({kind}): {len(outs)}")
            for o in outs:
                lines.append(f"  {o.task_id}: {o.problems[0].detail if o.problems else ''}")
        dropped = [(o.task_id, p) for o in self.converted for p in o.problems]
        if dropped:
            lines.append(f"cases dropped in converted tasks: {len(dropped)}")
            for tid, p in dropped:
                lines.append(f"  {tid}: {p.kind}: {p.detail}")
        return "\n".join(lines)
