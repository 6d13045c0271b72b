"""What a sandboxed child sees of the file system, as plain data.

Kept apart from ``sandbox_view`` (which works out the paths a binary needs, listing its
libraries inside the sandbox) and ``sandbox_bwrap`` (which turns a ``View`` into a bubblewrap
command line), so that each of those can use the other's output without importing each other.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class View:
    """Paths bound into the sandbox at the same place (``ro`` read-only, ``rw`` writable).

    ``system`` shows the whole of ``/usr`` (and the ``/lib*`` links) read-only: only for trusted
    tool chains (cargo, rustc, the C linker) that run many programs of their own.
    """

    ro: tuple[str, ...] = ()
    rw: tuple[str, ...] = ()
    system: bool = False
    tmpfs: tuple[str, ...] = field(default=())
    """Private writable folders (memory-backed), mounted before the binds."""
    masks: tuple[str, ...] = field(default=())
    """Folders hidden behind an empty read-only mount, after the binds: what a bound folder
    holds that the child must not read (the bundled examples' hidden cases inside an
    installation under ``/usr``)."""

    def plus(self, ro: Iterable[str | Path] = (), rw: Iterable[str | Path] = ()) -> View:
        return View(ro=self.ro + tuple(str(p) for p in ro),
                    rw=self.rw + tuple(str(p) for p in rw), system=self.system,
                    tmpfs=self.tmpfs, masks=self.masks)
