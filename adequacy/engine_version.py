"""The one rule for an engine's version, which feeds every verdict's cache key.

A verdict depends on the tool that computed it (an OpenJML or rustc upgrade) and on our code
that drives the tool (a renderer or translator change). Hand-bumped constants miss the second
and constants such as "openjml" miss both, so a stale verdict is served from the cache. The
version is therefore ``<tool version>+src.<hash of the engine's own source files>``.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

#: Files whose content makes an engine's behaviour (code, templates, worker sources).
SOURCE_SUFFIXES = (".py", ".java", ".rs", ".toml", ".json", ".txt", ".jinja", ".j2")


@lru_cache(maxsize=64)
def sources_hash(*roots: str) -> str:
    """Hash of every source file under ``roots`` (files or folders), by relative path and
    content, so a moved or edited file changes it and a build artefact does not."""
    h = hashlib.sha256()
    for root in sorted(roots):
        base = Path(root)
        files = [base] if base.is_file() else sorted(
            p for p in base.rglob("*") if p.is_file() and p.suffix in SOURCE_SUFFIXES
            and "__pycache__" not in p.parts)
        for p in files:
            h.update(str(p.relative_to(base.parent)).encode())
            h.update(b"\0")
            h.update(p.read_bytes())
            h.update(b"\0")
    return h.hexdigest()[:12]


def engine_version(tool_version: str, *sources: str | Path) -> str:
    """``tool_version`` (what the external tool reports; "" for a pure-Python engine) joined
    with the hash of the engine's source files or folders."""
    digest = sources_hash(*(str(Path(s).resolve()) for s in sources))
    tool = tool_version.strip() or "builtin"
    return f"{tool}+src.{digest}"
