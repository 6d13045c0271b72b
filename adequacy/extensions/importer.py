"""The dataset importer contract: the ``Importer`` a plugin returns and the report it gives.

Data and a protocol only (``adequacy.extensions.importer`` finds importers through the plugin manager),
so the hook specifications can name these types without importing the registry.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict

from adequacy.errors import InputError


class Problem(BaseModel):
    """Why a task (or one of its cases) did not convert.

    ``kind`` groups problems in summaries (``unsupported type``); ``detail`` says exactly what
    and where (``test 3 input n: u64 value ... out of range``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: str
    detail: str
    case: str | None = None
    """The source's case name (``official-003``); None when the whole task failed."""
    stage: str = "task"
    """What was being converted: ``task``, ``input``, ``output``, ``duplicate``..."""


class TaskOutcome(BaseModel):
    model_config = ConfigDict(extra="forbid")

    task_id: str
    converted: bool
    dest: str | None = None
    problems: list[Problem] = []
    """Why the task did not convert; for a converted task, the cases that were dropped."""
    counts: dict[str, int] = {}
    """Cases written per bucket."""


class ImportReport(BaseModel):
    """What an import converted and why the rest did not: the figures a user checks first."""

    model_config = ConfigDict(extra="forbid")

    importer: str
    src: str
    dest: str
    outcomes: list[TaskOutcome] = []
    figures: dict[str, int] = {}
    """Importer-specific counts (e.g. Spec-Harness ``pairs_total``, ``pairs_converted``)."""

    def outcome(self, task_id: str) -> TaskOutcome:
        """The outcome of ``task_id``, added (not converted) on first use."""
        for o in reversed(self.outcomes):
            if o.task_id == task_id:
                return o
        o = TaskOutcome(task_id=task_id, converted=False)
        self.outcomes.append(o)
        return o

    def count(self, figure: str, n: int = 1) -> None:
        self.figures[figure] = self.figures.get(figure, 0) + n

    @property
    def converted(self) -> list[TaskOutcome]:
        return [o for o in self.outcomes if o.converted]

    @property
    def failed(self) -> list[TaskOutcome]:
        return [o for o in self.outcomes if not o.converted]

    @property
    def problems(self) -> list[tuple[str, Problem]]:
        """Every (task id, problem), converted tasks' dropped cases included."""
        return [(o.task_id, p) for o in self.outcomes for p in o.problems]

    def first_reason(self) -> str:
        """Why the first unconverted task failed ("" when all converted)."""
        return next((o.problems[0].detail for o in self.failed if o.problems), "")

    def by_kind(self) -> dict[str, list[TaskOutcome]]:
        """Failed tasks grouped by the kind of their first problem (one group per task)."""
        groups: dict[str, list[TaskOutcome]] = defaultdict(list)
        for o in self.failed:
            groups[o.problems[0].kind if o.problems else "unknown"].append(o)
        return dict(sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])))

    def summary(self, detail_limit: int = 20) -> str:
        lines = [f"{self.importer}: converted {len(self.converted)} of {len(self.outcomes)} "
                 f"tasks from {self.src} into {self.dest}"]
        totals: Counter[str] = Counter()
        for o in self.converted:
            totals.update(o.counts)
        if totals:
            lines.append("cases: " + ", ".join(f"{b} {n}" for b, n in sorted(totals.items())))
        if self.figures:
            lines.append("counts: " + ", ".join(f"{k} {v}" for k, v in self.figures.items()))
        for kind, outs in self.by_kind().items():
            lines.append(f"not converted ({kind}): {len(outs)}")
            for o in outs[:detail_limit]:
                lines.append(f"  {o.task_id}: {o.problems[0].detail if o.problems else ''}")
            if len(outs) > detail_limit:
                lines.append(f"  ... and {len(outs) - detail_limit} more")
        dropped = Counter((p.stage, p.kind) for o in self.converted for p in o.problems)
        if dropped:
            lines.append(f"cases dropped in converted tasks: {sum(dropped.values())}, by reason:")
            for (stage, kind), n in dropped.most_common():
                lines.append(f"  {n:6d}  [{stage}] {kind}")
        return "\n".join(lines)


def reason_kind(reason: str) -> str:
    """A reason without its case-specific details (quoted text, numbers), for grouping."""
    kind = re.sub(r"^[A-Z]\w+(?:Error|Unsupported): ", "", reason)
    kind = re.sub(r"'[^']*'|\"[^\"]*\"", "…", kind)
    kind = re.sub(r"\d+", "N", kind)
    if kind.startswith(("unknown", "expected the call")):
        kind = kind.split(": ", 1)[0]
    return kind


@runtime_checkable
class Importer(Protocol):
    """What the plugin hook ``adequacy_importers`` returns, one per dataset."""

    name: str
    """``adequacy import NAME SRC DEST``."""
    description: str

    def run(self, src: Path, dest: Path, **options: Any) -> ImportReport:
        """Write one task folder per converted task under ``dest``. The source's own faults
        are recorded per task in the report; raise ``InputError`` (file, line) only when the
        source as a whole is unusable. ``only`` (a list of ids from ``task_ids``), when
        given, restricts the import to those tasks.

        Optional, outside the protocol's required surface: ``task_ids(src, **options) ->
        list[str]``, every task id of the source in its order, read without converting
        anything. ``adequacy import --only/--limit`` select from it
        (``adequacy.extensions.importer.select_tasks``); an importer without it cannot select."""
        ...


def select_tasks(importer: Importer, src: Path, only: Sequence[str] | None = None,
                 limit: int | None = None, **options: Any) -> list[str] | None:
    """The task ids an import of ``src`` should convert: those named in ``only`` (each must
    be one of the source's, else ``InputError`` naming it and what the source holds), then the
    first ``limit`` of them in the source's order; None when neither is given (everything).

    The importer lists its source's ids with ``task_ids(src, **options)`` (an optional method
    of the ``Importer`` protocol: the ids its ``run`` accepts in ``only``); one without it
    cannot select, which is an ``InputError`` too rather than a whole import."""
    if not only and limit is None:
        return None
    lister = getattr(importer, "task_ids", None)
    if not callable(lister):
        raise InputError(f"importer {importer.name!r} cannot select tasks (--only, --limit): "
                         "it does not list its source's task ids")
    ids = [str(i) for i in lister(src, **options)]
    chosen = ids
    if only:
        wanted = [w for item in only for w in str(item).split(",") if w.strip()]
        known = set(ids)
        unknown = [w.strip() for w in wanted if w.strip() not in known]
        if unknown:
            hints = []
            for u in unknown:
                near = difflib.get_close_matches(u, ids, n=3)
                hints.append(f"{u!r}" + (f" (did you mean {', '.join(near)}?)" if near else ""))
            sample = ", ".join(ids[:5]) + (", ..." if len(ids) > 5 else "")
            raise InputError(f"no task {', '.join(hints)} "
                             f"in {src} ({len(ids)} tasks: {sample or 'none'})")
        keep = {w.strip() for w in wanted}
        chosen = [i for i in ids if i in keep]
    if limit is not None:
        chosen = chosen[:limit]
    return chosen
