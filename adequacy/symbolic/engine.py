"""The per-case ``smt`` engine any backend with a ``symbolic()`` capability can list.

For each case it asks the solver to prove the case's predicate and, separately, its negation
(``Symbolic.decide``): whichever is proved decides, neither is ``unknown``. It sits in a default
chain after the concrete engines, so it sees only what they left unknown (unbounded
quantifiers, a `choose` with one witness, values too large to enumerate), and ``--cross-check``
compares it with them on every case both decide.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

from adequacy.extensions.backend import TIMEOUT, EngineInfo, FailureStreak, Limits, LoadedSpec
from adequacy.extensions.symbolic import Question, SolverLimits
from adequacy.model.verdicts import Truth, Verdict
from adequacy.symbolic.solver import solver_version

if TYPE_CHECKING:
    from adequacy.extensions.backend import Backend
    from adequacy.model.task import Case, Task

__all__ = ["CASE_UNFOLD", "DECIDES", "SmtEngine"]

CASE_UNFOLD = 64
"""Unfolding depth for one case: its values are literals, so a recursion on them stops at its
base case as the encoding goes (a known condition takes its branch alone), and a deeper one
costs only the calls it really makes (at most the unfolding's budget in all)."""

DECIDES = ("a case whose predicate or its negation Z3 proves from the spec's encoding (the "
           "solver in its own limited process); unknown where neither is proved or the spec "
           "uses a construct outside the encoding")


class SmtEngine:
    """Subclass with ``backend()`` returning the backend whose symbolic answers decide
    (``symbolic_of``: its own ``symbolic()``, else core's Z3 driver over its encoder)."""

    name = "smt"
    sources: tuple[str, ...] = ()
    """Files or folders of the backend's encoder (their hash is part of the version)."""

    def backend(self) -> Backend:
        """The backend this engine belongs to (a plugin returns its own ``Backend``)."""
        raise NotImplementedError

    def info(self) -> EngineInfo:
        import importlib.util

        from adequacy.extensions.engine_version import engine_version
        ok = importlib.util.find_spec("z3") is not None
        return EngineInfo(name=self.name, available=ok,
                          version=engine_version(solver_version(), __file__, *self.sources),
                          reason=("Z3 proves the predicate or its negation" if ok
                                  else "needs z3-solver (pip install z3-solver)"),
                          decides=DECIDES)

    def check(self, spec: LoadedSpec, task: Task, cases: Sequence[Case], limits: Limits
              ) -> list[Verdict]:
        from adequacy.symbolic.capability import symbolic_of
        sym = symbolic_of(self.backend())
        out: list[Verdict] = []
        start = time.monotonic()
        deadline = start + limits.spec_seconds
        outside: dict[str, str] = {}
        streak = FailureStreak(limits.timeout_streak)
        for c in cases:
            pred = c.bucket.predicate
            skip = ("the backend has no encoding" if sym is None else
                    outside.get(pred) or streak.skip_reason(pred) or
                    ("spec time budget spent" if time.monotonic() >= deadline else None))
            if skip is not None:
                out.append(Verdict(case_id=c.id, bucket=c.bucket, value=Truth.unknown,
                                   engine=self.name, reason=skip))
                continue
            assert sym is not None
            lim = SolverLimits(query_seconds=max(0.1, min(limits.case_seconds / 2,
                                                          deadline - time.monotonic())),
                               memory_mb=max(256, min(limits.memory_mb, 4096)),
                               deadline=deadline, unfold=CASE_UNFOLD)
            q = Question(kind="decide", a=spec, predicate="pre" if c.bucket.predicate == "pre"
                         else "post", input=c.input, output=c.output)
            t0 = time.monotonic()
            d = sym.decide(task, q, lim)
            if d.failure == "outside":
                # the predicate's encoding failed, not this case's: the others would too
                outside[pred] = "smt: " + d.reason
            streak.note(pred, TIMEOUT if d.failure == "timeout" else None)
            value = Truth.unknown if d.value is None else (Truth.true if d.value
                                                            else Truth.false)
            out.append(Verdict(case_id=c.id, bucket=c.bucket, value=value, engine=self.name,
                               reason=("smt: " + d.reason) if d.reason else "smt",
                               seconds=time.monotonic() - t0))
        return out
