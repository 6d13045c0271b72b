"""Core's metrics, registered through the plugin hooks like a third party's."""

from __future__ import annotations

from adequacy.extensions.hookspecs import hookimpl
from adequacy.model.metrics import BUILTIN_METRICS, Metric


@hookimpl
def adequacy_metrics() -> list[Metric]:
    return list(BUILTIN_METRICS)
