"""The Verus backend's ``smt`` engine (core's per-case engine over the Verus encoder)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from adequacy.plugin import SmtEngine

if TYPE_CHECKING:
    from adequacy.plugin import Backend

__all__ = ["VerusSmtEngine"]


class VerusSmtEngine(SmtEngine):
    sources = (str(Path(__file__).resolve().parent),)

    def backend(self) -> Backend:
        from ..plugin import VerusBackend
        return VerusBackend()
