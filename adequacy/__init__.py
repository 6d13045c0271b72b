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

from adequacy.version import __version__ as __version__

_WHERE = {
    "Backend": "adequacy.extensions.backend", "EngineInfo": "adequacy.extensions.backend",
    "Limits": "adequacy.extensions.backend", "LoadedSpec": "adequacy.extensions.backend",
    "AdequacyError": "adequacy.errors", "BackendError": "adequacy.errors",
    "EngineUnavailable": "adequacy.errors", "SpecInvalid": "adequacy.errors",
    "TaskError": "adequacy.errors", "TypeSyntaxError": "adequacy.errors",
    "ValueTypeError": "adequacy.errors",
    "hookimpl": "adequacy.extensions.hookspecs",
    "BucketStats": "adequacy.model.metrics", "HarnessMetrics": "adequacy.model.metrics",
    "pass_at_k": "adequacy.model.metrics", "pass_hat_k": "adequacy.model.metrics",
    "Case": "adequacy.model.task", "Task": "adequacy.model.task",
    "check_task": "adequacy.taskdirs.load",
    "Type": "adequacy.model.types", "parse_type": "adequacy.model.types",
    "canonical": "adequacy.model.values", "content_hash": "adequacy.model.values",
    "encode": "adequacy.model.values", "validate": "adequacy.model.values",
    "BUCKETS": "adequacy.model.verdicts", "Bucket": "adequacy.model.verdicts",
    "InvalidSpec": "adequacy.model.verdicts", "Truth": "adequacy.model.verdicts",
    "Verdict": "adequacy.model.verdicts",
    "ScoreOptions": "adequacy.scoring.options", "SpecReport": "adequacy.scoring.spec_report",
    "score": "adequacy.api", "load_task": "adequacy.api", "read_results": "adequacy.api",
    "Results": "adequacy.api",
    "results_frame": "adequacy.ecosystem.tables",
}

if TYPE_CHECKING:
    from adequacy.api import Results, load_task, read_results, score
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
    from adequacy.extensions.backend import Backend, EngineInfo, Limits, LoadedSpec
    from adequacy.extensions.hookspecs import hookimpl
    from adequacy.model.metrics import BucketStats, HarnessMetrics, pass_at_k, pass_hat_k
    from adequacy.model.task import Case, Task
    from adequacy.model.types import Type, parse_type
    from adequacy.model.values import canonical, content_hash, encode, validate
    from adequacy.model.verdicts import BUCKETS, Bucket, InvalidSpec, Truth, Verdict
    from adequacy.scoring.options import ScoreOptions
    from adequacy.scoring.spec_report import SpecReport
    from adequacy.taskdirs.load import check_task


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
