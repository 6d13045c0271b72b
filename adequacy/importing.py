"""Dataset importers: one protocol, one report model, found through the plugin manager.

An importer converts a public dataset (VERINA, SpecGenBench, FormalBench, a plugin's own) into
task folders. Every importer answers with the same ``ImportReport`` (task by task: converted or
not, and why; cases written per bucket; dataset-specific counts in ``figures``), so the CLI, a
benchmark or a test reads any importer's outcome the same way.
"""

from __future__ import annotations

from adequacy import plugins
from adequacy.errors import BackendError
from adequacy.importer import Importer, ImportReport, Problem, TaskOutcome, reason_kind  # noqa: F401 - re-exported


def importers() -> dict[str, Importer]:
    """Every installed importer by name; two with one name are an error naming both."""
    from adequacy.packages.plugin import PackageImporter

    # problem packages need no language of their own (the declared types name it), so their
    # importer is core's, always present
    found: dict[str, Importer] = {"package": PackageImporter()}
    for result in plugins.default_manager().hook.adequacy_importers():
        for imp in result or []:
            if not isinstance(imp, Importer):
                raise BackendError(f"an importer plugin returned {imp!r}, which lacks the "
                                   "Importer surface (name, description, run)")
            if imp.name in found:
                raise BackendError(f"importer {imp.name!r} is provided twice")
            found[imp.name] = imp
    return found
