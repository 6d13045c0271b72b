"""Plugin module offering the Verus backend's dataset importers.

Kept apart from ``plugin.py`` so that importing the backend (and its engines) never needs the
importers, and ``adequacy import`` never needs an engine.
"""

from __future__ import annotations

from typing import Any

from adequacy.hookspecs import hookimpl


@hookimpl
def adequacy_importers() -> dict[str, Any]:
    from adequacy.backends.verus.verina.importer import import_verina

    return {"verina": import_verina}
