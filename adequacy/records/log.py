"""The results log: one JSON record per line, appended by every producer, read by every reader.

A results file is a log of *records*: ``{schema, created, producer, report, extra}``. Every
producer (``run``, ``submit``, agent rollouts, ``synthesize``/``optimize`` through ``run``)
writes through ``append_record`` and every reader (resume, ``report``, ``compare``) reads through
``read_results``, so a file says which version of this package, which command and which writer,
model, prompt family and program made each line, and a reader knows what it is reading
(docs/report.md, "The results log"). Older schemas are migrated on read.

Every record ``append_record`` writes is sealed: the line begins with ``"seal"``, an HMAC of
the rest of the line under this installation's grader key (``adequacy.scoring.trust``). A reader can
then tell a record this installation's grader wrote (``LoggedRecord.sealed``) from one someone
typed, edited or brought from another installation, whose counts may be consistent and still
invented.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from adequacy.errors import ResultsError, TrustError, validation_message
from adequacy.extensions.component import Component
from adequacy.scoring import trust
from adequacy.scoring.spec_report import Provenance, SpecReport

SCHEMA = 7
"""Version of the record shape. 1: a bare report, its producer's fields flattened beside it or
the report nested under ``report`` (no ``schema`` key; read by migration). 2: the envelope.
3: the report's ``origins`` (cases of each origin the score rests on). 4: the ``seal`` and the
producer's ``sample`` (the writer's sample index). 5: the producer's ``made_by`` (the writer
with its parameters and distribution) and ``plugins`` (every installed plugin's distribution
and version). 6: the report's ``symbolic`` (the solver's figures of ``--symbolic``). 7: the
report's ``program_mutants`` (the program-mutant kill ratio)."""

SEAL_DOMAIN = "results-record"
_SEALED = re.compile(r'\{"seal":"([0-9a-f]{64})",')


class Producer(Provenance):
    """Provenance plus what wrote the record itself."""

    adequacy: str
    """Version of this package ("" in records migrated from schema 1, which did not say)."""
    command: str
    """``run``, ``submit``, ``agent``, ``score``..."""
    experiment: str | None = None
    """SHA-256 of the study file (``adequacy experiment run``) that asked for the record."""
    plugins: list[Component] = []
    """Every plugin registered when the record was written (backends, importers, writers,
    metrics, operators, judges: built-in or not), with its distribution's name and version;
    empty in records older than schema 5."""


class ResultRecord(BaseModel):
    """One line of a results file."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    seal: str | None = None
    """HMAC of the rest of the line under this installation's grader key (written first on the
    line; see ``record_line``). Checked against the line's bytes, never trusted as a field."""
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
    sealed: bool = False
    """The line carries this installation's grader seal: a grader here wrote it as it is. False
    for a record typed or edited by hand, written by another installation, or older than seals."""

    @property
    def source(self) -> str:
        return f"{self.path}:{self.line}"


def producer(command: str, provenance: Provenance | None = None,
             experiment: str | None = None) -> Producer:
    from adequacy.extensions.registry import registry
    from adequacy.version import __version__

    return Producer(adequacy=__version__, command=command, experiment=experiment,
                    plugins=registry().plugins(),
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


def record_line(rec: ResultRecord, seal: bool = True) -> str:
    """The record's line, sealed when this installation's grader key can be had (else
    unsealed, with one warning: the record is kept, and reads back as not verified).
    ``seal=False``: a record whose grade this grader did not compute (a Harbor job's, imported)
    is written unsealed on purpose, and reads back as not verified."""
    body = rec.model_dump_json(by_alias=True, exclude={"seal"})
    if not seal:
        return body + "\n"
    try:
        tag = trust.tag(SEAL_DOMAIN, body.encode("utf-8"))
    except TrustError as e:
        _warn_unsealed(str(e))
        return body + "\n"
    return '{"seal":"' + tag + '",' + body[1:] + "\n"


def line_sealed(line: str) -> bool:
    """Whether ``line`` (without its newline) is exactly as this installation's grader wrote
    it: its seal checks against the rest of the line."""
    m = _SEALED.match(line)
    if m is None:
        return False
    body = "{" + line[m.end():]
    return trust.genuine(SEAL_DOMAIN, body.encode("utf-8", "surrogatepass"), m.group(1))


_warned_unsealed: list[str] = []


def _warn_unsealed(why: str) -> None:
    if not _warned_unsealed:
        _warned_unsealed.append(why)
        import sys
        print(f"warning: results are written unsealed ({why}); they will read back as not "
              "verified", file=sys.stderr, flush=True)


def append_record(path: Path, report: SpecReport, prod: Producer,
                  extra: dict[str, Any] | None = None, out: IO[str] | None = None,
                  seal: bool = True) -> ResultRecord:
    """Append one record and flush it to disk: the one way every producer writes results.

    ``out``: an already open handle on ``path`` (a batch keeps one open); otherwise the file is
    opened for this record, after cutting a torn last line a killed writer left. ``seal``:
    False for a grade this installation's grader did not compute (an imported run)."""
    rec = make_record(report, prod, extra)
    if out is None:
        path.parent.mkdir(parents=True, exist_ok=True)
        repair_tail(path)
        with path.open("a", encoding="utf-8") as f:
            _write(f, rec, seal)
    else:
        _write(out, rec, seal)
    return rec


def _write(f: IO[str], rec: ResultRecord, seal: bool = True) -> None:
    f.write(record_line(rec, seal))
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
    # records end at "\n" only: ``splitlines`` would also cut at U+2028, U+0085 and the other
    # line breaks a JSON string may hold raw (a model's name, a case's text, a spec's path)
    lines = text.split("\n")
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
        out.append(LoggedRecord.model_construct(path=str(path), line=i + 1, record=rec,
                                                sealed=rec.seal is not None
                                                and line_sealed(line)))
    return out


def latest(records: Sequence[LoggedRecord]) -> list[LoggedRecord]:
    """The newest record of each key, in the order of those newest records: a results file
    is an append-only log (a retried error, a rescored spec), and a key's report is its last."""
    by: dict[str, LoggedRecord] = {}
    for r in records:
        by.pop(r.record.report.key, None)
        by[r.record.report.key] = r
    return list(by.values())


def read_log(path: Path, sealed_only: bool = False) -> dict[str, SpecReport]:
    """The latest report of every key (nothing when the file does not exist yet).

    ``sealed_only``: the latest report of every key whose latest record this installation's
    grader sealed; resume uses it, so a typed or foreign record is scored again, never taken
    for done."""
    if not path.exists():
        return {}
    return {r.record.report.key: r.record.report for r in latest(read_results(path))
            if r.sealed or not sealed_only}


class _Torn(ResultsError):
    """The line is not JSON at all (at the end of a file: a writer killed mid-line)."""


def parse_record(line: str) -> ResultRecord:
    from adequacy.errors import JsonError
    from adequacy.model.textfiles import parse_json

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
    """Schema 3 -> 4: records of schema 3 were never sealed (a ``seal`` on one is not ours) and
    did not say which sample a spec was (``producer.sample`` reads null, so none counts as
    one)."""
    return {**{k: v for k, v in obj.items() if k != "seal"}, "schema": 4}


def _from_v4(obj: dict[str, Any]) -> dict[str, Any]:
    """Schema 4 -> 5: nothing to convert; a producer without ``made_by`` or ``plugins`` reads
    with none (what wrote the spec beyond its flat fields, and which plugins were installed,
    were not recorded)."""
    return {**obj, "schema": 5}


def _from_v5(obj: dict[str, Any]) -> dict[str, Any]:
    """Schema 5 -> 6: nothing to convert; a report without ``symbolic`` reads with none (no
    solver figures were measured)."""
    return {**obj, "schema": 6}


def _from_v6(obj: dict[str, Any]) -> dict[str, Any]:
    """Schema 6 -> 7: nothing to convert; a report without ``program_mutants`` reads with none
    (no program-mutant kill ratio was measured)."""
    return {**obj, "schema": 7}


_MIGRATIONS = {1: _from_v1, 2: _from_v2, 3: _from_v3, 4: _from_v4, 5: _from_v5, 6: _from_v6}
"""Schema N -> N + 1. Any change to ``ResultRecord`` or ``SpecReport`` that an older reader
would refuse (a new field: both forbid extras) bumps ``SCHEMA`` and adds a step here, so old
files still read and old readers say "upgrade" instead of "not a valid record"."""
