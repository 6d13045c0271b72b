"""What the hostile tests of the grader's trust share: an installation of their own (grader key,
ledger, verdict cache), gym folders made from bundled tasks, the hidden cases to look for, and
the rows a forger plants in a verdict cache."""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path
from types import ModuleType

import pytest

from adequacy.examples import bundled_folder
from adequacy.model.task import Task
from adequacy.model.verdicts import Truth
from adequacy.scoring import cache as cache_mod
from adequacy.scoring.cache import VerdictCache
from adequacy.scoring.runner import score_spec
from adequacy.taskdirs.load import load_task

TESTS = Path(__file__).resolve().parents[1]
REPO = TESTS.parent
VERUS = bundled_folder("verus")
JML = bundled_folder("jml")
EUCLID = VERUS / "euclid_mod"
GOLD = (EUCLID / "specs" / "gold.rs").read_text()
FLAWED = (EUCLID / "skeleton.rs").read_text()
"""``true`` / ``true``: fails every pre_sound and post_sound case of euclid_mod."""


def leaks() -> ModuleType:
    """``tests/gym/leaks.py`` (every rendering of a hidden case), loaded by its path."""
    name = "gym_leaks_for_security"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, TESTS / "gym" / "leaks.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod  # dataclasses look their module up
    spec.loader.exec_module(mod)
    return mod


def installation(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str = "grader"
                 ) -> Path:
    """Make ``tmp_path/name`` this process's installation: its grader folder and its verdict
    cache folder (Verus only: the Java workers are built per cache folder)."""
    cache_mod._warned.clear()
    home = tmp_path / name
    monkeypatch.setenv("ADEQUACY_GRADER_HOME", str(home / "grader-home"))
    monkeypatch.setenv("ADEQUACY_CACHE", str(home / "cache"))
    return home


def make_gym(tmp_path: Path, *tasks: Path) -> tuple[Path, Path]:
    """(gym root, sources root): copies of ``tasks`` (default: euclid_mod and
    binary_search_first) and a gym made from them."""
    from adequacy.gym import make_gym as make

    src = tmp_path / "src"
    for d in tasks or (EUCLID, VERUS / "binary_search_first"):
        shutil.copytree(d, src / d.name)
    out = tmp_path / "gym"
    make([src], out, visible=3, seed=0)
    return out, src


class Spy(VerdictCache):
    """A cache that remembers the keys it was asked for: how a forger finds the real keys."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.asked: list[str] = []

    def get_many(self, keys: list[str]) -> dict[str, tuple[Truth, str, str]]:
        self.asked += keys
        return super().get_many(keys)


def favourable_rows(task: Task | Path, spec: str, scratch: Path
                    ) -> list[tuple[str, Truth, str, str]]:
    """(key, value, reason, engine) for every case of ``task`` under ``spec``, each value what
    the case's bucket expects: the rows that make ``spec`` pass everything if believed."""
    t = task if isinstance(task, Task) else load_task(task)
    spy = Spy(scratch / "spy.sqlite")
    rep = score_spec(t, spec, cache=spy)
    assert len(spy.asked) == len(rep.verdicts)
    return [(k, Truth.true if v.bucket.expects else Truth.false, "planted", v.engine)
            for k, v in zip(spy.asked, rep.verdicts, strict=True)]
