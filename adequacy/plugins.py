"""The plugin manager: the only way the runner, CLI, mutators and optimizers reach backends."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import pluggy

from adequacy import hookspecs
from adequacy.backend import Backend
from adequacy.errors import BackendError

ENTRY_POINT_GROUP = "adequacy.backends"


def make_manager(load_entry_points: bool = True, plugins: list[Any] | None = None
                 ) -> pluggy.PluginManager:
    """A fresh manager with the hookspecs, entry-point plugins and any extra plugin objects.

    ``check_pending`` makes a misspelt hook implementation (``adequacy_backend`` for
    ``adequacy_backends``) fail loudly instead of silently never being called.
    """
    pm = pluggy.PluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    if load_entry_points:
        pm.load_setuptools_entrypoints(ENTRY_POINT_GROUP)
    for p in plugins or []:
        pm.register(p)
    try:
        pm.check_pending()
    except pluggy.PluginValidationError as e:
        raise BackendError(f"invalid plugin {getattr(e, 'plugin', '?')!r}: {e}") from e
    return pm


def collect_backends(pm: pluggy.PluginManager) -> dict[str, Backend]:
    found: dict[str, Backend] = {}
    owners: dict[str, str] = {}
    for impl in pm.hook.adequacy_backends.get_hookimpls():
        name_of_plugin = pm.get_name(impl.plugin) or repr(impl.plugin)
        for b in impl.function() or []:
            if not isinstance(b, Backend):
                raise BackendError(f"plugin {name_of_plugin!r} returned {b!r}, which lacks the "
                                   "Backend surface (name, language, engines, load_spec, check)")
            if b.name in found:
                raise BackendError(f"backend name {b.name!r} is provided twice: by plugin "
                                   f"{owners[b.name]!r} and by {name_of_plugin!r}")
            found[b.name] = b
            owners[b.name] = name_of_plugin
    return found


def collect_importers(pm: pluggy.PluginManager) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for result in pm.hook.adequacy_importers():
        for name, fn in (result or {}).items():
            if name in found:
                raise BackendError(f"importer {name!r} is provided twice")
            found[name] = fn
    return found


@lru_cache(maxsize=1)
def default_manager() -> pluggy.PluginManager:
    return make_manager()


def backends() -> dict[str, Backend]:
    """All installed backends by name."""
    return collect_backends(default_manager())


def importers() -> dict[str, Any]:
    return collect_importers(default_manager())


def backend_for(language: str, name: str | None = None) -> Backend:
    """The backend named ``name``, or the first one whose language is ``language``."""
    all_b = backends()
    if name is not None:
        if name not in all_b:
            raise BackendError(f"no backend named {name!r} (installed: {', '.join(all_b)})")
        b = all_b[name]
        if b.language != language:
            raise BackendError(f"backend {name!r} scores {b.language} specs, but the task is "
                               f"{language}")
        return b
    for b in all_b.values():
        if b.language == language:
            return b
    raise BackendError(f"no installed backend scores {language} tasks "
                       f"(installed: {', '.join(all_b) or 'none'})")
