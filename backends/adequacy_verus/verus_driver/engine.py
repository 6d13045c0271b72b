"""The ``verus`` engine object: the real verifier deciding each case symbolically.

The driver (``driver.py``) builds the proof file and reads the verifier's output; this module
says what the engine is and whether the binary is installed.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from adequacy.plugin import Case, EngineInfo, Limits, LoadedSpec, Task, Verdict, engine_version

from .driver import ENGINE, availability, check

DECIDES = ("a case is true/false when Verus proves the predicate or its negation on the "
           "case's values; unknown when it proves neither (unspecified values, incomplete "
           "proof search, rlimit)")


class VerusEngine:
    """Not in the default chain: it needs the ``verus`` binary and is slow per case, but it is
    the language's own semantics, so it ranks highest under ``--cross-check``."""

    name = ENGINE

    def info(self) -> EngineInfo:
        ok, version, reason = availability()
        here = Path(__file__).resolve().parent
        return EngineInfo(name=self.name, available=ok, reason=reason, decides=DECIDES,
                          version=engine_version(version, here, here.parent / "syntax"))

    def check(self, spec: LoadedSpec, task: Task, cases: Sequence[Case], limits: Limits
              ) -> list[Verdict]:
        return check(spec.text, task, cases, limits, path=spec.path)


__all__ = ["DECIDES", "VerusEngine"]
