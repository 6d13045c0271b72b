"""The JML backend's ``smt`` engine (core's per-case engine over the JML encoder)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from adequacy.plugin import SmtEngine

if TYPE_CHECKING:
    from adequacy.plugin import Backend

__all__ = ["JmlSmtEngine"]


class JmlSmtEngine(SmtEngine):
    sources = (str(Path(__file__).resolve().parent),)

    def backend(self) -> Backend:
        from ..plugin import OpenJmlBackend
        return OpenJmlBackend()
