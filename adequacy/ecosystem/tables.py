"""Results as a table: one row per spec, for CSV files and data frames.

A row holds everything a record says, flat: where it is (file:line), what was scored, the
approach it is compared in (as ``adequacy report --by`` groups), whether this installation's
grader sealed it (``sealed``: a *verified* record), the outcome category, each
bucket's counts and pass fraction, every registered metric (the four Spec-Harness ones first,
a plugin's after the fixed columns) and Harness@1, the engines, the whole producer (package
version, command, writer, model, prompt family, program, experiment, when; the writer's
parameters as ``made_by.params.*``, the plugins as ``name=distribution version`` in one cell)
and every scalar field of the producer's ``extra`` (nested tables flattened as
``extra.harbor.agent``; lists, such as an agent's trajectory, are left out: a cell is one
value). The rows are the latest record of each job, what every report counts.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

from adequacy.extensions.registry import registry
from adequacy.model.metrics import BUILTIN_METRICS
from adequacy.model.verdicts import BUCKETS

GroupBy = Literal["auto", "file", "writer", "model", "family"]

_COUNTS = ("passed", "failed", "unknown", "total", "fraction")
COLUMNS: tuple[str, ...] = (
    "approach", "source", "task_id", "language", "spec_path", "spec_sha", "status", "outcome",
    "passed_all", "strict", "sealed",
    *(f"{b.value}_{k}" for b in BUCKETS for k in _COUNTS),
    *(m.name for m in BUILTIN_METRICS), "harness_at_1", "post_harness_at_1",
    "engines", "seconds", "error", "invalid",
    "created", "adequacy_version", "command", "writer", "model", "family", "program",
    "experiment", "key",
)
"""The fixed columns, in order; ``extra.*`` columns follow, sorted by name."""


def _flat(prefix: str, v: Any, out: dict[str, Any]) -> None:
    if isinstance(v, dict):
        for k, x in v.items():
            _flat(f"{prefix}.{k}", x, out)
    elif v is None or isinstance(v, str | int | float | bool):
        out[prefix] = v


def record_row(rec: Any) -> dict[str, Any]:
    """The row of one ``adequacy.records.html.Record``."""
    from adequacy.records.html import outcome

    rep, prod = rec.report, rec.producer
    row: dict[str, Any] = {
        "approach": rec.approach, "source": rec.source, "task_id": rep.task_id,
        "language": rep.language, "spec_path": rep.spec_path, "spec_sha": rep.spec_sha,
        "status": rep.status, "outcome": outcome(rep).value, "passed_all": rep.passed_all,
        "strict": rep.strict, "sealed": rec.sealed}
    for b in BUCKETS:
        s = rep.buckets.get(b)
        for k in _COUNTS:
            row[f"{b.value}_{k}"] = (None if s is None else s.fraction(rep.strict)
                                     if k == "fraction" else getattr(s, k))
    m = rep.metrics
    for metric in registry().metrics.values():
        row[metric.name] = metric.value(rep.buckets, rep.strict) if m is not None else None
    row["harness_at_1"] = m.harness_at(1.0) if m is not None else None
    row["post_harness_at_1"] = m.post_harness_at(1.0) if m is not None else None
    row["engines"] = ",".join(e.name for e in rep.engines if not e.skipped)
    row["seconds"] = rep.seconds
    row["error"] = rep.error
    row["invalid"] = rep.invalid.render() if rep.invalid is not None else None
    row["created"] = None
    row["adequacy_version"] = prod.adequacy
    for k in ("command", "writer", "model", "family", "program", "experiment"):
        row[k] = getattr(prod, k)
    if prod.made_by is not None:
        _flat("made_by", prod.made_by.model_dump(), row)
    if prod.plugins:
        row["plugins"] = " ".join(f"{p.name}={p.distribution or '?'} {p.version or '?'}"
                                  for p in prod.plugins)
    row["key"] = rep.key
    extras: dict[str, Any] = {}
    _flat("extra", rec.extra, extras)
    row.update(extras)
    return row


def spec_rows(paths: Sequence[str | Path], group_by: GroupBy = "auto") -> list[dict[str, Any]]:
    """One row per spec of the results files (their latest record per job)."""
    from adequacy.records.html import read_records
    from adequacy.records.log import latest, read_results

    files = [Path(p) for p in paths]
    records = read_records(files, group_by=group_by)
    created = {lr.source: lr.record.created for f in files for lr in latest(read_results(f))}
    rows = []
    for rec in records:
        row = record_row(rec)
        when = created.get(rec.source)
        row["created"] = when.isoformat() if when is not None else None
        rows.append(row)
    return rows


def columns(rows: Sequence[dict[str, Any]]) -> list[str]:
    extra = sorted({k for r in rows for k in r if k not in COLUMNS})
    return [*COLUMNS, *extra]


def to_csv(rows: Sequence[dict[str, Any]]) -> str:
    """RFC 4180 CSV with a header; empty cells for values a row lacks (None)."""
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=columns(rows), lineterminator="\r\n",
                       extrasaction="raise")
    w.writeheader()
    for r in rows:
        w.writerow({k: ("" if v is None else v) for k, v in r.items()})
    return buf.getvalue()


def results_frame(paths: str | Path | Sequence[str | Path], group_by: GroupBy = "auto") -> Any:
    """A ``pandas.DataFrame`` with one row per spec of one or more results files: every
    bucket's counts and pass fraction, the metrics, the outcome, the whole producer and the
    scalar ``extra`` fields (docs/python-api.md). Needs pandas (``pip install pandas``)."""
    try:
        import pandas as pd
    except ImportError:
        raise ImportError("results_frame needs pandas: pip install pandas") from None
    files = [paths] if isinstance(paths, str | Path) else list(paths)
    rows = spec_rows(files, group_by)
    return pd.DataFrame(rows, columns=columns(rows))
