"""Backends arrive through entry points, the built-in ones exactly like third-party ones."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from adequacy import plugins
from adequacy.errors import BackendError
from adequacy.hookspecs import hookimpl


def run_cli(args: list[str], pythonpath: Path, **kw: object) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(pythonpath), COLUMNS="200")
    return subprocess.run([sys.executable, "-m", "adequacy", *args], env=env,
                          capture_output=True, text=True, timeout=120, **kw)  # type: ignore


def test_separately_installed_backend_is_listed(installed_toy: Path) -> None:
    proc = run_cli(["backends", "--json"], installed_toy)
    assert proc.returncode == 0, proc.stderr
    rows = json.loads(proc.stdout)["engines"]
    toy = {r["engine"]: r for r in rows if r["backend"] == "toy"}
    assert set(toy) == {"exact", "picky", "liar", "gone"}
    assert toy["gone"]["available"] is False and toy["gone"]["reason"] == "install gone-tool"
    assert toy["exact"]["default"] is True


def test_table_output_names_unavailable_reason(installed_toy: Path) -> None:
    proc = run_cli(["backends"], installed_toy)
    assert proc.returncode == 0
    assert "toy" in proc.stdout and "install gone-tool" in proc.stdout


def test_builtin_backends_use_the_same_entry_point_group() -> None:
    from importlib.metadata import entry_points
    names = {ep.name: ep.value for ep in entry_points(group=plugins.ENTRY_POINT_GROUP)}
    assert names.get("verus") == "adequacy.backends.verus.plugin"
    assert names.get("openjml") == "adequacy.backends.openjml.plugin"


class Misspelt:
    @hookimpl
    def adequacy_backend(self) -> list[object]:  # missing "s": must not be silently ignored
        return []


def test_misspelt_hook_fails_loudly() -> None:
    with pytest.raises(BackendError, match="adequacy_backend"):
        plugins.make_manager(load_entry_points=False, plugins=[Misspelt()])


class NotABackend:
    @hookimpl
    def adequacy_backends(self) -> list[object]:
        return [object()]


def test_object_without_backend_surface_is_rejected() -> None:
    pm = plugins.make_manager(load_entry_points=False, plugins=[NotABackend()])
    with pytest.raises(BackendError, match="lacks the Backend surface"):
        plugins.collect_backends(pm)


def test_duplicate_backend_names_name_both_plugins() -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fixtures" / "toy_backend"))
    try:
        import adequacy_toy.plugin as toy_plugin

        class Again:
            @hookimpl
            def adequacy_backends(self) -> list[object]:
                return [toy_plugin.ToyBackend()]

        pm = plugins.make_manager(load_entry_points=False, plugins=[toy_plugin, Again()])
        with pytest.raises(BackendError, match="provided twice"):
            plugins.collect_backends(pm)
    finally:
        sys.path.pop(0)
