"""The JML backend's ``smt`` engine (core's per-case engine over the JML encoder)."""

from __future__ import annotations

from pathlib import Path

from adequacy.symbolic.engine import SmtEngine

__all__ = ["JmlSmtEngine"]


class JmlSmtEngine(SmtEngine):
    sources = (str(Path(__file__).resolve().parent),)

    def backend(self):  # type: ignore[no-untyped-def]
        from adequacy.plugins import backend_for
        return backend_for("jml")
