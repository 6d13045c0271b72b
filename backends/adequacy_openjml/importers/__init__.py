"""Importers of the Spec-Harness datasets (SpecGenBench, FormalBench) into JML task folders.

The names below are imported on first use: this package's ``plugin`` is an entry point every
command loads, and it must not import the Java reader to register two importers.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .harness import Harness, build_harness
    from .spec_harness import import_formalbench, import_spec_harness, import_specgenbench

_WHERE = {"Harness": ".harness", "build_harness": ".harness",
          "import_formalbench": ".spec_harness", "import_spec_harness": ".spec_harness",
          "import_specgenbench": ".spec_harness"}


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(_WHERE[name], __name__), name)


__all__ = ["Harness", "build_harness", "import_formalbench", "import_spec_harness",
           "import_specgenbench"]
