"""The benchmark QA table, shared by ``task strength`` and ``task audit --strength``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from adequacy.cli.common import out

if TYPE_CHECKING:
    from adequacy.records.html import BenchmarkQA


def _r(v: float | None) -> str:
    return "n/a" if v is None else f"{v:.2f}"


def table_rows(qa: BenchmarkQA) -> list[list[str]]:
    return [[m.measure, str(m.tasks), _r(m.median), _r(m.p10), _r(m.mean), ", ".join(m.worst)]
            for m in qa.summary]


def print_qa(qa: BenchmarkQA) -> None:
    """The benchmark table: per measure the tasks measured, median, p10, mean, worst tasks."""
    from rich.table import Table
    from rich.text import Text

    from adequacy.console.tables import OutputFormat, show

    t = Table(title=f"benchmark: {len(qa.rows)} task(s)", title_justify="left")
    for col in ("measure", "tasks", "median", "p10", "mean", "worst tasks"):
        t.add_column(col, justify="left" if col in ("measure", "worst tasks") else "right")
    for row in table_rows(qa):
        t.add_row(*(Text(x) for x in row))
    show(out, t, OutputFormat.auto)
