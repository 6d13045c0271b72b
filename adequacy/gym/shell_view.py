"""What the gym shell's sandbox sees, and which folders it must never see.

The shell binds a fixed tool chain: the system (``/usr``, the ``/lib*`` links, the loader
cache), the gym's own ``adequacy`` stand-in (``adequacy.gym.broker``) and the Python that runs
it, plus each folder the person starting the shell names with ``--ro``. Never a folder because
it is on the caller's ``PATH``: a PATH entry can be anything (a home folder, a folder above
the source tasks), and whatever was bound, the command could read. The command's own ``PATH``
is built from what is bound, not inherited.

Some folders hold what the agent must not read: the source tasks (hidden cases), gym folders'
``gym.json`` and ``.gym/`` (the source path, logs), the grader's private folder (its key) and
the verdict cache. A bind that holds one of them, or lies inside one, is refused with the
reason, whether it is a ``--ro`` folder, the Python or the system itself (tasks kept under
``/usr`` make the shell refuse to start rather than show them). The installed package's bundled
examples (every case of each bundled task) are masked where a bind holds them.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from adequacy.errors import AdequacyError, ViewRefused
from adequacy.gym.manifest import MANIFEST, read_manifest
from adequacy.sandbox import exec_lock
from adequacy.sandbox.mounts import View
from adequacy.sandbox.toolchain import cache_dir, world_traversable
from adequacy.scoring import trust

SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32",
          "/etc/alternatives", "/etc/ld.so.cache")
"""What ``View(system=True)`` binds (``adequacy.sandbox.bwrap``), resolved."""
SYSTEM_PATH = ("/usr/local/bin", "/usr/bin", "/bin", "/usr/local/sbin", "/usr/sbin", "/sbin")


@dataclass(frozen=True)
class ShellView:
    view: View
    path: str
    """The command's PATH: the bound tool folders only."""


def withheld_for(folder: Path, extra: Iterable[Path] = ()) -> list[tuple[Path, str]]:
    """(path, why) of everything the shell of ``folder`` must not bind: the grader's private
    folder, the verdict cache folder, this gym folder and its siblings (their ``.gym/``), the
    source task of each, and ``extra`` (an MCP server passes every folder it serves)."""
    out: list[tuple[Path, str]] = [(trust.grader_home(), "the grader's private folder"),
                                   (cache_dir(), "the verdict cache folder")]
    folders = [folder]
    parent = folder.parent
    with contextlib.suppress(OSError):
        folders += [d for d in parent.iterdir()
                    if d != folder and (d / MANIFEST).is_file()] if parent != folder else []
    folders += list(extra)
    for f in dict.fromkeys(folders):
        out.append((f, "a gym folder (its gym.json and .gym/)"))
        try:
            out.append((Path(read_manifest(f).source), "a source task (its hidden cases)"))
        except AdequacyError:
            continue
    return out


def _real(p: str | Path) -> Path:
    return Path(os.path.realpath(p))


def _clash(bound: Path, withheld: Sequence[tuple[Path, str]]) -> str | None:
    for w, why in withheld:
        wr = _real(w)
        if wr == bound or wr.is_relative_to(bound) or bound.is_relative_to(wr):
            return f"{bound} holds or lies in {wr} ({why})"
    return None


def shell_view(extra_ro: Sequence[str | Path], withheld: Sequence[tuple[Path, str]],
               broker: tuple[str, str] | None = None) -> ShellView:
    """The view and PATH of one shell command; ``ViewRefused`` naming the clash. ``broker``:
    (the broker's folder, its ``bin``) to bind and put first on PATH."""
    for s in SYSTEM:
        if os.path.lexists(s):
            why = _clash(_real(s), withheld)
            if why:
                raise ViewRefused(f"the shell binds the system folder {s} and {why}: keep "
                                  "tasks, gym folders and the grader's folders out of it")
    ro: list[str] = [broker[0]] if broker else []
    path: list[str] = [broker[1]] if broker else []
    found = exec_lock.python()
    if broker and found is not None:
        for p in found[1]:
            if any(p == s or p.startswith(s + "/") for s in SYSTEM):
                continue  # the system view shows it already
            why = _clash(_real(p), withheld)
            if why:
                raise ViewRefused(f"the Python that runs the shell's `adequacy` ({p}): {why}")
            ro.append(p)
    for given in extra_ro:
        d = Path(given).expanduser()
        if not d.is_absolute():
            d = d.resolve()
        if not d.is_dir():
            raise ViewRefused(f"--ro {given}: not a folder")
        why = _clash(_real(d), withheld)
        if why:
            raise ViewRefused(f"--ro {given}: {why}")
        if os.geteuid() == 0 and not world_traversable(d):
            raise ViewRefused(f"--ro {given}: the sandbox's user cannot reach it (a folder on "
                              "the way is closed to others)")
        ro += [str(d), str(_real(d))]
        for bin_dir in (d / "bin", d):
            if bin_dir.is_dir():
                path.append(str(bin_dir))
    path += [p for p in SYSTEM_PATH if os.path.isdir(p)]
    bound = [_real(b) for b in (*SYSTEM, *ro) if os.path.lexists(b)]
    masks = [str(m) for m in bundled_examples() if any(m.is_relative_to(b) for b in bound)]
    return ShellView(view=View(ro=tuple(dict.fromkeys(ro)), system=True, masks=tuple(masks)),
                     path=os.pathsep.join(dict.fromkeys(path)))


def bundled_examples() -> list[Path]:
    """The installed example folders (core's and each language's): every case of a bundled
    task, hidden ones included, is there. An installation under ``/usr`` (``pip install`` as
    root) is inside the system view, so these are masked wherever they fall in a bound
    folder: an agent graded on a copy of a bundled task must not read its source's cases."""
    from adequacy.examples import bundled

    return [_real(f.source) for f in bundled()]
