"""The report of one scored spec, and the results log its records are appended to.

A report is printed by ``--json``; a results file is a log of *records*, one JSON line each:
``{schema, created, producer, report, extra}``. Every producer (``run``, ``submit``, agent
rollouts, ``synthesize``/``optimize`` through ``run``) writes through ``append_record`` and every
reader (resume, ``report``, ``compare``) reads through ``read_results``, so a file says which
version of this package, which command and which writer, model, prompt family and program
made each line, and a reader knows what it is reading (docs/report.md, "The results log").
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from adequacy.errors import AdequacyError, validation_message
from adequacy.metrics import BucketStats, HarnessMetrics, bucket_stats, harness_metrics, passed_all
from adequacy.options import RunOptions
from adequacy.verdicts import BUCKETS, Bucket, InvalidSpec, Truth, Verdict


class Disagreement(BaseModel):
    """Two engines decided the same case differently: a defect in one of them."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    case_id: str
    bucket: Bucket
    values: dict[str, Truth]
    """Engine name -> its decided value."""
    reasons: dict[str, str] = {}


class EngineRun(BaseModel):
    """What one engine did for this spec."""

    model_config = ConfigDict(extra="forbid")

    name: str
    version: str = ""
    backend: str = ""
    cases: int = 0
    decided: int = 0
    cached: int = 0
    seconds: float = 0.0
    skipped: str = ""
    """Why the engine did not run (unavailable, not needed)."""


class SpecReport(BaseModel):
    """Everything about one (task, spec) pair; one JSON line in a results file."""

    model_config = ConfigDict(extra="forbid")

    key: str
    """Identity of the job (task content, spec text, engines, options): resume skips done keys."""
    task_id: str
    task_path: str
    spec_path: str | None
    spec_sha: str
    language: str
    status: Literal["scored", "invalid", "error", "writer failed"]
    """``writer failed``: the spec writer (a model) produced no spec, ``error`` says why; a
    failure like any unpassed spec, but not an invalid spec."""
    invalid: InvalidSpec | None = None
    error: str | None = None
    """A failure of ours (not the spec's), e.g. an engine crashing; the batch went on. For
    ``writer failed``: why the writer produced no spec."""
    strict: bool = True
    engines: list[EngineRun] = []
    verdicts: list[Verdict] = []
    disagreements: list[Disagreement] = []
    buckets: dict[Bucket, BucketStats] = Field(default_factory=dict)
    metrics: HarnessMetrics | None = None
    passed_all: bool = False
    seconds: float = 0.0
    empty_by_design: list[Bucket] = []
    """Buckets the task declares empty (``every_input_valid``: no ``pre_sound`` cases)."""
    options: RunOptions | None = None
    origins: dict[str, int] = Field(default_factory=dict)
    """Case origin (``official``, ``generated``, ``mutant``...) -> cases with a verdict in
    this score: what the score rests on. Empty in records written before it existed."""

    @model_validator(mode="after")
    def _consistent(self) -> SpecReport:
        """Refuse a report whose derived figures do not follow from its counts.

        Reports are read back from files anyone can edit (an optimizer that wants a score
        included): ``passed_all`` and the metrics are what summaries add up, so they must be
        exactly what ``finish`` computes from the buckets, and the buckets what the verdicts
        say. Checked at every construction, so every reader refuses the same records."""
        stats = self.buckets
        design = set(self.empty_by_design) - {Bucket.pre_sound, Bucket.post_sound}
        if design:
            raise ValueError("empty_by_design may name only sound buckets (a complete bucket "
                             f"is never empty by design), got {sorted(design)}")
        if stats and set(stats) != set(BUCKETS):
            raise ValueError("buckets must give the counts of all four buckets")
        if len({(v.bucket, v.case_id) for v in self.verdicts}) != len(self.verdicts):
            raise ValueError("a case has more than one verdict (one final verdict per case)")
        if self.verdicts and stats and bucket_stats(self.verdicts) != stats:
            raise ValueError("bucket counts do not match the verdicts")
        if self.origins and (any(n < 0 for n in self.origins.values()) or (
                stats and sum(self.origins.values()) != sum(s.total for s in stats.values()))):
            raise ValueError("origins must count the scored cases (their sum is the number of "
                             "cases with a verdict)")
        if self.status != "scored":
            if self.verdicts or any(s.total for s in stats.values()):
                raise ValueError(f"a {self.status} report has no verdicts or case counts")
            if self.passed_all or self.metrics is not None:
                raise ValueError(f"a {self.status} report has no pass or metrics")
            return self
        if not stats:  # not finished yet (score_spec builds, then fills)
            if self.passed_all or self.metrics is not None:
                raise ValueError("pass or metrics without bucket counts")
            return self
        if self.passed_all != passed_all(stats, self.strict, self.empty_by_design):
            raise ValueError(f"passed_all is {str(self.passed_all).lower()} but the bucket "
                             "counts say otherwise")
        if self.metrics != harness_metrics(stats, self.strict):
            raise ValueError("metrics do not follow from the bucket counts")
        return self

    @classmethod
    def failure(cls, key: str, message: str, *, task_path: str, spec_path: str | None,
                task_id: str = "?", language: str = "?", spec_sha: str = "") -> SpecReport:
        """A pair we could not score through no fault of the spec (missing task, unreadable
        file, a crashed worker): an ``error`` report, so the batch goes on and resume retries."""
        return cls(key=key, task_id=task_id, task_path=task_path, spec_path=spec_path,
                   spec_sha=spec_sha, language=language, status="error",
                   error=message).finish()

    def finish(self) -> SpecReport:
        """Fill the derived scores from the verdicts."""
        stats = bucket_stats(self.verdicts)
        self.buckets = stats
        if self.status == "scored":
            self.metrics = harness_metrics(stats, self.strict)
            self.passed_all = passed_all(stats, self.strict, self.empty_by_design)
        else:
            self.metrics = None
            self.passed_all = False
        return self

    @property
    def exit_code(self) -> int:
        """CLI convention: 0 passed all, 1 failed some case, 3 invalid spec, 2 our error."""
        if self.status == "invalid":
            return 3
        if self.status == "error":
            return 2
        return 0 if self.passed_all else 1


class BatchTotals(BaseModel):
    """Counts over one list of reports: the single source of every batch total we print, so
    the summary line and the footer cannot disagree."""

    specs: int = 0
    scored: int = 0
    passed_all: int = 0
    failed: int = 0
    """Scored but some case not passed."""
    invalid: int = 0
    """The spec's fault (front end or an engine rejected it)."""
    errors: int = 0
    """Our fault (missing task, crashed engine): neither a pass nor the spec's failure."""
    writer_failed: int = 0
    """The writer produced no spec: counted against the writer, never as invalid."""

    def line(self) -> str:
        wf = f", writer failed {self.writer_failed}" if self.writer_failed else ""
        return (f"specs {self.specs}: passed {self.passed_all}, failed {self.failed}, "
                f"invalid {self.invalid}{wf}, errors {self.errors}")


def totals(reports: Sequence[SpecReport]) -> BatchTotals:
    t = BatchTotals(specs=len(reports))
    for r in reports:
        if r.status == "scored":
            t.scored += 1
            if r.passed_all:
                t.passed_all += 1
            else:
                t.failed += 1
        elif r.status == "invalid":
            t.invalid += 1
        elif r.status == "writer failed":
            t.writer_failed += 1
        else:
            t.errors += 1
    return t


# ------------------------------------------------------------------ the results log

SCHEMA = 4
"""Version of the record shape. 1: a bare report, its producer's fields flattened beside it or
the report nested under ``report`` (no ``schema`` key; read by migration). 2: the envelope.
3: the report's ``origins`` (cases of each origin the score rests on). 4: the producer's
``sample`` (the writer's sample index)."""


class ResultsError(AdequacyError):
    """A results file that cannot be read as one; the message starts with ``file:line``."""


class Provenance(BaseModel):
    """Who wrote the spec: carried from ``synthesize``'s jobs file into every record ``run``
    writes, so ``report --by model`` can tell two models' specs apart."""

    model_config = ConfigDict(extra="forbid")

    writer: str | None = None
    """The writer kind: ``templates``, ``houdini``, ``dspy``, ``agent``, a person..."""
    model: str | None = None
    """The language model (a litellm model string), where one wrote the spec."""
    family: str | None = None
    """The prompt family (``zs``, ``fs-cot``, ...)."""
    program: str | None = None
    """SHA-256 of the optimized program file the writer ran, where it ran one."""
    sample: int | None = Field(default=None, ge=0)
    """Which of the writer's samples for the task this spec is (0, 1, ...): what pass@k and
    pass^k group, and part of the job's key, so two samples with the same text are two
    records. None: not a sample (a hand-written spec, a file of a folder)."""


class Producer(Provenance):
    """Provenance plus what wrote the record itself."""

    adequacy: str
    """Version of this package ("" in records migrated from schema 1, which did not say)."""
    command: str
    """``run``, ``submit``, ``agent``, ``score``..."""
    experiment: str | None = None
    """SHA-256 of the study file (``adequacy experiment run``) that asked for the record."""


class ResultRecord(BaseModel):
    """One line of a results file."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    schema_: int = Field(SCHEMA, alias="schema")
    created: datetime | None
    """When the record was written (None: migrated from schema 1, which did not say)."""
    producer: Producer
    report: SpecReport
    extra: dict[str, Any] = {}
    """The producer's own fields: the gym's submission count, an agent's trajectory,
    ``verified``... Kept beside the report, never inside it."""


class LoggedRecord(BaseModel):
    """A record with the line it was read from, for messages and drill-downs."""

    model_config = ConfigDict(extra="forbid")

    path: str
    line: int
    record: ResultRecord

    @property
    def source(self) -> str:
        return f"{self.path}:{self.line}"


def producer(command: str, provenance: Provenance | None = None,
             experiment: str | None = None) -> Producer:
    from adequacy import __version__

    return Producer(adequacy=__version__, command=command, experiment=experiment,
                    **(provenance.model_dump() if provenance else {}))


def make_record(report: SpecReport, prod: Producer,
                extra: dict[str, Any] | None = None) -> ResultRecord:
    """The record of a report. A subclass's own fields (``GymRecord``'s, ``AgentRollout``'s)
    go to ``extra``, so the report inside is exactly a ``SpecReport``."""
    dumped = report.model_dump(mode="json")
    base = {k: dumped[k] for k in SpecReport.model_fields}
    own = {k: v for k, v in dumped.items() if k not in SpecReport.model_fields}
    return ResultRecord(schema=SCHEMA, created=datetime.now(UTC), producer=prod,
                        report=SpecReport.model_validate(base), extra={**own, **(extra or {})})


def record_line(rec: ResultRecord) -> str:
    return rec.model_dump_json(by_alias=True) + "\n"


def append_record(path: Path, report: SpecReport, prod: Producer,
                  extra: dict[str, Any] | None = None, out: IO[str] | None = None
                  ) -> ResultRecord:
    """Append one record and flush it to disk: the one way every producer writes results.

    ``out``: an already open handle on ``path`` (a batch keeps one open); otherwise the file is
    opened for this record, after cutting a torn last line a killed writer left."""
    rec = make_record(report, prod, extra)
    if out is None:
        path.parent.mkdir(parents=True, exist_ok=True)
        repair_tail(path)
        with path.open("a", encoding="utf-8") as f:
            _write(f, rec)
    else:
        _write(out, rec)
    return rec


def _write(f: IO[str], rec: ResultRecord) -> None:
    f.write(record_line(rec))
    f.flush()
    os.fsync(f.fileno())


def repair_tail(path: Path) -> None:
    """A kill mid-write leaves a line without its newline: cut it so appends stay parseable."""
    if not path.exists() or path.stat().st_size == 0:
        return
    with path.open("rb+") as f:
        f.seek(-1, os.SEEK_END)
        if f.read(1) == b"\n":
            return
        data = path.read_bytes()
        f.seek(data.rfind(b"\n") + 1)
        f.truncate()


def read_results(path: Path) -> list[LoggedRecord]:
    """Every record of a results file, in file order (a key may repeat: see ``latest``).

    A torn last line (a writer killed mid-line) is skipped; any other line that is not a
    record, a record of a newer schema, or a report whose counts are inconsistent is a
    ``ResultsError`` naming the file and line: skipping it would change the figures quietly."""
    try:
        text = path.read_bytes().decode("utf-8", errors="replace")
    except OSError as e:
        raise ResultsError(f"{path}: cannot read results file: {e.strerror or e}") from None
    lines = text.splitlines()
    last = max((i for i, ln in enumerate(lines) if ln.strip()), default=-1)
    out: list[LoggedRecord] = []
    for i, line in enumerate(lines):
        if not line.strip():
            continue
        try:
            rec = parse_record(line)
        except _Torn as e:
            if i == last and not text.endswith("\n"):
                continue
            raise ResultsError(f"{path}:{i + 1}: {e}") from None
        except ResultsError as e:
            raise ResultsError(f"{path}:{i + 1}: {e}") from None
        # already validated: constructing again would rerun the report's checks
        out.append(LoggedRecord.model_construct(path=str(path), line=i + 1, record=rec))
    return out


def latest(records: Sequence[LoggedRecord]) -> list[LoggedRecord]:
    """The newest record of each key, in the order of those newest records: a results file
    is an append-only log (a retried error, a rescored spec), and a key's report is its last."""
    by: dict[str, LoggedRecord] = {}
    for r in records:
        by.pop(r.record.report.key, None)
        by[r.record.report.key] = r
    return list(by.values())


def read_log(path: Path) -> dict[str, SpecReport]:
    """The latest report of every key (nothing when the file does not exist yet)."""
    if not path.exists():
        return {}
    return {r.record.report.key: r.record.report for r in latest(read_results(path))}


class _Torn(ResultsError):
    """The line is not JSON at all (at the end of a file: a writer killed mid-line)."""


def parse_record(line: str) -> ResultRecord:
    from adequacy.textfiles import JsonError, parse_json

    try:
        obj = parse_json(line)
    except JsonError as e:
        raise _Torn(f"not a result record: {e}") from None
    if not isinstance(obj, dict):
        raise ResultsError("not a result record: a JSON object is expected")
    schema = obj.get("schema", 1)
    if type(schema) is not int or schema < 1:
        raise ResultsError(f"not a result record: schema must be a positive integer, got "
                           f"{schema!r}")
    if schema > SCHEMA:
        raise ResultsError(f"written with results schema {schema}, newer than this adequacy "
                           f"reads (up to {SCHEMA}): upgrade spec-adequacy to read this file")
    while schema < SCHEMA:  # one step per version: a new schema adds one migration
        obj = _MIGRATIONS[schema](obj)
        schema = obj["schema"]
    try:
        return ResultRecord.model_validate(obj)
    except ValidationError as e:
        raise ResultsError(f"not a valid result record: {validation_message(e)}") from None


_V1_PRODUCER = ("writer", "model", "family", "program")


def _from_v1(obj: dict[str, Any]) -> dict[str, Any]:
    """Schema 1 -> 2. Three shapes were written: a bare report (``run``), a report with the
    producer's fields flattened beside it (gym submissions, agent rollouts, synthesize-era
    extras), and a report nested under ``report``. ``options.strict`` (before 7bfd061) is
    dropped: ``strict`` beside it has always said the same."""
    nested = obj.get("report")
    inner: dict[str, Any] = dict(nested) if isinstance(nested, dict) else obj
    fields = set(SpecReport.model_fields)
    if not {"key", "status"} <= set(inner):
        raise ResultsError("not a result record (no report key and status: another kind of "
                           "JSON lines file?)")
    rep = {k: v for k, v in inner.items() if k in fields}
    extra = {k: v for k, v in obj.items() if k not in fields and k != "report"}
    if isinstance(rep.get("options"), dict) and "strict" in rep["options"]:
        opts = dict(rep["options"])
        old = opts.pop("strict")
        rep.setdefault("strict", old)
        rep["options"] = opts
    prov = {k: extra.pop(k) for k in _V1_PRODUCER if isinstance(extra.get(k), str)}
    if "model" not in prov and isinstance(extra.get("agent_model"), str):
        prov["model"] = extra["agent_model"]
    command = ("agent" if "trajectory" in extra else "submit" if "gym_folder" in extra
               else "run")
    if command == "agent":
        prov.setdefault("writer", "agent")
    return {"schema": 2, "created": extra.get("submitted_at") or None,
            "producer": {"adequacy": "", "command": command, **prov},
            "report": rep, "extra": extra}


def _from_v2(obj: dict[str, Any]) -> dict[str, Any]:
    """Schema 2 -> 3: nothing to convert; a report without ``origins`` reads with it empty
    (which origins a schema-2 score rested on was not recorded)."""
    return {**obj, "schema": 3}


def _from_v3(obj: dict[str, Any]) -> dict[str, Any]:
    """Schema 3 -> 4: nothing to convert; a record without ``producer.sample`` reads with it
    null (a schema-3 file did not say which sample a spec was, so none counts as one)."""
    return {**obj, "schema": 4}


_MIGRATIONS = {1: _from_v1, 2: _from_v2, 3: _from_v3}
"""Schema N -> N + 1. Any change to ``ResultRecord`` or ``SpecReport`` that an older reader
would refuse (a new field: both forbid extras) bumps ``SCHEMA`` and adds a step here, so old
files still read and old readers say "upgrade" instead of "not a valid record"."""
