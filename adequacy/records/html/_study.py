"""A study: the records of one report, grouped and measured, ready for any output format."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from adequacy.model.metrics import HARNESS_T
from adequacy.model.verdicts import BUCKETS
from adequacy.records.html._aggregate import ApproachStats, approach_stats, group, task_infos
from adequacy.records.html._load import Record
from adequacy.records.html._outcomes import outcome
from adequacy.records.html._qa import BenchmarkQA
from adequacy.records.html._spectext import SpecText, spec_text

MAX_CASES_SHOWN = 100


class FailingCase(BaseModel):
    model_config = ConfigDict(extra="forbid")

    bucket: str
    case_id: str
    input: str
    output: str
    said: str
    expected: str
    engine: str
    reason: str


class SpecRow(BaseModel):
    """One spec in the per-task table, with its drill-down."""

    model_config = ConfigDict(extra="forbid")

    anchor: str
    approach: str
    task_id: str
    spec: str
    source: str
    status: str
    outcome: str
    buckets: dict[str, str]
    """Bucket -> ``passed/total`` (``-`` when empty), unknowns in brackets."""
    passed_all: bool
    detail: str
    """Why an invalid or error spec got no scores."""
    failing: list[FailingCase]
    more_failing: int
    text: SpecText = SpecText()
    """The spec itself, highlighted, with the lines engines named marked."""
    solver: list[str] = []
    """The solver's figures of the spec (``--symbolic``), one sentence each."""
    verified: bool = False
    """Sealed by this installation's grader (``Record.sealed``)."""
    strict: bool = True
    program_mutants: str = ""
    """``killed/mutants`` of the task's wrong programs the spec rejects (``-`` when the
    task's cases name none)."""
    program_ratio: float | None = None
    program_survivors: list[str] = []
    """The wrong programs it accepts on every recorded wrong output."""


class StudyView(BaseModel):
    model_config = ConfigDict(extra="forbid")

    files: list[str]
    strict: bool
    harness_t: float = HARNESS_T
    """The threshold of the Harness@t and PostHarness@t columns (the curves show every t)."""
    approaches: list[ApproachStats]
    rows: list[SpecRow]
    verified: int = 0
    """Records sealed by this installation's grader."""
    unverified: list[str] = []
    """Where each other record is (``file:line``): typed, edited, or from elsewhere."""
    lenient: int = 0
    """Specs scored leniently."""
    qa: BenchmarkQA | None = None
    """How strong each task's cases are (``report --strength FILE``); None when not given."""


def build_study(records: Sequence[Record], files: Sequence[str],
                harness_t: float = HARNESS_T, qa: BenchmarkQA | None = None) -> StudyView:
    infos = task_infos(records)
    approaches = [approach_stats(name, recs, infos, harness_t)
                  for name, recs in group(records).items()]
    cases = _case_texts(records)
    rows = [_row(i, r, cases) for i, r in enumerate(records)]
    rows.sort(key=lambda s: (s.task_id, s.approach, s.spec))
    return StudyView(files=list(files), strict=all(r.report.strict for r in records),
                 harness_t=harness_t, approaches=approaches, rows=rows,
                 verified=sum(1 for r in records if r.sealed),
                  unverified=[r.source for r in records if not r.sealed],
                 lenient=sum(1 for r in records if not r.report.strict), qa=qa)


def trust_notes(study: StudyView) -> list[str]:
    """What a reader must know before believing the figures: records nobody here scored, and
    lenient scoring. One sentence each; empty when every record is verified and strict."""
    notes = []
    n = len(study.unverified)
    if n:
        where = ", ".join(study.unverified[:5]) + (f" and {n - 5} more" if n > 5 else "")
        notes.append(f"NOT VERIFIED: {n} of {n + study.verified} records were not sealed by "
                     "this installation's grader (typed or edited by hand, or written "
                     f"elsewhere): {where}. Their figures are claims, not measurements; "
                     "rescore them with adequacy run, or drop them with --verified-only.")
    if study.lenient:
        notes.append(f"LENIENT: {study.lenient} spec(s) were scored leniently (unknown cases "
                     "left out): a spec can raise such a score by being undecided where it "
                     "would fail, so these figures are not comparable with strict ones.")
    return notes


def _row(i: int, rec: Record, cases: dict[tuple[str, str, str], tuple[str, str]]) -> SpecRow:
    rep = rec.report
    cells = {}
    for b in BUCKETS:
        s = rep.buckets.get(b)
        cells[b.value] = ("-" if s is None or s.total == 0 else f"{s.passed}/{s.total}"
                          + (f" ({s.unknown}?)" if s.unknown else ""))
    bad = [v for v in rep.verdicts if not v.passed]
    failing = []
    for v in bad[:MAX_CASES_SHOWN]:
        inp, out = cases.get((rep.task_path, v.bucket.value, v.case_id), ("", ""))
        failing.append(FailingCase(bucket=v.bucket.value, case_id=v.case_id, input=inp,
                                   output=out, said=v.value.value,
                                   expected="true" if v.bucket.expects else "false",
                                   engine=v.engine, reason=v.reason))
    detail = ""
    if rep.status == "invalid" and rep.invalid is not None:
        detail = rep.invalid.render()
    elif rep.status == "error":
        detail = rep.error or ""
    return SpecRow(anchor=f"spec-{i}", approach=rec.approach, task_id=rep.task_id,
                   spec=Path(rep.spec_path).name if rep.spec_path else "(spec text)",
                   source=rec.source, status=rep.status, outcome=outcome(rep).value,
                   buckets=cells, passed_all=rep.passed_all, detail=detail, failing=failing,
                   more_failing=max(0, len(bad) - MAX_CASES_SHOWN),
                   solver=rep.symbolic.lines() if rep.symbolic is not None else [],
                   text=spec_text(rep, Path(rec.source.rsplit(":", 1)[0]).parent),
                   verified=rec.sealed, strict=rep.strict,
                   program_mutants=("-" if rep.program_mutants is None else
                                    f"{rep.program_mutants.killed}/{rep.program_mutants.mutants}"),
                   program_ratio=(rep.program_mutants.ratio if rep.program_mutants is not None
                                  else None),
                   program_survivors=(list(rep.program_mutants.survivors)
                                      if rep.program_mutants is not None else []))


def _case_texts(records: Sequence[Record]) -> dict[tuple[str, str, str], tuple[str, str]]:
    """Inputs and outputs of the failing cases, read from the task folders still on disk."""
    from adequacy.errors import AdequacyError
    from adequacy.taskdirs.load import load_task

    wanted = {r.report.task_path for r in records if any(not v.passed for v in r.report.verdicts)}
    out: dict[tuple[str, str, str], tuple[str, str]] = {}
    for path in wanted:
        try:
            task = load_task(Path(path))
        except (AdequacyError, OSError, ValueError):
            continue
        for c in task.all_cases():
            out[(path, c.bucket.value, c.id)] = (_short(c.input),
                                                 "" if c.output is None else _short(c.output))
    return out


def _short(v: Any, limit: int = 300) -> str:
    s = json.dumps(v, ensure_ascii=False)
    return s if len(s) <= limit else s[:limit - 3] + "..."
