"""Reading results files for reports: one record per job, grouped into approaches.

A results file is a log (a resumed or re-run batch appends): the report of a job is its latest
record, so a stale row never counts twice. Every line goes through ``adequacy.records.log``'s one
reader, which migrates older schemas and refuses newer ones, lines that are not records, and
reports whose counts are inconsistent, each with its file and line: a report built on silently
skipped or crafted lines would show figures nobody scored.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from adequacy.errors import ResultsError
from adequacy.records.log import Producer, latest, read_results
from adequacy.scoring.spec_report import SpecReport

GroupBy = Literal["auto", "file", "writer", "model", "family"]


class Record(BaseModel):
    """One scored spec as a report shows it."""

    model_config = ConfigDict(extra="forbid", arbitrary_types_allowed=True)

    approach: str
    """The group this record is compared in (a file, a writer, a model, a prompt family)."""
    source: str
    """The results file and line it came from, for a reader to find it again."""
    report: SpecReport
    producer: Producer
    extra: dict[str, Any] = {}
    """Fields of other producers: verified, agent steps, the gym's counters..."""
    sealed: bool = False
    """This installation's grader wrote the record as it reads (``LoggedRecord.sealed``); a
    report calls such a record *verified*, and every other one a claim."""

    @property
    def verified(self) -> bool | None:
        """Whether the spec verified against the method body, where a producer measured it."""
        v = self.extra.get("verified")
        return v if isinstance(v, bool) else None


def read_records(paths: Sequence[Path], group_by: GroupBy = "auto",
                 verified_only: bool = False) -> list[Record]:
    """Every job's latest record from each file; a file with no record at all is an error (a
    wrong path should not make an empty report). ``verified_only``: of those, only the ones
    this installation's grader sealed (an error when none is)."""
    records: list[Record] = []
    for path in paths:
        logged = latest(read_results(path))
        if not logged:
            raise ResultsError(f"{path}: no result records in this file (expected JSON lines "
                               "written by adequacy run, submit or agent)")
        for lr in sorted(logged, key=lambda r: r.line):
            if verified_only and not lr.sealed:
                continue
            rec = lr.record
            # parts validated by read_results: constructing again would rerun every check
            records.append(Record.model_construct(
                approach=_approach(path, rec.producer, group_by), source=lr.source,
                report=rec.report, producer=rec.producer, extra=rec.extra, sealed=lr.sealed))
    if verified_only and not records:
        raise ResultsError(f"{', '.join(map(str, paths))}: no record was sealed by this "
                           "installation's grader (nothing verified to report; rescore the "
                           "specs with adequacy run)")
    return records


def _approach(path: Path, prod: Producer, group_by: GroupBy) -> str:
    writer = _label(prod.writer, prod.family) + (f"@{prod.program[:8]}" if prod.program else "")
    if group_by == "file":
        return path.stem
    if group_by == "writer":
        return writer or path.stem
    if group_by == "model":
        return prod.model or path.stem
    if group_by == "family":
        return prod.family or path.stem
    parts = [p for p in (writer, prod.model or "") if p]
    return " / ".join(parts) if parts else path.stem


def _label(*values: str | None) -> str:
    return "-".join(v for v in values if v)
