"""Core's judges, registered through the plugin hooks like a third party's.

The judge is built on first use: registering it imports nothing of case search."""

from __future__ import annotations

from adequacy.extensions.hookspecs import hookimpl
from adequacy.extensions.judges import Judge, JudgeKind
from adequacy.model.task import Task


def _reference(task: Task) -> Judge:
    from adequacy.search.oracles import OracleJudge

    return OracleJudge(task)


@hookimpl
def adequacy_judges() -> list[JudgeKind]:
    return [JudgeKind(
        name="reference",
        description="the task's own evidence: validator and [constraints] for inputs; checker, "
                    "reference and recorded outputs for outputs",
        make=_reference)]
