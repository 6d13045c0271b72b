"""Registers the Spec-Harness importers (``adequacy import specgenbench|formalbench``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from adequacy.plugin import Importer, ImportReport, hookimpl


class SpecHarnessImporter:
    def __init__(self, name: str, description: str) -> None:
        self.name = name
        self.description = description

    def run(self, src: Path, dest: Path, **options: Any) -> ImportReport:
        from .spec_harness import import_spec_harness

        return import_spec_harness(src, dest, self.name, **options)

    def task_ids(self, src: Path, **_options: Any) -> list[str]:
        from .spec_harness import spec_harness_ids

        return spec_harness_ids(src, self.name)


@hookimpl
def adequacy_importers() -> list[Importer]:
    return [SpecHarnessImporter("specgenbench", "SpecGenBench: 120 Java methods with official "
                                "and generated test pairs"),
            SpecHarnessImporter("formalbench", "FormalBench (MBJP): 662 Java methods, 2-3 "
                                "official test pairs each")]
