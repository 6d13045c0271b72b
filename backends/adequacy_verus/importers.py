"""Plugin module offering the Verus backend's dataset importers.

Kept apart from ``plugin.py`` so that importing the backend (and its engines) never needs the
importers, and ``adequacy import`` never needs an engine.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from adequacy.plugin import Importer, ImportReport, hookimpl


class VerinaImporter:
    name = "verina"
    description = "VERINA (Lean 4 benchmark): tasks with Lean-typed tests, as Verus tasks"

    def run(self, src: Path, dest: Path, **options: Any) -> ImportReport:
        from .verina.importer import import_verina

        return import_verina(src, dest, **options)

    def task_ids(self, src: Path, **_options: Any) -> list[str]:
        from .verina.importer import find_task_folders

        return [f.name for f in find_task_folders(Path(src))]


@hookimpl
def adequacy_importers() -> list[Importer]:
    return [VerinaImporter()]
