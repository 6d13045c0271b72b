"""Engines imported one at a time, each declared once with its default-chain place and rank.

A backend lists ``(name, module, class, default, fidelity)`` rows; each module is imported only
when the backend's engines are asked for, and one that fails to import becomes an unavailable
engine carrying the import error, so a broken engine never takes the others down (nor
``adequacy backends``). The row is the one place an engine's ``default`` and ``fidelity`` are
written: the engine's own ``info()`` says what it is and whether it runs here.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import TYPE_CHECKING

from adequacy.errors import EngineUnavailable
from adequacy.extensions.backend import Engine, EngineInfo, Limits, LoadedSpec

if TYPE_CHECKING:
    from adequacy.model.task import Case, Task
    from adequacy.model.verdicts import Verdict

EngineRow = tuple[str, str, str, bool, int]
"""(name, module relative to the backend's package, class, default chain, fidelity)."""


class Unimportable:
    """Stands in for an engine whose module fails to import: listed, unavailable, with the
    import error as the reason."""

    def __init__(self, name: str, default: bool, fidelity: int, reason: str) -> None:
        self.name = name
        self._info = EngineInfo(name=name, available=False, default=default,
                                fidelity=fidelity, reason=reason)

    def info(self) -> EngineInfo:
        return self._info

    def check(self, spec: LoadedSpec, task: Task, cases: Sequence[Case], limits: Limits
              ) -> list[Verdict]:
        raise EngineUnavailable(f"{self.name} engine: {self._info.reason}")


class Declared:
    """An engine with the row's ``default`` and ``fidelity`` on its info."""

    def __init__(self, inner: Engine, default: bool, fidelity: int) -> None:
        self.inner, self.name = inner, inner.name
        self._place = {"default": default, "fidelity": fidelity}

    def info(self) -> EngineInfo:
        return self.inner.info().model_copy(update=self._place)

    def check(self, spec: LoadedSpec, task: Task, cases: Sequence[Case], limits: Limits
              ) -> list[Verdict]:
        return self.inner.check(spec, task, cases, limits)


def load_engine(package: str, row: EngineRow) -> Engine:
    name, module, cls, default, fidelity = row
    try:
        made = getattr(importlib.import_module(module, package), cls)()
    except Exception as e:  # noqa: BLE001 - any failure of one engine's module is reported
        return Unimportable(name, default, fidelity,
                            f"{name} engine not importable: {type(e).__name__}: {e}")
    return Declared(made, default, fidelity)


def load_engines(package: str, rows: Sequence[EngineRow]) -> list[Engine]:
    """The engines of ``rows`` in order (``package``: the backend's ``__package__``)."""
    return [load_engine(package, r) for r in rows]
