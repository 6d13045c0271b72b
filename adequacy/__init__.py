"""spec-adequacy: does a formal specification say what it should?

The public API is re-exported here; implementation lives in small modules of one job each.
Names are resolved on first use (module ``__getattr__``): ``import adequacy`` imports nothing
else, so the command line and a notebook pay only for what they use. For notebooks:
``adequacy.score``, ``adequacy.load_task``, ``adequacy.read_results`` and
``adequacy.results_frame`` (docs/python-api.md).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

_WHERE = {
    "Backend": "adequacy.backend", "EngineInfo": "adequacy.backend",
    "Limits": "adequacy.backend", "LoadedSpec": "adequacy.backend",
    "AdequacyError": "adequacy.errors", "BackendError": "adequacy.errors",
    "EngineUnavailable": "adequacy.errors", "SpecInvalid": "adequacy.errors",
    "TaskError": "adequacy.errors", "TypeSyntaxError": "adequacy.errors",
    "ValueTypeError": "adequacy.errors",
    "hookimpl": "adequacy.hookspecs",
    "BucketStats": "adequacy.metrics", "HarnessMetrics": "adequacy.metrics",
    "pass_at_k": "adequacy.metrics", "pass_hat_k": "adequacy.metrics",
    "Case": "adequacy.tasks", "Task": "adequacy.tasks", "check_task": "adequacy.tasks",
    "Type": "adequacy.types", "parse_type": "adequacy.types",
    "canonical": "adequacy.values", "content_hash": "adequacy.values",
    "encode": "adequacy.values", "validate": "adequacy.values",
    "BUCKETS": "adequacy.verdicts", "Bucket": "adequacy.verdicts",
    "InvalidSpec": "adequacy.verdicts", "Truth": "adequacy.verdicts",
    "Verdict": "adequacy.verdicts",
    "ScoreOptions": "adequacy.options", "SpecReport": "adequacy.results",
    "score": "adequacy.api", "load_task": "adequacy.api", "read_results": "adequacy.api",
    "Results": "adequacy.api",
    "results_frame": "adequacy.ecosystem.tables",
}

if TYPE_CHECKING:
    from adequacy.api import Results, load_task, read_results, score
    from adequacy.backend import Backend, EngineInfo, Limits, LoadedSpec
    from adequacy.ecosystem.tables import results_frame
    from adequacy.errors import (
        AdequacyError,
        BackendError,
        EngineUnavailable,
        SpecInvalid,
        TaskError,
        TypeSyntaxError,
        ValueTypeError,
    )
    from adequacy.hookspecs import hookimpl
    from adequacy.metrics import BucketStats, HarnessMetrics, pass_at_k, pass_hat_k
    from adequacy.options import ScoreOptions
    from adequacy.results import SpecReport
    from adequacy.tasks import Case, Task, check_task
    from adequacy.types import Type, parse_type
    from adequacy.values import canonical, content_hash, encode, validate
    from adequacy.verdicts import BUCKETS, Bucket, InvalidSpec, Truth, Verdict


def __getattr__(name: str) -> Any:
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module 'adequacy' has no attribute {name!r}")
    value = getattr(import_module(where), name)
    globals()[name] = value  # the next access is a plain attribute
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_WHERE])


__all__ = ["AdequacyError", "BUCKETS", "Backend", "BackendError", "Bucket", "BucketStats", "Case",
    "EngineInfo", "EngineUnavailable", "HarnessMetrics", "InvalidSpec", "Limits", "LoadedSpec",
    "Results", "ScoreOptions", "SpecInvalid", "SpecReport", "Task", "TaskError", "Truth", "Type",
    "TypeSyntaxError", "ValueTypeError", "Verdict", "canonical", "check_task", "content_hash",
    "encode", "hookimpl", "load_task", "parse_type", "pass_at_k", "pass_hat_k", "read_results",
    "results_frame", "score", "validate"]
"""Every name of ``_WHERE`` (a test checks that the two agree)."""
