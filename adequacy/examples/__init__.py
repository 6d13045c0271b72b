"""The examples that ship with the package, copied out where a user can run and edit them.

Each language's backend owns its examples (``Backend.example_dir``: tasks with gold and flawed
specs; ``gold_dir``: gold specs of an imported dataset); core owns what no language does: the
problem packages (``packages/``) and the studies (``studies/``, whose task paths are relative to
the study file). ``adequacy examples DEST`` lays them out as one tree, the same for an editable
install and a wheel: ``DEST/<language>/<task>``, ``DEST/<gold folder>/``, ``DEST/packages/``,
``DEST/studies/``. Every path the README and docs show is relative to such a tree.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from adequacy.errors import InputError

CORE = Path(__file__).resolve().parent
"""Core's own bundled folders (``packages``, ``studies``)."""


class BundledFolder(BaseModel):
    """One folder of the examples tree and where it comes from."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    """Its name under DEST."""
    source: Path
    owner: str
    """``core`` or the backend's name."""
    what: str


def bundled() -> list[BundledFolder]:
    """Every bundled folder of core and of each installed backend, in a fixed order."""
    from adequacy.extensions import registry

    out = [BundledFolder(name=d.name, source=d, owner="core", what=what)
           for d, what in ((CORE / "packages", "problem packages (adequacy import package)"),
                           (CORE / "studies", "studies (adequacy experiment run)"))
           if d.is_dir()]
    for b in registry.registry().backends.values():
        if b.example_dir is not None and b.example_dir.is_dir():
            out.append(BundledFolder(name=b.language, source=b.example_dir, owner=b.name,
                                     what=f"{b.language} tasks with gold and flawed specs"))
        if b.gold_dir is not None and b.gold_dir.is_dir():
            out.append(BundledFolder(name=b.gold_dir.name, source=b.gold_dir, owner=b.name,
                                     what="gold specs of an imported dataset's tasks"))
    names = [f.name for f in out]
    clash = sorted({n for n in names if names.count(n) > 1})
    if clash:
        raise InputError(f"two bundled example folders are both named {clash[0]!r}: "
                         + ", ".join(f"{f.owner} ({f.source})" for f in out if f.name == clash[0]))
    return out


def _copy_writable(src: str, dst: str) -> None:
    """Content and execute bits, but writable by the user whatever the installation's modes."""
    shutil.copyfile(src, dst)
    os.chmod(dst, (os.stat(src).st_mode & 0o755) | 0o644)


IGNORED = ("__pycache__", "*.pyc", "out")
"""Never copied, never compared: byte code, and what a study writes beside itself."""


def _files(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` by relative path, with its bytes (what a copy must equal)."""
    out: dict[str, bytes] = {}
    for p in sorted(root.rglob("*")):
        rel = p.relative_to(root)
        if any(part == "__pycache__" or part == "out" for part in rel.parts) or p.suffix == ".pyc":
            continue
        if p.is_file() and not p.is_symlink():
            out[rel.as_posix()] = p.read_bytes()
    return out


def copy_examples(dest: Path, force: bool = False) -> list[tuple[BundledFolder, Path, str]]:
    """Copy every bundled folder to ``dest/<name>``; returns (folder, target, what happened).

    A target that already holds exactly the bundled files is left alone ("up to date"), so the
    README's first command can be run twice. A target that differs (the user's edits, an older
    version's examples) is an error unless ``force`` replaces it: edits are never lost silently.
    Copies are plain files the user owns (no links back into the installation)."""
    folders = bundled()
    state: dict[str, str] = {}
    for f in folders:
        target = dest / f.name
        if not os.path.lexists(target):
            state[f.name] = "copied"
        elif target.is_dir() and not target.is_symlink() and _files(target) == _files(f.source):
            state[f.name] = "up to date"
        elif force:
            state[f.name] = "replaced"
        else:
            raise InputError(f"already exists and differs from the bundled "
                             f"{f.name!r} (--force replaces it; your edits there are lost)",
                             file=str(target))
    dest.mkdir(parents=True, exist_ok=True)
    done = []
    for f in folders:
        target = dest / f.name
        if state[f.name] != "up to date":
            if target.is_symlink() or target.is_file():
                target.unlink()
            elif target.exists():
                shutil.rmtree(target)
            shutil.copytree(f.source, target, symlinks=False, copy_function=_copy_writable,
                            ignore=shutil.ignore_patterns(*IGNORED))
        done.append((f, target, state[f.name]))
    return done


def bundled_folder(name: str) -> Path:
    """The installed folder that ``adequacy examples`` copies to ``DEST/<name>`` (``verus``,
    ``jml``, ``verina-gold``, ``packages``, ``studies``...), for tests, benchmarks and
    notebooks that read the bundled examples in place."""
    for f in bundled():
        if f.name == name:
            return f.source
    raise InputError(f"no bundled example folder named {name!r} (bundled: "
                     f"{', '.join(f.name for f in bundled())})")


def gym_examples(language: str) -> Path:
    """The worked-example folder the language's owner backend ships for gym folders."""
    from adequacy.extensions import registry

    found = registry.registry().owner(language).gym_example_dir
    if found is None or not found.is_dir():
        raise InputError(f"the {language} backend ships no gym worked examples")
    return found
