"""What produced something, as a record names it: a kind of extension, its name, the parameters
that shaped what it made, and the distribution (with its version) that shipped it.

A results record names the writer of its spec this way (``Provenance.made_by``) and every
plugin installed when it was scored (``Producer.plugins``), so two runs can be told apart by
what wrote and what judged, not only by this package's version.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import metadata

from pydantic import BaseModel, ConfigDict

__all__ = ["Component", "ParamValue", "distribution_of"]

ParamValue = str | int | float | bool | None
"""A parameter's value: what a record can hold and compare."""


class Component(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: str
    """``writer``, ``agent``, ``plugin``, ... (an extension kind, or who else made it)."""
    name: str
    params: dict[str, ParamValue] = {}
    """What shaped the product, by name (``family``, ``model``, ``temperature``, ``samples``,
    ``program``: the SHA-256 of a program file)."""
    distribution: str | None = None
    """The Python distribution that shipped it (``spec-adequacy``, a plugin's); None when it
    is not installed as one (code on ``sys.path``, a person)."""
    version: str | None = None

    def label(self) -> str:
        dist = f" ({self.distribution} {self.version})" if self.distribution else ""
        return f"{self.kind} {self.name}{dist}"


@lru_cache(maxsize=256)
def distribution_of(module: str) -> tuple[str, str] | None:
    """(distribution, version) of the installed distribution that provides ``module``'s
    top-level package, or None (not installed: a test's plugin object, code on a path)."""
    top = module.split(".")[0]
    names = _packages().get(top, [])
    if not names:
        return None
    try:
        return names[0], metadata.version(names[0])
    except metadata.PackageNotFoundError:
        return None


@lru_cache(maxsize=1)
def _packages() -> dict[str, list[str]]:
    return dict(metadata.packages_distributions())
