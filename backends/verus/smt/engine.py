"""The Verus backend's ``smt`` engine (core's per-case engine over the Verus encoder)."""

from __future__ import annotations

from pathlib import Path

from adequacy.symbolic.engine import SmtEngine

__all__ = ["VerusSmtEngine"]


class VerusSmtEngine(SmtEngine):
    sources = (str(Path(__file__).resolve().parent),)

    def backend(self):  # type: ignore[no-untyped-def]
        from adequacy.plugins import backend_for
        return backend_for("verus")
