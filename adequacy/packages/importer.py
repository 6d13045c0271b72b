"""The ``package`` importer: problem packages in Polygon's layout (docs/packages.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from adequacy.extensions.hookspecs import hookimpl
from adequacy.extensions.importer import Importer, ImportReport


class PackageImporter:
    name = "package"
    description = ("problem packages in Polygon's layout (problem.xml, tests/, files/, "
                   "solutions/) with hacks/ and adequacy/task.toml + io.py")

    def run(self, src: Path, dest: Path, **options: Any) -> ImportReport:
        """``options``: ``sources`` (every SRC, when several were named) and the fields of
        ``adequacy.packages.Options`` (``min_per_bucket``, ``max_per_bucket``, ``seed``...)."""
        from adequacy.packages.build import Options, import_packages

        sources = [Path(s) for s in options.pop("sources", [src])]
        only = options.pop("only", None)
        return import_packages(sources, dest, Options(**options), only=only)

    def task_ids(self, src: Path, **options: Any) -> list[str]:
        """The package folders' names, in the order the import visits them."""
        from adequacy.packages.build import package_folders

        sources = [Path(s) for s in options.get("sources", [src])]
        return [f.name for s in sources for f in package_folders(s)]


@hookimpl
def adequacy_importers() -> list[Importer]:
    """Problem packages need no language of their own (the declared types name it), so this
    importer is core's; it registers through the entry point like any plugin's."""
    return [PackageImporter()]
