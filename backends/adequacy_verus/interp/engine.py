"""The ``interp`` engine object: what the Verus backend lists for the runner.

The evaluator itself lives in this package (``evaluate_cases``); this module only says what the
engine is (``info``) and hands it the front end's parse, so that the plugin imports nothing
from the evaluator until an engine is asked for.
"""

from __future__ import annotations

from collections.abc import Sequence

from adequacy.plugin import Case, EngineInfo, Limits, LoadedSpec, Task, Verdict

from . import ENGINE, VERSION, evaluate_cases

DECIDES = ("pre/post evaluated with Verus's semantics (mathematical int/nat, Euclidean / and %, "
           "exact casts); unknown on unspecified values (out-of-range index, choose without a "
           "unique witness, % 0), unsupported constructs and step/time limits")


class InterpEngine:
    """Verus spec code evaluated in-process (Python only, always available)."""

    name = ENGINE

    def info(self) -> EngineInfo:
        return EngineInfo(name=self.name, available=True,
                          version=f"interp {VERSION}", decides=DECIDES,
                          reason="embedded evaluator of Verus spec code (Python only)")

    def check(self, spec: LoadedSpec, task: Task, cases: Sequence[Case], limits: Limits
              ) -> list[Verdict]:
        return evaluate_cases(spec.data.program, task, list(cases), limits)


__all__ = ["DECIDES", "InterpEngine"]
