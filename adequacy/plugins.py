"""The plugin manager: the only way the runner, CLI, mutators and optimizers reach backends."""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import lru_cache
from importlib.metadata import entry_points
from typing import Any

import pluggy

from adequacy import hookspecs
from adequacy.backend import Backend, Engine, EngineInfo
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


_INFO_TTL = 60.0
_infos: dict[tuple[str, object], tuple[float, list[tuple[Engine, EngineInfo]]]] = {}


def engine_infos(b: Backend) -> list[tuple[Engine, EngineInfo]]:
    """Each engine of ``b`` with its ``info()``, remembered for a minute: availability checks
    spawn ``rustc --version`` and ``java -version`` (50-150 ms each), far more than scoring a
    spec with interp, and an optimizer scores thousands of specs in one process."""
    now = time.monotonic()
    # keyed by the provider too: a backend re-registered or re-implemented under the same name
    # (a plugin reloaded, a test's stand-in) must not be answered with the old engines
    key = (b.name, type(b))
    hit = _infos.get(key)
    if hit is None or now - hit[0] > _INFO_TTL:
        engines = list(b.engines())
        for e in engines:
            if not isinstance(e, Engine):
                raise BackendError(f"backend {b.name!r} listed {e!r}, which lacks the Engine "
                                   "surface (name, info, check)")
        hit = (now, [(e, e.info()) for e in engines])
        _infos[key] = hit
    return hit[1]


def language_backends(language: str) -> list[Backend]:
    """The installed backends of a language, in registration order."""
    return [b for b in backends().values() if b.language == language]


def main_backend(language: str) -> Backend:
    """The backend that owns a language: the first one with a default engine (an add-on
    backend whose engines are all opt-in must not take over a language's default chain).
    The one place this rule is written."""
    same = language_backends(language)
    for b in same:
        if any(i.default for _, i in engine_infos(b)):
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
