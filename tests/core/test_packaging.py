"""The distribution installs the core and one package per top-level source folder, each named
``adequacy*``: nothing generic (``backends``, ``mutators``) lands in site-packages."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def test_installed_layout_maps_top_level_folders(tmp_path: Path) -> None:
    """In the environment as installed (editable in development and CI), from a neutral folder:
    the packages import from their folders, and none of the repository's folder names is a
    module."""
    code = ("import importlib.util, adequacy_verus as v, adequacy_mutators, "
            "adequacy_optimizers;"
            "print(v.__file__);"
            "print([n for n in ('backends', 'mutators', 'optimizers') "
            "if importlib.util.find_spec(n) is not None])")
    proc = subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True,
                          cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    where, leaked = proc.stdout.splitlines()
    assert where.endswith(os.path.join("backends", "adequacy_verus", "__init__.py"))
    assert leaked == "[]"
    assert importlib.util.find_spec("adequacy_openjml") is not None


@pytest.mark.slow
def test_wheel_installs_only_adequacy_packages(tmp_path: Path) -> None:
    wheel_dir = tmp_path / "dist"
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w",
                           str(wheel_dir), str(REPO)], capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, proc.stderr
    [wheel] = list(wheel_dir.glob("spec_adequacy-*.whl"))
    target = tmp_path / "site"
    proc = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps",
                           "--target", str(target), str(wheel)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    top = {p.name for p in target.iterdir() if p.name != "bin"}
    assert top == {"adequacy", "adequacy_verus", "adequacy_openjml", "adequacy_python",
                   "adequacy_mutators", "adequacy_optimizers",
                   wheel.name.split("-")[0] + "-" + wheel.name.split("-")[1] + ".dist-info"}
    code = ("import adequacy, adequacy_verus, adequacy_mutators, adequacy_optimizers;"
            "print(adequacy.__file__)")
    env = dict(os.environ, PYTHONPATH=str(target))
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().startswith(str(target))
