"""What a sandboxed child may see of the file system: exactly the files it needs, read-only.

The bubblewrap sandbox (``adequacy.sandbox.bwrap``) starts from an empty root; these helpers list
what to bind into it. A native harness gets its own binary and the shared libraries it links
(found by the dynamic loader itself, so the list matches what the loader will open); a JVM gets
its JDK, the JDK's configuration files that live elsewhere (Debian keeps ``conf/`` in
``/etc/java-N-openjdk``), the libraries its native parts link, and its class path. Nothing
else: no ``/etc``, no home folder, no project, no ``/usr/bin``.
"""

from __future__ import annotations

import functools
import os
import re
import struct
import subprocess
from collections.abc import Iterable
from pathlib import Path

from adequacy.sandbox.mounts import View

_LOADERS = ("/lib64/ld-linux-x86-64.so.2", "/lib/ld-linux-aarch64.so.1",
            "/lib64/ld-linux-aarch64.so.1", "/lib/ld-linux.so.2")
_LIST_LINE = re.compile(r"=>\s+(/\S+)\s+\(|^\s*(/\S+)\s+\(")


def loader() -> str | None:
    """The system's dynamic loader (run with ``--list`` it names a binary's libraries)."""
    for p in _LOADERS:
        if os.path.exists(p):
            return p
    return None


def interpreter(binary: str | Path) -> str | None:
    """The dynamic loader an ELF program names (its ``PT_INTERP``), or None: a static program,
    or not a 64-bit little-endian ELF file. Why it matters: a program with no loader needs
    none in its sandbox, so none may be executed there (the loader runs any file it can map,
    ``ld.so /tmp/x``)."""
    try:
        with open(binary, "rb") as f:
            head = f.read(64)
            if len(head) < 64 or head[:4] != b"\x7fELF" or head[4] != 2 or head[5] != 1:
                return None
            phoff, = struct.unpack_from("<Q", head, 32)
            phentsize, phnum = struct.unpack_from("<HH", head, 54)
            for i in range(min(phnum, 256)):
                f.seek(phoff + i * phentsize)
                ph = f.read(56)
                if len(ph) < 56:
                    return None
                kind, _flags, offset, _va, _pa, size = struct.unpack_from("<IIQQQQ", ph)
                if kind == 3:  # PT_INTERP
                    f.seek(offset)
                    return f.read(min(size, 4096)).split(b"\0")[0].decode("utf-8", "replace")
    except OSError:
        return None
    return None


def linked_libraries(*binaries: str | Path) -> set[str]:
    """Absolute paths of the loader and every library the binaries link (transitively).

    The loader's ``--list`` mode maps the libraries without running any of their code; the
    result names the paths the loader found, which is where the sandboxed loader will look.
    Several binaries are listed in one (sandboxed) shell loop: one start instead of dozens.
    """
    ld = loader()
    sh = "/bin/sh" if os.path.exists("/bin/sh") else None
    if ld is None or not binaries:
        return set()
    files = [str(b) for b in binaries]
    if len(files) == 1 or sh is None:
        cmds = [[ld, "--list", f] for f in files]
    else:
        cmds = [[sh, "-c", 'for f; do "$0" --list "$f"; done', ld, *files]]
    from adequacy.sandbox import bwrap  # the binary may be untrusted: list it contained too

    binary = bwrap.bwrap_path()
    found = {ld}
    for cmd in cmds:
        if binary and bwrap.probe(True).ok:
            cmd = bwrap.command(cmd, cwd=None, view=View(ro=tuple(files), system=True),
                                network=False, tmp_mb=1, bwrap=binary)
        try:
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=60,
                               env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"})
        except (OSError, subprocess.SubprocessError):
            continue
        for line in r.stdout.splitlines():
            m = _LIST_LINE.search(line)
            if m:
                found.add(os.path.normpath(m.group(1) or m.group(2)))
    return {p for p in found if os.path.exists(p)}


def _with_targets(paths: Iterable[str]) -> set[str]:
    """Each path plus the real file behind it (a symlinked library needs both)."""
    out: set[str] = set()
    for p in paths:
        out.add(p)
        real = os.path.realpath(p)
        if real != p:
            out.add(real)
    return out


@functools.lru_cache(maxsize=64)
def _native_view(binary: str, mtime: float) -> tuple[str, ...]:
    libs = linked_libraries(binary)
    if interpreter(binary) is None and libs <= {loader()}:
        return ()  # a static program: no loader, no library
    return tuple(sorted(_with_targets(libs)))


def libraries(binary: str | Path) -> View:
    """The libraries a native program links (not the program itself)."""
    b = str(Path(binary).resolve())
    try:
        mtime = os.stat(b).st_mtime
    except OSError:
        mtime = 0.0
    return View(ro=_native_view(b, mtime))


def native(binary: str | Path) -> View:
    """A native program: its binary and the libraries it links."""
    return libraries(binary).plus(ro=[Path(binary).resolve()])


def _outside_links(home: Path, subdirs: Iterable[str]) -> set[str]:
    """Targets of symlinks inside an installation that point outside it (its config in /etc)."""
    out: set[str] = set()
    root = str(home)
    for sub in subdirs:
        for dirpath, dirnames, filenames in os.walk(home / sub):
            for name in dirnames + filenames:
                p = os.path.join(dirpath, name)
                if not os.path.islink(p):
                    continue
                real = os.path.realpath(p)
                if not real.startswith(root + os.sep) and os.path.exists(real):
                    out.add(real)
    return out


@functools.lru_cache(maxsize=16)
def _installation(home: str, link_dirs: tuple[str, ...], natives: tuple[str, ...]
                  ) -> tuple[str, ...]:
    paths: set[str] = {home}
    paths |= _outside_links(Path(home), link_dirs)
    libs = linked_libraries(*(n for n in natives if os.path.isfile(n) and not os.path.islink(n)))
    paths |= {p for p in _with_targets(libs) if not p.startswith(home + os.sep)}
    return tuple(sorted(paths))


def installation(home: str | Path, link_dirs: Iterable[str] = (),
                 natives: Iterable[str | Path] = ()) -> View:
    """A runtime installed in one folder (a JDK, an interpreter's prefix): the folder itself,
    the targets of symlinks under ``link_dirs`` that leave it (configuration kept in /etc), and
    the system libraries its ``natives`` (launcher, shared objects) link. Remembered per
    folder: walking a JDK costs tens of milliseconds."""
    return View(ro=_installation(str(home), tuple(link_dirs), tuple(str(n) for n in natives)))


def toolchain(*ro: str | Path, rw: Iterable[str | Path] = ()) -> View:
    """A trusted tool chain (cargo): all of /usr read-only plus the given folders."""
    return View(ro=tuple(str(p) for p in ro), rw=tuple(str(p) for p in rw), system=True)


def tool(executable: str, *extra: str | Path) -> View:
    """A trusted external verifier (verus, openjml) that checks spec text without running it:
    all of /usr read-only, the folder it is installed in (its release bundles its solvers and
    libraries) and ``extra`` folders (a rustup tool chain, a JDK outside /usr)."""
    real = Path(os.path.realpath(executable))
    install = real.parent.parent if real.parent.name == "bin" else real.parent
    paths = [str(install), executable, *(str(p) for p in extra if p and os.path.exists(p))]
    return View(ro=tuple(paths), system=True)
