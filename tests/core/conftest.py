"""The toy backend, registered in-process (the installed-distribution path has its own test)."""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from adequacy import plugins

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


@pytest.fixture(autouse=True)
def _fresh_engine_infos() -> None:
    """Engine infos are remembered for a minute (``plugins.engine_infos``); a test that patches an engine must not
    be answered with another test's."""
    from adequacy import plugins

    plugins.registry().refresh()


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    sys.path.insert(0, str(FIXTURES / "toy_backend"))
    import adequacy_toy.plugin as toy_plugin

    pm = plugins.make_manager(load_entry_points=False, plugins=[toy_plugin])
    monkeypatch.setattr(plugins, "default_manager", lambda: pm)
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
