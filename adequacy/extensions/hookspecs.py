"""Every hook a plugin can implement, in one module, documented like pytest's hookspecs.

Plugins are modules or objects exposing functions marked with ``adequacy.hookimpl`` and are
found through the entry-point group ``adequacy.backends``; the built-in backends register exactly
that way (see ``pyproject.toml``), so a third-party backend is a peer, not a special case.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pluggy

if TYPE_CHECKING:
    from adequacy.extensions.backend import Backend
    from adequacy.extensions.importer import Importer

PROJECT = "adequacy"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


@hookspec
def adequacy_backends() -> list[Backend]:
    """Return the backend objects this plugin provides (usually one).

    Called once per plugin manager with no arguments; results of all plugins are concatenated.
    Each backend must be an ``adequacy.plugin.Backend`` (a subclass); two backends with the
    same ``name`` are an error that names both plugins.
    """
    raise NotImplementedError


@hookspec
def adequacy_importers() -> list[Importer]:
    """Return the dataset importers this plugin provides (``adequacy.plugin.Importer``).

    ``adequacy import NAME SRC DEST`` runs the importer named NAME, which writes task folders
    under ``dest`` and returns an ``adequacy.plugin.ImportReport``. Names must be unique.
    """
    raise NotImplementedError
