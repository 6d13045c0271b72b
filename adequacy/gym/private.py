"""What of a gym folder is the gym's own: one rule for every surface that shows a folder.

A gym folder mixes the agent's files with the gym's: the manifest (``gym.json``, which names
the source task and so the way to its hidden cases) and ``.gym/`` (the visible-only task copy,
the check logs, the submissions). Surfaces that each kept their own list disagreed: the shell
hid both, MCP ``read_file`` returned them. Every surface (the sandboxed shell's copy in and
out, MCP ``read_file`` and its listings, the spec file that ``check`` and ``submit`` read, an
exporter that packs a folder for a container) asks this module, and nothing else:

- ``is_private(rel)``: a path (relative to the folder, as given) that names the gym's own
  files, after ``.``/``..`` are folded; names are compared case-folded, so a case-insensitive
  file system cannot show ``GYM.JSON`` as another file;
- ``agent_path(folder, rel)``: the real path an agent may read, refused when it is private, when
  it leaves the folder, when a symbolic link on the way leads into a private place or out, or
  when it is a hard link (a second name of a file that may be the gym's own);
- ``agent_entries(folder)``: every entry an agent owns, never following a symbolic link;
- ``public_manifest(m)``: the manifest's fields an agent may read (no source path, no seal).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path, PurePosixPath
from typing import Any

from adequacy.errors import PrivatePath
from adequacy.gym.manifest import MANIFEST, PRIVATE, GymManifest

PRIVATE_NAMES = frozenset(n.casefold() for n in (MANIFEST, PRIVATE))
"""Top-level names of a gym folder that belong to the gym."""
MAX_DEPTH = 32
"""Folders nested deeper are not walked (nor copied by the shell)."""
PUBLIC_MANIFEST_FIELDS = ("task_id", "language", "spec_file", "visible", "seed", "example_task")
"""Manifest fields that say nothing of where the hidden cases are, nor vouch for anything."""


def _parts(rel: str | os.PathLike[str]) -> tuple[str, ...]:
    """``rel`` with ``.`` and ``..`` folded lexically (``a/../gym.json`` is ``gym.json``);
    a path that climbs above the folder keeps a leading ``..``."""
    text = os.fspath(rel).replace("\\", "/")
    norm = os.path.normpath(text) if text else "."
    return tuple(p for p in PurePosixPath(norm).parts if p not in ("", "."))


def is_private(rel: str | os.PathLike[str]) -> bool:
    """Whether ``rel`` (relative to a gym folder) names the manifest, ``.gym/`` or anything
    in it."""
    parts = _parts(rel)
    return bool(parts) and parts[0].casefold() in PRIVATE_NAMES


def agent_path(folder: Path, rel: str | os.PathLike[str], shown: str | None = None) -> Path:
    """The resolved path of ``rel`` inside ``folder`` that an agent may read or list.

    ``PrivatePath`` when ``rel`` is absolute, climbs out, names the gym's own files, or
    resolves (through a symbolic link anywhere on the way) outside the folder or into a
    private place. ``shown``: how messages name the path (what the agent typed)."""
    root = folder.resolve()
    text = os.fspath(rel) or "."
    name = repr((shown if shown is not None else text)[:200])
    if os.path.isabs(text) or text.startswith("~"):
        raise PrivatePath(f"{name} is outside the task's folder (an absolute path)")
    parts = _parts(text)
    if parts and parts[0] == "..":
        raise PrivatePath(f"{name} is outside the task's folder")
    if is_private(text):
        raise PrivatePath(f"{name} is the gym's own file (gym.json and .gym/ are not "
                          "shown to the agent)")
    target = (root / text).resolve()
    if not target.is_relative_to(root):
        raise PrivatePath(f"{name} leads outside the task's folder")
    if is_private(target.relative_to(root)):
        raise PrivatePath(f"{name} leads into the gym's own files (gym.json and .gym/ "
                          "are not shown to the agent)")
    try:
        st = target.stat()
    except OSError:
        return target  # missing: the caller says so
    if stat.S_ISREG(st.st_mode) and st.st_nlink > 1:
        # a second name of a file that may be the gym's own (or anyone's): gym make and the
        # shell's copy back only ever write files with one name
        raise PrivatePath(f"{name} is a hard link ({st.st_nlink} names); not shown")
    return target


def agent_entries(root: Path) -> Iterator[tuple[Path, Path]]:
    """(relative path, path) of every entry the agent owns under ``root``, top-down, the gym's
    own files left out; symbolic links are listed, never followed.

    Walked with a stack of our own, not ``os.walk`` (recursive on Python 3.11): a folder
    nested a thousand deep would raise RecursionError. Folders past ``MAX_DEPTH`` are not
    entered."""
    stack: list[tuple[Path, Path]] = [(Path("."), root)]
    while stack:
        rel_base, base = stack.pop()
        try:
            with os.scandir(base) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError:
            continue
        subdirs: list[tuple[Path, Path]] = []
        for e in entries:
            rel = rel_base / e.name if rel_base != Path(".") else Path(e.name)
            if is_private(rel):
                continue
            path = base / e.name
            yield rel, path
            if e.is_dir(follow_symlinks=False) and len(rel.parts) < MAX_DEPTH:
                subdirs.append((rel, path))
        stack.extend(reversed(subdirs))


def listing(folder: Path, rel: str | os.PathLike[str] = ".") -> list[str]:
    """The names in a folder of the agent's (``name/`` for folders), the gym's own left out."""
    target = agent_path(folder, rel)
    root = folder.resolve()
    out = []
    for p in sorted(target.iterdir()):
        r = p.relative_to(root)
        if is_private(r):
            continue
        out.append(str(r) + ("/" if p.is_dir() and not p.is_symlink() else ""))
    return out


def public_manifest(m: GymManifest) -> dict[str, Any]:
    """What an agent (or a folder exported for a container) may read of the manifest."""
    d = m.model_dump()
    return {k: d[k] for k in PUBLIC_MANIFEST_FIELDS}


__all__ = ["MAX_DEPTH", "PRIVATE_NAMES", "PrivatePath", "agent_entries", "agent_path",
           "is_private", "listing", "public_manifest"]
