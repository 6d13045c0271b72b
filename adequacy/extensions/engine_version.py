"""The one rule for an engine's version, which feeds every verdict's cache key.

A verdict depends on the tool that computed it (an OpenJML or rustc upgrade) and on our code
that drives the tool (a renderer or translator change). Hand-bumped constants miss the second
and constants such as "openjml" miss both, so a stale verdict is served from the cache. The
version is therefore ``<tool version>+src.<hash of the engine's own source files>``.
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

from adequacy.sandbox.toolchain import source_version

#: Build artefacts that may sit beside sources and say nothing the sources do not.
NOT_SOURCES = frozenset({".pyc", ".pyo", ".class", ".jar", ".o", ".so"})


@lru_cache(maxsize=64)
def sources_hash(*roots: str) -> str:
    """Hash of every source file under ``roots`` (files or folders), by path relative to the
    roots' common parent and content: a moved or edited file changes it, a build artefact or
    ``__pycache__`` does not."""
    paths = [Path(r) for r in roots]
    files: list[Path] = []
    for base in paths:
        files += [base] if base.is_file() else [
            p for p in base.rglob("*") if p.is_file() and p.suffix not in NOT_SOURCES
            and "__pycache__" not in p.parts and not p.name.startswith(".")]
    common = Path(os.path.commonpath([str(p.parent) for p in paths])) if paths else None
    return source_version(files, common)


def engine_version(tool_version: str, *sources: str | Path) -> str:
    """``tool_version`` (what the external tool reports; "builtin" for a pure-Python engine)
    joined with the hash of the engine's source files or folders."""
    digest = sources_hash(*sorted(str(Path(s).resolve()) for s in sources))
    return f"{tool_version.strip() or 'builtin'}+src.{digest}"
