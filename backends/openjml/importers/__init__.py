"""Importers of the Spec-Harness datasets (SpecGenBench, FormalBench) into JML task folders."""

from .harness import Harness, build_harness
from .spec_harness import import_formalbench, import_spec_harness, import_specgenbench

__all__ = ["Harness", "build_harness", "import_formalbench", "import_spec_harness",
           "import_specgenbench"]
