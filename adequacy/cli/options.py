"""The option groups commands share: how a spec is scored, and which verdict cache to use.

Both are generated from their models (``adequacy.cli.model_options``): ``score`` and ``run``
take every field of ``ScoreOptions`` (engines, cross-check, strictness, every limit) with the
model's defaults and help, and the commands that score without choosing engines take the
limits alone.
"""

from __future__ import annotations

from typing import Any

from adequacy.cli.model_options import Group, model_group


def _score_options() -> type[Any]:
    from adequacy.scoring.options import ScoreOptions

    return ScoreOptions


def _cache_choice() -> type[Any]:
    from adequacy.scoring.cache import CacheChoice

    return CacheChoice


def _limits() -> type[Any]:
    from adequacy.extensions.backend import Limits

    return Limits


SCORE = model_group("score_options", _score_options)
"""``--backend``, ``--engine``, ``--cross-check``, ``--strict/--lenient`` and every limit: the
command gets a ``ScoreOptions``."""

CACHE = model_group("cache_path", _cache_choice, finish=lambda c: c.path())
"""``--no-cache`` and ``--cache``: the command gets the cache file's path, or None."""


def limits_group(*fields: str, **defaults: Any) -> Group:
    """Some of ``Limits``' fields (with a command's own defaults where it means to differ)."""
    return model_group("limits", _limits, only=fields or None, defaults=defaults)
