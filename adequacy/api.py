"""The Python API for notebooks and scripts: score a spec, load a task, read a results file.

The same functions the commands call, with the commands' defaults: ``score`` is
``adequacy score`` without the printing (the verdict cache is used unless ``cache=None``),
``read_results`` is what ``adequacy report`` reads. docs/python-api.md shows each in use (its
examples run as a doctest).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from adequacy.model.task import Task
    from adequacy.records.log import LoggedRecord
    from adequacy.scoring.options import ScoreOptions
    from adequacy.scoring.spec_report import SpecReport

DEFAULT_CACHE: Literal["default"] = "default"


def load_task(path: str | Path) -> Task:
    """A task folder, checked (``TaskError`` with file and line on the first problem)."""
    from adequacy.taskdirs.load import load_task as load

    return load(path)


def score(task: Task | str | Path, spec: str | Path | None = None,
          options: ScoreOptions | None = None, *, text: str | None = None,
          cache: str | Path | None = DEFAULT_CACHE, visible_only: bool = False,
          **changes: Any) -> SpecReport:
    """Score one spec, a file (``spec``) or a text (``text``, say a model's answer), against a
    task (a loaded one, or its folder).

    ``options`` and keyword ``changes`` are ``ScoreOptions`` fields (``engines=["interp"]``,
    ``strict=False``, ``limits=Limits(...)``). ``cache``: the verdict cache file, the default
    one, or None for no cache. A spec the front end refuses is a report with status
    ``invalid`` (never an exception); a missing task or spec file raises ``AdequacyError``."""
    from adequacy.model.textfiles import read_spec
    from adequacy.scoring.runner import score_spec

    t = task if not isinstance(task, str | Path) else load_task(task)
    if (spec is None) == (text is None):
        raise TypeError("score() takes a spec file or text=, exactly one of them")
    spec_path = None if spec is None else str(spec)
    if text is None:
        text = read_spec(Path(str(spec)))
    vc = _cache(cache)
    cases = [c for c in t.all_cases() if c.visible] if visible_only else None
    return score_spec(t, text, spec_path, options, cache=vc, cases=cases, **changes)


def _cache(cache: str | Path | None) -> Any:
    if cache is None:
        return None
    from adequacy.scoring.cache import VerdictCache, default_cache_dir

    path = default_cache_dir() / "verdicts.sqlite" if cache == DEFAULT_CACHE else Path(cache)
    vc = VerdictCache(str(path))
    return None if vc.broken else vc


COLUMNS = ("source", "task_id", "spec_path", "status", "passed_all", "writer", "model",
           "family", "command", "pre_complete", "pre_sound", "post_complete", "post_sound",
           "seconds")
"""The table's columns: where the record is, what was scored, who wrote it, the outcome, and
each bucket's pass rate (None where the bucket has no cases or the spec was not scored)."""


@dataclass
class Results:
    """A results file read back: ``records`` (every line, migrated to the current schema, in
    file order), ``latest`` (the newest record of each job, what reports count) and a table of
    the latest records as plain rows, or as a pandas DataFrame where pandas is installed."""

    records: list[LoggedRecord]
    latest: list[LoggedRecord] = field(default_factory=list)

    def rows(self) -> list[dict[str, Any]]:
        return [_row(r) for r in self.latest]

    def table(self) -> Any:
        """A ``pandas.DataFrame`` of ``rows()`` when pandas is importable, else the rows (a
        list of dicts with the keys of ``COLUMNS``): pandas is not a dependency."""
        rows = self.rows()
        try:
            import pandas as pd
        except ImportError:
            return rows
        return pd.DataFrame(rows, columns=list(COLUMNS))

    @property
    def reports(self) -> list[SpecReport]:
        return [r.record.report for r in self.latest]

    def __iter__(self) -> Iterator[LoggedRecord]:
        return iter(self.latest)

    def __len__(self) -> int:
        return len(self.latest)


def read_results(path: str | Path | Sequence[str | Path]) -> Results:
    """Read one or more results files through the one reader every command uses (older
    schemas migrated; a newer schema or a line that is not a record is a ``ResultsError``
    naming file and line)."""
    from adequacy.records.log import latest
    from adequacy.records.log import read_results as read

    paths = [path] if isinstance(path, str | Path) else list(path)
    records = [r for p in paths for r in read(Path(p))]
    return Results(records=records, latest=latest(records))


def _row(r: LoggedRecord) -> dict[str, Any]:
    rep, prod = r.record.report, r.record.producer
    rates = {b.value: (s.passed / s.total if s.total else None)
             for b, s in rep.buckets.items()} if rep.status == "scored" else {}
    return {"source": r.source, "task_id": rep.task_id, "spec_path": rep.spec_path,
            "status": rep.status, "passed_all": rep.passed_all, "writer": prod.writer,
            "model": prod.model, "family": prod.family, "command": prod.command,
            **{b: rates.get(b) for b in ("pre_complete", "pre_sound", "post_complete",
                                         "post_sound")},
            "seconds": rep.seconds}
