"""Case ids for cases a mutator or generator adds: a content hash, as short as it can be
while unique in its task, so the same case gets the same id on every run."""

from __future__ import annotations

from adequacy.model.values import content_hash


def new_case_id(prefix: str, taken: set[str], *parts: str) -> str:
    h = content_hash(*parts)
    for n in range(8, len(h) + 1):
        cid = f"{prefix}-{h[:n]}"
        if cid not in taken:
            taken.add(cid)
            return cid
    raise AssertionError("sha256 prefixes exhausted")  # pragma: no cover
