"""Problem packages (Polygon's layout) as tasks: ``adequacy import package DIR... DEST``.

Read the layout (``layout``), convert texts losslessly through the task's ``io.py``
(``convert``), judge with the package's own validator, checker and main solution in the sandbox
(``judges``), route and filter (``routing``), write tasks (``build``). docs/packages.md.
"""

from adequacy.packages.build import Options, import_packages, package_folders

__all__ = ["Options", "import_packages", "package_folders"]
