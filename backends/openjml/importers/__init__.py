"""Importers of the Spec-Harness datasets (SpecGenBench, FormalBench) into JML task folders."""

from adequacy.backends.openjml.importers.harness import Harness, build_harness
from adequacy.backends.openjml.importers.report import ImportFailure, ImportReport
from adequacy.backends.openjml.importers.spec_harness import (
    import_formalbench,
    import_spec_harness,
    import_specgenbench,
)

__all__ = ["Harness", "ImportFailure", "ImportReport", "build_harness", "import_formalbench",
           "import_spec_harness", "import_specgenbench"]
