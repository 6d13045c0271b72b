"""A task's backend reference for one run of ``generate_task`` and ``mutate_task``.

Generation asks the reference about drawn inputs and invalid candidates, mutation about every
valid input whose mutants need the right output. Through one ``Backend.reference_session``
the batches share one start-up (a JVM: its start and the reference's compile cost more than
most batches). For a reference its backend calls ``stateless`` (nothing kept from one input to
the next), an input whose outcome is already known is not run again: a ``returned`` or
``threw`` outcome is then what the reference says about that input whichever batch asks, so
mutation reuses what generation found. Outcomes that prove nothing (``timeout``, ``failed``)
are not kept: a later batch, with its own time limit, runs that input afresh.
"""

from __future__ import annotations

from typing import Any

from adequacy.extensions.backend import Backend, Limits, ReferenceOutcome
from adequacy.model.identity import params_key
from adequacy.model.task import Task

__all__ = ["SharedReference"]

_KEPT = ("returned", "threw")


class SharedReference:
    """The reference of one task as its backend runs it, for several batches of inputs.

    The session starts on the first batch (a task whose reference is ``reference.py`` never
    starts one); ``close`` ends it. ``task`` gives the input names the keys are made of."""

    def __init__(self, task: Task, backend: Backend, limits: Limits | None = None) -> None:
        self.task = task
        self.backend = backend
        self.limits = limits or Limits(case_seconds=5.0)
        self._session: Any = None
        self.known: dict[str, ReferenceOutcome] = {}
        self.runs = 0
        """Inputs actually run (for benchmarks and tests)."""

    def __enter__(self) -> SharedReference:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def stateless(self) -> bool:
        """The backend vouches that an input's outcome does not depend on the batch it runs
        in (``ReferenceSession.stateless``): its inputs may be run lazily, in any batches."""
        return bool(getattr(self._open(self.limits), "stateless", False))

    def _open(self, limits: Limits) -> Any:
        if self._session is None:
            self._session = self.backend.reference_session(self.task, limits)
        return self._session

    def close(self) -> None:
        if self._session is not None:
            self._session.close()
            self._session = None

    def outcomes(self, inputs: list[dict[str, Any]], limits: Limits
                 ) -> list[ReferenceOutcome]:
        """One outcome per input, in order; the unknown ones run in one batch. Outcomes of
        earlier batches are reused only for a ``stateless`` reference: one that keeps state
        between inputs answers each batch afresh (as it did with a JVM per batch), so that
        mutation's oracle still checks generation's outputs against a run of its own."""
        keys = [params_key(i, self.task.inputs) for i in inputs]
        if self.known and not self.stateless:
            self.known.clear()
        todo: dict[str, dict[str, Any]] = {}
        for k, i in zip(keys, inputs, strict=True):
            if k not in self.known and k not in todo:
                todo[k] = i
        fresh: dict[str, ReferenceOutcome] = {}
        if todo:
            res = self._open(limits).outcomes(list(todo.values()), limits)
            if res is None or len(res) != len(todo):
                res = [ReferenceOutcome(kind="failed", reason="no reference outcome")] * len(todo)
            self.runs += len(todo)
            for k, o in zip(todo, res, strict=True):
                fresh[k] = o
                if o.kind in _KEPT:
                    self.known[k] = o
        return [self.known.get(k) or fresh[k] for k in keys]
