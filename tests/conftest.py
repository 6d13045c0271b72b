"""Shared fixtures: the public datasets beside the repository, when present."""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# Property tests take their example count from a profile, never from the test: the default lane
# stays quick, the deep lane (HYPOTHESIS_PROFILE=deep pytest -m property) searches hard.
settings.register_profile("default", max_examples=50, deadline=None,
                          suppress_health_check=[HealthCheck.filter_too_much,
                                                 HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile("deep", max_examples=1000, deadline=None,
                          suppress_health_check=[HealthCheck.filter_too_much,
                                                 HealthCheck.too_slow, HealthCheck.data_too_large])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

REPO = Path(__file__).resolve().parents[1]


def find_datasets() -> Path | None:
    """``../shared/datasets`` beside the checkout, or ``$ADEQUACY_DATASETS``."""
    env = os.environ.get("ADEQUACY_DATASETS")
    for cand in ([Path(env)] if env else []) + [REPO.parent / "shared" / "datasets"]:
        if cand.is_dir():
            return cand
    return None


@pytest.fixture(scope="session")
def datasets_dir() -> Path:
    d = find_datasets()
    if d is None:
        pytest.skip("../shared/datasets is not present (set ADEQUACY_DATASETS to point at it)")
    return d


@cache
def tool_missing(tool: str) -> str | None:
    """Why ``tool`` cannot be used here, or None. Engines are asked through the plugin
    registry (their own availability check), so a test never imports a backend to skip."""
    if tool == "javac":
        from adequacy_openjml.jdk import find_java

        java = find_java()
        return None if java and java.javac else "needs a JDK (javac on PATH or JAVA_HOME)"
    if tool in ("cargo", "rustc", "bwrap", "chromium", "g++"):
        return None if shutil.which(tool) else f"needs {tool} on PATH"
    from adequacy.extensions import registry

    for b in registry.registry().backends.values():
        for e in b.engines():
            info = e.info()
            if info.name == tool:
                return None if info.available else f"engine {tool} unavailable: {info.reason}"
    return f"no engine named {tool} is installed"


def pytest_runtest_setup(item: pytest.Item) -> None:
    for mark in item.iter_markers(name="requires"):
        for tool in mark.args:
            why = tool_missing(tool)
            if why:
                pytest.skip(why)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Hypothesis tests carry the ``property`` marker, so ``-m property`` selects the lane."""
    for item in items:
        fn = getattr(item, "function", None)
        if fn is not None and getattr(fn, "is_hypothesis_test", False):
            item.add_marker(pytest.mark.property)


# -- the toy third-party language (tests/fixtures/toy_backend) -------------------------------

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def builtin_extensions() -> list[object]:
    """spec-adequacy's own plugins that add no language (metrics, judges, operators, writers,
    objectives): loaded from its entry points, as the registry loads them."""
    from importlib.metadata import entry_points

    from adequacy.extensions.registry import ENTRY_POINT_GROUP

    out = []
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        if ep.dist is None or ep.dist.name != "spec-adequacy":
            continue
        plugin = ep.load()
        if not any(hasattr(plugin, h) for h in ("adequacy_backends", "adequacy_importers")):
            out.append(plugin)
    return out


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The toy backend as the only language, registered in-process beside spec-adequacy's own
    extensions that add none (its metrics, judges, operators, writers and objectives)."""
    from adequacy.extensions import registry

    sys.path.insert(0, str(FIXTURES / "toy_backend"))
    import adequacy_toy.plugin as toy_plugin

    pm = registry.make_manager(load_entry_points=False,
                               plugins=[*builtin_extensions(), toy_plugin])
    monkeypatch.setattr(registry, "default_manager", lambda: pm)
    yield
    sys.path.remove(str(FIXTURES / "toy_backend"))


@pytest.fixture
def toy_task(tmp_path: Path) -> Path:
    d = tmp_path / "toy_succ"
    shutil.copytree(FIXTURES / "toy_task", d)
    return d


@pytest.fixture(scope="session")
def installed_toy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The toy backend installed as a separate distribution into its own folder.

    Returned folder goes on PYTHONPATH of child processes, whose entry-point scan then finds
    the toy backend exactly as it would a third-party plugin installed with pip.
    """
    import subprocess

    src = tmp_path_factory.mktemp("toy-src") / "toy_backend"
    shutil.copytree(FIXTURES / "toy_backend", src)
    target = tmp_path_factory.mktemp("toy-site")
    proc = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps",
                           "--target", str(target), str(src)], capture_output=True, text=True)
    if proc.returncode != 0:
        pytest.fail(f"installing the toy distribution failed:\n{proc.stderr}")
    return target
