"""Reports a person reads: results files -> a study -> HTML, markdown or JSON, and comparisons.

Data flows one way: ``read_records`` (latest record per job) -> ``build_study`` (figures per
approach, per-spec rows) -> a renderer. Nothing here scores a spec; it reads what was scored.
"""

from adequacy.errors import ResultsError
from adequacy.records.html._compare import Comparison, compare
from adequacy.records.html._load import Record, read_records
from adequacy.records.html._outcomes import SpecOutcome, outcome
from adequacy.records.html._qa import MEASURES, BenchmarkQA, MeasureSummary, StrengthRow, qa_of
from adequacy.records.html._render import (
    leaderboard_rows,
    render_html,
    render_json,
    render_markdown,
    summary_rows,
)
from adequacy.records.html._study import StudyView, build_study, trust_notes

__all__ = ["MEASURES", "BenchmarkQA", "Comparison", "MeasureSummary", "SpecOutcome", "Record",
           "ResultsError", "StrengthRow", "StudyView", "build_study", "compare", "leaderboard_rows",
           "outcome", "qa_of", "read_records", "render_html", "render_json", "render_markdown",
           "summary_rows", "trust_notes"]
