"""The plugin manager: the only way the runner, CLI, mutators and optimizers reach backends."""

from __future__ import annotations

import importlib
import sys
import types
import weakref
from dataclasses import dataclass
from functools import lru_cache
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

import pluggy

from adequacy.errors import BackendError
from adequacy.extensions import hookspecs
from adequacy.extensions.backend import Backend, Engine, EngineInfo
from adequacy.extensions.importer import Importer

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
    _RECIPES[pm] = _recipe_of(load_entry_points, plugins or [])
    return pm


@dataclass(frozen=True)
class Recipe:
    """How to build the same plugin manager in a fresh interpreter (a spawned pool worker):
    whether entry points are loaded, and each extra plugin module with the folder it is
    imported from."""

    entry_points: bool
    modules: tuple[tuple[str, str], ...] = ()


_RECIPES: weakref.WeakKeyDictionary[pluggy.PluginManager, Recipe | None] = \
    weakref.WeakKeyDictionary()


def _recipe_of(load_entry_points: bool, extra: list[Any]) -> Recipe | None:
    mods: list[tuple[str, str]] = []
    for p in extra:
        file = getattr(p, "__file__", None)
        if not isinstance(p, types.ModuleType) or not file:
            return None  # an object only this process has
        root = Path(file).parent
        if Path(file).name == "__init__.py":
            root = root.parent
        for _ in range(p.__name__.count(".")):
            root = root.parent
        mods.append((p.__name__, str(root)))
    return Recipe(load_entry_points, tuple(mods))


def recipe() -> Recipe | None:
    """The current manager's recipe; None when a fresh interpreter cannot rebuild it."""
    return _RECIPES.get(default_manager())


def install_recipe(r: Recipe) -> None:
    """Make this (fresh) process's plugin manager the one ``r`` describes."""
    if r == Recipe(True, ()):
        return
    for _, root in r.modules:
        if root not in sys.path:
            sys.path.insert(0, root)
    pm = make_manager(r.entry_points, [importlib.import_module(m) for m, _ in r.modules],
                      broken=BROKEN)
    globals()["default_manager"] = lambda: pm


def collect_backends(pm: pluggy.PluginManager) -> dict[str, Backend]:
    """Run every ``adequacy_backends`` hook once and check what it returned (each backend a
    ``Backend``, names unique). Callers want ``registry()``, which does this once per manager."""
    found: dict[str, Backend] = {}
    owners: dict[str, str] = {}
    for impl in pm.hook.adequacy_backends.get_hookimpls():
        name_of_plugin = pm.get_name(impl.plugin) or repr(impl.plugin)
        provided: list[Any] = list(impl.function() or [])  # type: ignore[call-overload]
        for b in provided:
            if not isinstance(b, Backend):
                raise BackendError(f"plugin {name_of_plugin!r} returned {b!r}, which is not an "
                                   "adequacy.plugin.Backend (subclass it: name, language, "
                                   "task_files, engines, load_spec)")
            if b.name in found:
                raise BackendError(f"backend name {b.name!r} is provided twice: by plugin "
                                   f"{owners[b.name]!r} and by {name_of_plugin!r}")
            found[b.name] = b
            owners[b.name] = name_of_plugin
    return found


def collect_importers(pm: pluggy.PluginManager) -> dict[str, Importer]:
    """Run every ``adequacy_importers`` hook once: each result an ``Importer``, names unique
    (two with one name are an error naming both plugins)."""
    found: dict[str, Importer] = {}
    owners: dict[str, str] = {}
    for impl in pm.hook.adequacy_importers.get_hookimpls():
        name_of_plugin = pm.get_name(impl.plugin) or repr(impl.plugin)
        for imp in list(impl.function() or []):  # type: ignore[call-overload]
            if not isinstance(imp, Importer):
                raise BackendError(f"plugin {name_of_plugin!r} returned {imp!r}, which lacks "
                                   "the Importer surface (name, description, run)")
            if imp.name in found:
                raise BackendError(f"importer {imp.name!r} is provided twice: by plugin "
                                   f"{owners[imp.name]!r} and by {name_of_plugin!r}")
            found[imp.name] = imp
            owners[imp.name] = name_of_plugin
    return found


class Registry:
    """The installed backends of one plugin manager, each constructed once, their engines'
    infos, and the one rule for which backend owns a language.

    Availability checks spawn ``rustc --version`` and ``java -version`` (50-150 ms each), far
    more than scoring a spec with interp, and an optimizer scores thousands of specs in one
    process, so infos are asked once per registry; ``refresh()`` asks again (after
    ``adequacy setup`` installs a tool, or in a test that patches an engine)."""

    def __init__(self, pm: pluggy.PluginManager) -> None:
        self.backends: dict[str, Backend] = collect_backends(pm)
        self.importers: dict[str, Importer] = collect_importers(pm)
        self._infos: dict[str, list[tuple[Engine, EngineInfo]]] = {}

    def refresh(self) -> None:
        self._infos.clear()

    def engine_infos(self, b: Backend) -> list[tuple[Engine, EngineInfo]]:
        hit = self._infos.get(b.name)
        if hit is None:
            engines = list(b.engines())
            for e in engines:
                if not isinstance(e, Engine):
                    raise BackendError(f"backend {b.name!r} listed {e!r}, which lacks the "
                                       "Engine surface (name, info, check)")
            hit = self._infos[b.name] = [(e, e.info()) for e in engines]
        return hit

    def fingerprint(self, language: str) -> str:
        """Every engine of the language's backends with its version and availability."""
        return ";".join(f"{b.name}/{i.name}={i.version}:{i.available}"
                        for b in self.of_language(language) for _, i in self.engine_infos(b))

    def of_language(self, language: str) -> list[Backend]:
        """The backends of a language, in registration order."""
        return [b for b in self.backends.values() if b.language == language]

    def owner(self, language: str) -> Backend:
        """The backend that owns a language: the first one with a default engine (an add-on
        backend whose engines are all opt-in must not take over a language's default chain,
        its task files or its writer texts). The one place this rule is written."""
        same = self.of_language(language)
        for b in same:
            if any(i.default for _, i in self.engine_infos(b)):
                return b
        if same:
            return same[0]
        installed = ", ".join(f"{b.name} ({b.language})" for b in self.backends.values())
        raise BackendError(f"no installed backend scores {language!r} tasks "
                           f"(installed: {installed or 'none'})")

    def backend_for(self, language: str, name: str | None = None) -> Backend:
        """The backend named ``name``, or the language's owner."""
        if name is None:
            return self.owner(language)
        if name not in self.backends:
            raise BackendError(f"no backend named {name!r} (installed: "
                               f"{', '.join(self.backends)})")
        b = self.backends[name]
        if b.language != language:
            raise BackendError(f"backend {name!r} scores {b.language} specs, but the task is "
                               f"{language}")
        return b


@lru_cache(maxsize=1)
def default_manager() -> pluggy.PluginManager:
    return make_manager(broken=BROKEN)


_registries: weakref.WeakKeyDictionary[pluggy.PluginManager, Registry] = \
    weakref.WeakKeyDictionary()


def registry() -> Registry:
    """The registry of the current plugin manager, built on first use."""
    pm = default_manager()
    reg = _registries.get(pm)
    if reg is None:
        reg = _registries[pm] = Registry(pm)
    return reg


# Shorthands for the registry's methods (the names callers used before the registry existed).

def backends() -> dict[str, Backend]:
    """All installed backends by name."""
    return registry().backends


def importers() -> dict[str, Importer]:
    """Every installed importer by name (core's ``package`` importer registers like any
    plugin's)."""
    return registry().importers


def engine_infos(b: Backend) -> list[tuple[Engine, EngineInfo]]:
    return registry().engine_infos(b)


def language_backends(language: str) -> list[Backend]:
    return registry().of_language(language)


def main_backend(language: str) -> Backend:
    return registry().owner(language)


def backend_for(language: str, name: str | None = None) -> Backend:
    return registry().backend_for(language, name)
