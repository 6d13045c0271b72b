"""Problem packages (Polygon's layout) as tasks: ``adequacy import package DIR... DEST``.

Read the layout (``layout``), convert texts losslessly through the task's ``io.py``
(``convert``), judge with the package's own validator, checker and main solution in the sandbox
(``judges``), route and filter (``routing``), write tasks (``build``). docs/packages.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from adequacy.packages.build import Options, import_packages, package_folders

__all__ = ["Options", "import_packages", "package_folders"]


def __getattr__(name: str) -> Any:
    """The building machinery loads on first use: the registry imports this package's importer
    in every process, and a score never builds a package."""
    if name in __all__:
        from adequacy.packages import build
        return getattr(build, name)
    raise AttributeError(f"module 'adequacy.packages' has no attribute {name!r}")
