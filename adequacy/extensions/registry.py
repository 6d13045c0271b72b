"""The plugin manager and the registry of every extension kind: backends, importers, writers,
metrics, optimizer objectives, mutation operators and judges. The only way the runner, CLI,
mutators and optimizers reach an extension, built-in or not."""

from __future__ import annotations

import importlib
import sys
import types
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property, lru_cache
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any, TypeVar

import pluggy

from adequacy.errors import BackendError
from adequacy.extensions import hookspecs
from adequacy.extensions.backend import Backend, Engine, EngineInfo
from adequacy.extensions.component import Component, ParamValue, distribution_of
from adequacy.extensions.importer import Importer
from adequacy.extensions.judges import JudgeKind
from adequacy.extensions.objectives import Objective
from adequacy.extensions.operators import MutationOperator
from adequacy.extensions.writers import WriterKind
from adequacy.model.metrics import Metric
from adequacy.model.types import CONSTRUCTORS
from adequacy.model.verdicts import Bucket

T = TypeVar("T")

ENTRY_POINT_GROUP = "adequacy.backends"


@dataclass(frozen=True)
class BrokenPlugin:
    """An entry point that failed to import: shown by ``adequacy backends``, never fatal."""

    name: str
    target: str
    error: str


#: Plugins whose import failed in the default manager.
BROKEN: list[BrokenPlugin] = []

#: The distribution (name, version) of each entry-point plugin, per manager.
_DISTRIBUTIONS: weakref.WeakKeyDictionary[pluggy.PluginManager, dict[str, tuple[str, str]]] = \
    weakref.WeakKeyDictionary()


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
    dists = _DISTRIBUTIONS.setdefault(pm, {})
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
            if ep.dist is not None:
                dists[ep.name] = (ep.dist.name, ep.dist.version)
    for p in plugins or []:
        pm.register(p)
    try:
        pm.check_pending()
    except pluggy.PluginValidationError as e:
        raise BackendError(f"invalid plugin {getattr(e, 'plugin', '?')!r}: {e}") from e
    _RECIPES[pm] = _recipe_of(load_entry_points, plugins or [])
    return pm


@dataclass(frozen=True)
class ManagerRecipe:
    """How to build the same plugin manager in a fresh interpreter (a spawned pool worker):
    whether entry points are loaded, and each extra plugin module with the folder it is
    imported from."""

    entry_points: bool
    modules: tuple[tuple[str, str], ...] = ()


_RECIPES: weakref.WeakKeyDictionary[pluggy.PluginManager, ManagerRecipe | None] = \
    weakref.WeakKeyDictionary()


def _recipe_of(load_entry_points: bool, extra: list[Any]) -> ManagerRecipe | None:
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
    return ManagerRecipe(load_entry_points, tuple(mods))


def recipe() -> ManagerRecipe | None:
    """The current manager's recipe; None when a fresh interpreter cannot rebuild it."""
    return _RECIPES.get(default_manager())


def install_recipe(r: ManagerRecipe) -> None:
    """Make this (fresh) process's plugin manager the one ``r`` describes."""
    if r == ManagerRecipe(True, ()):
        return
    for _, root in r.modules:
        if root not in sys.path:
            sys.path.insert(0, root)
    pm = make_manager(r.entry_points, [importlib.import_module(m) for m, _ in r.modules],
                      broken=BROKEN)
    globals()["default_manager"] = lambda: pm


def _plugin_name(pm: pluggy.PluginManager, plugin: object) -> str:
    return pm.get_name(plugin) or repr(plugin)


def collect(pm: pluggy.PluginManager, hook: str, cls: type[T], what: str,
            check: Callable[[T, str], None] | None = None) -> tuple[dict[str, T], dict[str, str]]:
    """Run every implementation of ``hook`` once: each item an instance of ``cls`` (else an
    error naming the plugin), each ``name`` once (else an error naming both plugins).
    Returns the items by name, in registration order, and the plugin that gave each."""
    found: dict[str, T] = {}
    owners: dict[str, str] = {}
    for impl in getattr(pm.hook, hook).get_hookimpls():
        plugin = _plugin_name(pm, impl.plugin)
        for item in list(impl.function() or []):
            if not isinstance(item, cls):
                raise BackendError(f"plugin {plugin!r} returned {item!r} from {hook}, which is "
                                   f"not an adequacy.plugin.{cls.__name__}")
            name = item.name  # type: ignore[attr-defined]
            if not isinstance(name, str) or not name:
                raise BackendError(f"plugin {plugin!r} returned a {what} without a name")
            if name in found:
                raise BackendError(f"{what} {name!r} is provided twice: by plugin "
                                   f"{owners[name]!r} and by {plugin!r}")
            if check is not None:
                check(item, plugin)
            found[name] = item
            owners[name] = plugin
    return found, owners


def collect_backends(pm: pluggy.PluginManager) -> dict[str, Backend]:
    """Run every ``adequacy_backends`` hook once and check what it returned (each backend a
    ``Backend``, names unique). Callers want ``registry()``, which does this once per manager."""
    return collect(pm, "adequacy_backends", Backend, "backend")[0]


def collect_importers(pm: pluggy.PluginManager) -> dict[str, Importer]:
    """Run every ``adequacy_importers`` hook once: each result an ``Importer``, names unique
    (two with one name are an error naming both plugins)."""
    # a runtime-checkable protocol: isinstance checks its surface (name, description, run)
    return collect(pm, "adequacy_importers", Importer, "importer")[0]  # type: ignore[type-abstract]


def _check_operator(op: MutationOperator, plugin: str) -> None:
    if op.constructor not in CONSTRUCTORS:
        raise BackendError(f"plugin {plugin!r}: mutation operator {op.name!r} names type "
                           f"constructor {op.constructor!r}, which is not one of "
                           f"{', '.join(CONSTRUCTORS)}")


class Registry:
    """The installed backends of one plugin manager, each constructed once, their engines'
    infos, and the one rule for which backend owns a language.

    Availability checks spawn ``rustc --version`` and ``java -version`` (50-150 ms each), far
    more than scoring a spec with interp, and an optimizer scores thousands of specs in one
    process, so infos are asked once per registry; ``refresh()`` asks again (after
    ``adequacy setup`` installs a tool, or in a test that patches an engine)."""

    def __init__(self, pm: pluggy.PluginManager) -> None:
        self.pm = pm
        self._owners: dict[tuple[str, str], str] = {}
        self.backends: dict[str, Backend] = self._kind("adequacy_backends", Backend, "backend")
        self._infos: dict[str, list[tuple[Engine, EngineInfo]]] = {}

    # -- the other extension kinds, each collected on first use ----------------------------

    def _kind(self, hook: str, cls: type[T], what: str,
              check: Callable[[T, str], None] | None = None) -> dict[str, T]:
        found, owners = collect(self.pm, hook, cls, what, check)
        self._owners.update({(what, n): p for n, p in owners.items()})
        return found

    @cached_property
    def importers(self) -> dict[str, Importer]:
        """Importers by name (``adequacy import``). Asked for only by the commands that import:
        an importer's module can be large (HumanEval's imports the Python backend's task
        writer), and every score would otherwise load it."""
        # a runtime-checkable protocol: isinstance checks its surface (name, description, run)
        return self._kind("adequacy_importers", Importer, "importer")  # type: ignore[type-abstract]

    @cached_property
    def writers(self) -> dict[str, WriterKind]:
        """Spec writers by name (``synthesize --writer``)."""
        return self._kind("adequacy_writers", WriterKind, "writer")

    @cached_property
    def metrics(self) -> dict[str, Metric]:
        """Metrics by name, in the order tables print them (registration order)."""
        found = self._kind("adequacy_metrics", Metric, "metric")
        for attr in ("harness_name", "specgym_name"):
            seen: dict[str, str] = {}
            for m in found.values():
                label = getattr(m, attr)
                if label and label in seen:
                    raise BackendError(f"metrics {seen[label]!r} and {m.name!r} share the name "
                                       f"{label!r} (plugins {self.provider('metric', seen[label])!r}"
                                       f" and {self.provider('metric', m.name)!r})")
                seen[label] = m.name
        return found

    def metric_of(self, bucket: Bucket) -> Metric:
        """The metric that is ``bucket``'s pass fraction: the names tables give the bucket."""
        for m in self.metrics.values():
            if m.bucket == bucket and m.compute is None:
                return m
        raise BackendError(f"no installed metric is the pass fraction of {bucket.value} (is "
                           "spec-adequacy's own plugin registered?)")

    @cached_property
    def objectives(self) -> dict[str, Objective]:
        """Optimizer objectives by name (``optimize --metric``)."""
        return self._kind("adequacy_objectives", Objective, "objective")

    @cached_property
    def operators(self) -> dict[str, MutationOperator]:
        """Output mutation operators by name, in registration order."""
        return self._kind("adequacy_mutation_operators", MutationOperator, "mutation operator",
                          _check_operator)

    @cached_property
    def _operators_by_constructor(self) -> dict[str, list[MutationOperator]]:
        by: dict[str, list[MutationOperator]] = {c: [] for c in CONSTRUCTORS}
        for op in self.operators.values():
            by[op.constructor].append(op)
        return by

    def operators_of(self, constructor: str) -> list[MutationOperator]:
        """The operators of one type constructor, in registration order."""
        return self._operators_by_constructor[constructor]

    @cached_property
    def judges(self) -> dict[str, JudgeKind]:
        """Judges by name (``explore --oracle``)."""
        return self._kind("adequacy_judges", JudgeKind, "judge")

    # -- who provided what -------------------------------------------------------------------

    def provider(self, what: str, name: str) -> str:
        """The plugin that registered the ``what`` (``writer``, ``metric``...) named ``name``."""
        return self._owners.get((what, name), "?")

    def distribution(self, plugin: str) -> tuple[str, str] | None:
        """(distribution, version) of a registered plugin, when it is installed as one."""
        dist = _DISTRIBUTIONS.get(self.pm, {}).get(plugin)
        if dist is not None:
            return dist
        obj = self.pm.get_plugin(plugin)
        module = getattr(obj, "__name__", None) or type(obj).__module__
        return distribution_of(module) if isinstance(module, str) else None

    def component(self, what: str, name: str, params: dict[str, ParamValue] | None = None
                  ) -> Component:
        """A registered extension as records name it: kind, name, params, distribution."""
        dist = self.distribution(self.provider(what, name))
        return Component(kind=what, name=name, params=params or {},
                         distribution=dist[0] if dist else None,
                         version=dist[1] if dist else None)

    def plugins(self) -> list[Component]:
        """Every registered plugin with its distribution's version, by name."""
        return list(self._plugin_components)

    @cached_property
    def _plugin_components(self) -> tuple[Component, ...]:
        out = []
        for name, _ in sorted(self.pm.list_name_plugin()):
            dist = self.distribution(name)
            out.append(Component(kind="plugin", name=name,
                                 distribution=dist[0] if dist else None,
                                 version=dist[1] if dist else None))
        return tuple(out)

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
