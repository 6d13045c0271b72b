"""The plugin manager: the only way the runner, CLI, mutators and optimizers reach backends."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib.metadata import entry_points
from typing import Any

import pluggy

from adequacy import hookspecs
from adequacy.backend import Backend
from adequacy.errors import BackendError

ENTRY_POINT_GROUP = "adequacy.backends"


@dataclass(frozen=True)
class BrokenPlugin:
    """An entry point that failed to import: shown by ``adequacy backends``, never fatal."""

    name: str
    target: str
    error: str


#: Plugins whose import failed in the default manager.
BROKEN: list[BrokenPlugin] = []


def make_manager(load_entry_points: bool = True, plugins: list[Any] | None = None,
                 broken: list[BrokenPlugin] | None = None) -> pluggy.PluginManager:
    """A fresh manager with the hookspecs, entry-point plugins and any extra plugin objects.

    Entry points are loaded one by one so that one broken third-party plugin cannot take the
    others down (it is recorded in ``broken``). ``check_pending`` makes a misspelt hook
    implementation (``adequacy_backend`` for ``adequacy_backends``) fail loudly instead of
    silently never being called.
    """
    pm = pluggy.PluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    if load_entry_points:
        for ep in entry_points(group=ENTRY_POINT_GROUP):
            if pm.get_plugin(ep.name) is not None or pm.is_blocked(ep.name):
                continue
            try:
                plugin = ep.load()
            except Exception as e:  # noqa: BLE001 - any import failure is reported, not raised
                if broken is not None:
                    broken.append(BrokenPlugin(ep.name, ep.value, f"{type(e).__name__}: {e}"))
                continue
            pm.register(plugin, name=ep.name)
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
        provided: list[Any] = list(impl.function() or [])  # type: ignore[call-overload]
        for b in provided:
            if not isinstance(b, Backend):
                raise BackendError(f"plugin {name_of_plugin!r} returned {b!r}, which lacks the "
                                   "Backend surface (name, language, task_files, engines, "
                                   "load_spec)")
            if b.name in found:
                raise BackendError(f"backend name {b.name!r} is provided twice: by plugin "
                                   f"{owners[b.name]!r} and by {name_of_plugin!r}")
            found[b.name] = b
            owners[b.name] = name_of_plugin
    return found


@lru_cache(maxsize=1)
def default_manager() -> pluggy.PluginManager:
    return make_manager(broken=BROKEN)


def backends() -> dict[str, Backend]:
    """All installed backends by name."""
    return collect_backends(default_manager())


def language_backends(language: str) -> list[Backend]:
    """The installed backends of a language, in registration order."""
    return [b for b in backends().values() if b.language == language]


def main_backend(language: str) -> Backend:
    """The backend that owns a language: the first one with a default engine (an add-on
    backend whose engines are all opt-in must not take over a language's default chain).
    The one place this rule is written."""
    same = language_backends(language)
    for b in same:
        if any(e.info().default for e in b.engines()):
            return b
    if same:
        return same[0]
    raise BackendError(f"no installed backend scores {language} tasks "
                       f"(installed: {', '.join(f'{b.name} ({b.language})' for b in backends().values()) or 'none'})")


def backend_for(language: str, name: str | None = None) -> Backend:
    """The backend named ``name``, or the language's main backend."""
    all_b = backends()
    if name is not None:
        if name not in all_b:
            raise BackendError(f"no backend named {name!r} (installed: {', '.join(all_b)})")
        b = all_b[name]
        if b.language != language:
            raise BackendError(f"backend {name!r} scores {b.language} specs, but the task is "
                               f"{language}")
        return b
    return main_backend(language)
