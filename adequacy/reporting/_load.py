"""Reading results files for reports: one record per job, grouped into approaches.

A results file is a log (a resumed or re-run batch appends): the report of a job is its latest
record, so a stale row never counts twice. Records written by other producers (``synthesize``,
``optimize``, agent rollouts) are SpecReports with extra fields (writer, model, verified, ...);
those extras are kept beside the report rather than rejected, so one reader serves them all.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from adequacy.errors import AdequacyError
from adequacy.results import SpecReport

GroupBy = Literal["auto", "file", "writer", "model"]
_REPORT_FIELDS = set(SpecReport.model_fields)


class Record(BaseModel):
    """One scored spec as a report shows it."""

    model_config = ConfigDict(extra="forbid", arbitrary_types_allowed=True)

    approach: str
    """The group this record is compared in (a file, a writer, a model)."""
    source: str
    """The results file and line it came from, for a reader to find it again."""
    report: SpecReport
    extra: dict[str, Any] = {}
    """Fields of other producers: writer, model, family, verified, agent steps..."""

    @property
    def verified(self) -> bool | None:
        """Whether the spec verified against the method body, where a producer measured it."""
        v = self.extra.get("verified")
        return v if isinstance(v, bool) else None


class ResultsError(AdequacyError):
    """A results file that cannot be read as one."""


def read_records(paths: Sequence[Path], group_by: GroupBy = "auto") -> list[Record]:
    """Every job's latest record from each file; a torn or foreign line is skipped, but a file
    with no record at all is an error (a wrong path should not make an empty report)."""
    records: list[Record] = []
    for path in paths:
        latest: dict[str, tuple[int, SpecReport, dict[str, Any]]] = {}
        try:
            raw = path.read_bytes()
        except OSError as e:
            raise ResultsError(f"{path}: cannot read results file: {e.strerror or e}") from None
        text = raw.decode("utf-8", errors="replace")
        for n, line in enumerate(text.splitlines(), 1):
            parsed = _parse_line(line)
            if parsed is not None:
                latest[parsed[0].key] = (n, *parsed)
        if not latest:
            raise ResultsError(f"{path}: no result records in this file (expected JSON lines "
                               "written by adequacy run, synthesize, optimize or agent)")
        for n, rep, extra in sorted(latest.values(), key=lambda t: t[0]):
            records.append(Record(approach=_approach(path, extra, group_by),
                                  source=f"{path}:{n}", report=rep, extra=extra))
    return records


def _parse_line(line: str) -> tuple[SpecReport, dict[str, Any]] | None:
    if not line.strip():
        return None
    try:
        obj = json.loads(line)
    except (json.JSONDecodeError, RecursionError):
        return None
    if not isinstance(obj, dict):
        return None
    # Producers nest the report (agent rollouts) or flatten their fields beside it.
    nested = obj.get("report")
    inner: dict[str, Any] = nested if isinstance(nested, dict) else obj
    extra = {k: v for k, v in obj.items() if k not in _REPORT_FIELDS and k != "report"}
    try:
        rep = SpecReport.model_validate({k: v for k, v in inner.items() if k in _REPORT_FIELDS})
    except ValidationError:
        return None
    return rep, extra


def _approach(path: Path, extra: dict[str, Any], group_by: GroupBy) -> str:
    writer = _label(extra.get("writer"), extra.get("family"))
    model = _label(extra.get("model"))
    if group_by == "file":
        return path.stem
    if group_by == "writer":
        return writer or path.stem
    if group_by == "model":
        return model or path.stem
    parts = [p for p in (writer, model) if p]
    return " / ".join(parts) if parts else path.stem


def _label(*values: object) -> str:
    return "-".join(str(v) for v in values if isinstance(v, str | int) and str(v))
