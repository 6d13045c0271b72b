"""spec-adequacy: does a formal specification say what it should?

The public API is re-exported here; implementation lives in small modules of one job each.
"""

from adequacy.backend import Backend, EngineInfo, Limits, LoadedSpec
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
from adequacy.tasks import Case, Task, check_task, load_task
from adequacy.types import Type, parse_type
from adequacy.values import canonical, content_hash, encode, validate
from adequacy.verdicts import BUCKETS, Bucket, InvalidSpec, Truth, Verdict

__version__ = "0.1.0"

__all__ = [
    "AdequacyError", "BUCKETS", "Backend", "BackendError", "Bucket", "BucketStats", "Case",
    "EngineInfo", "EngineUnavailable", "HarnessMetrics", "InvalidSpec", "Limits", "LoadedSpec",
    "SpecInvalid", "Task", "TaskError", "Truth", "Type", "TypeSyntaxError", "ValueTypeError",
    "Verdict", "canonical", "check_task", "content_hash", "encode", "hookimpl", "load_task",
    "parse_type", "pass_at_k", "pass_hat_k", "validate",
]
