"""The bubblewrap layer of the sandbox: an empty root with only the child's own files in it.

Why bubblewrap: it is the Debian-packaged tool (``apt-get install -y bubblewrap``) that Flatpak
relies on, and it gives what we need both to root and to unprivileged users (through user
namespaces): a new mount namespace whose root holds only the bound paths, a private ``/tmp``
(tmpfs of bounded size), new PID, network, IPC and UTS namespaces, no new user namespaces
inside, its own session (no terminal injection), and ``--die-with-parent``. Because the child is
PID 1's descendant in its own PID namespace, killing the sandbox kills every process in it:
forks, ``setsid`` daemons and double-forked children included.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass

from adequacy.sandbox.mounts import View

NOBODY = 65534
_SYSTEM_LINKS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
#: Debian's alternatives (``cc`` -> ``gcc``) and the loader cache: a tool chain needs them.
_SYSTEM_ETC = ("/etc/alternatives", "/etc/ld.so.cache")


@dataclass(frozen=True)
class Probe:
    """Whether bubblewrap runs here for this kind of child, and why not."""

    ok: bool
    reason: str = ""


def bwrap_path() -> str | None:
    override = os.environ.get("ADEQUACY_BWRAP")
    if override is not None:
        return override or None  # ADEQUACY_BWRAP= (empty) turns the layer off, for tests
    return shutil.which("bwrap") or next(
        (p for p in ("/usr/bin/bwrap", "/bin/bwrap") if os.path.exists(p)), None)


def _system_args() -> list[str]:
    args = ["--ro-bind", "/usr", "/usr"]
    for link in _SYSTEM_LINKS:
        if os.path.islink(link):
            args += ["--symlink", os.readlink(link), link]
        elif os.path.isdir(link):
            args += ["--ro-bind", link, link]
    for p in _SYSTEM_ETC:
        if os.path.exists(p):
            args += ["--ro-bind", p, p]
    return args


def _dedupe(paths: Sequence[str]) -> list[str]:
    """Drop repeats and paths already under another bound folder (order: shortest first)."""
    out: list[str] = []
    for p in sorted(set(os.path.normpath(x) for x in paths), key=lambda s: (s.count("/"), s)):
        if not any(p == q or p.startswith(q.rstrip("/") + "/") for q in out):
            out.append(p)
    return out


def command(cmd: Sequence[str], *, cwd: str | None, view: View, network: bool, tmp_mb: int,
            bwrap: str) -> list[str]:
    """The bwrap command line that runs ``cmd`` in ``cwd`` (bound writable) seeing only
    ``view``."""
    # --unshare-user also under root, so that --disable-userns (no nested user namespace, in
    # which the child could mount and remap) applies, and --cap-drop ALL so that root's child
    # keeps no capability inside its namespace.
    args = [bwrap, "--unshare-all", "--unshare-user", "--disable-userns", "--cap-drop", "ALL",
            "--die-with-parent", "--new-session", "--hostname", "sandbox"]
    if network:
        args.append("--share-net")
    size = str(tmp_mb * 1024 * 1024)
    args += ["--proc", "/proc", "--dev", "/dev", "--size", size, "--tmpfs", "/tmp",
             "--size", size, "--tmpfs", "/dev/shm"]
    if view.system:
        args += _system_args()
    for p in view.tmpfs:
        args += ["--size", str(tmp_mb * 1024 * 1024), "--tmpfs", p]
    rw = _dedupe([*view.rw, *([cwd] if cwd else [])])
    for p in _dedupe(view.ro):
        if any(p == w or p.startswith(w.rstrip("/") + "/") for w in rw):
            continue
        if not os.path.lexists(p):
            continue
        if os.path.islink(p) and not view.system:
            args += ["--ro-bind", os.path.realpath(p), p]
        else:
            args += ["--ro-bind", p, p]
    for p in rw:
        args += ["--bind", p, p]
    for p in _dedupe(view.masks):
        if os.path.isdir(p):
            args += ["--size", "4096", "--tmpfs", p, "--remount-ro", p]
    args += ["--remount-ro", "/", "--chdir", cwd or "/", "--", *cmd]
    return args


@functools.lru_cache(maxsize=4)
def probe(as_root: bool) -> Probe:
    """Run a trivial child through bwrap (as root, or as the unprivileged user we drop to)."""
    bwrap = bwrap_path()
    if bwrap is None or not os.path.exists(bwrap):
        return Probe(False, "bubblewrap (bwrap) not installed: apt-get install -y bubblewrap")
    true = shutil.which("true") or "/bin/true"
    cmd = command([os.path.realpath(true)], cwd=None, view=View(system=True), network=False,
                  tmp_mb=1, bwrap=bwrap)
    preexec = None
    if not as_root and os.geteuid() == 0:
        def preexec() -> None:
            os.setgroups([])
            os.setgid(NOBODY)
            os.setuid(NOBODY)
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=30,
                           preexec_fn=preexec, cwd="/")
    except (OSError, subprocess.SubprocessError) as e:
        return Probe(False, f"bwrap could not start: {e}")
    if r.returncode != 0:
        why = (r.stderr.strip().splitlines() or ["no message"])[-1]
        hint = ("" if os.geteuid() == 0 and as_root else
                " (unprivileged user namespaces disabled? see "
                "/proc/sys/kernel/unprivileged_userns_clone or "
                "/proc/sys/user/max_user_namespaces)")
        return Probe(False, f"bwrap refused to start a sandbox: {why}{hint}")
    return Probe(True)

