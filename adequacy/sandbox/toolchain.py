"""Where built artefacts live, which JDK runs them, and when a build is stale.

Every engine that compiles something (the rac worker, the KeY worker jar, exec_spec harnesses
and the vstd target directory) needs the same three answers; one module gives them so that a
user's ``XDG_CACHE_HOME`` or ``JAVA_HOME`` is honoured by all engines alike.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import stat
import subprocess
import tempfile
from collections.abc import Iterable
from pathlib import Path

from adequacy.errors import BackendError


def cache_dir(shared_with_sandbox: bool = False) -> Path:
    """``$ADEQUACY_CACHE``, else ``$XDG_CACHE_HOME/spec-adequacy``, else
    ``~/.cache/spec-adequacy``.

    ``shared_with_sandbox``: the folder will be read by sandboxed children that run as an
    unprivileged user (the JVM workers under root). Such a user cannot enter ``/root``, so
    under root a private folder in the temporary directory is used instead (one per
    ``ADEQUACY_CACHE``, so that a fresh cache is fresh for the workers too), and refused if
    someone else made it (it would let them plant classes our workers load).
    """
    env = os.environ.get("ADEQUACY_CACHE")
    if env:
        root = Path(env)
    else:
        xdg = os.environ.get("XDG_CACHE_HOME")
        root = (Path(xdg) if xdg else Path.home() / ".cache") / "spec-adequacy"
    _refuse_open(root)
    if shared_with_sandbox and os.geteuid() == 0 and not world_traversable(root):
        # one such folder per cache root: a fresh ADEQUACY_CACHE (CI proving a first install)
        # must not find the Java workers that another cache root built
        name = "spec-adequacy-cache-0"
        if env:
            name += "-" + hashlib.sha256(str(root.resolve()).encode()).hexdigest()[:12]
        root = Path(tempfile.gettempdir()) / name
        _refuse_squatted(root)
    return root


def world_traversable(path: Path) -> bool:
    """Whether every folder up to ``path`` lets others through (a child running as another
    uid can reach it)."""
    for p in [path, *path.parents]:
        try:
            if p.exists() and not (p.stat().st_mode & stat.S_IXOTH):
                return False
        except OSError:
            return False
    return True


def _refuse_open(root: Path) -> None:
    """What is built in the cache folder is run (exec_spec harnesses, JVM workers and their
    class archives, compiled judges): a folder another user owns or may write into would let
    them replace it, and with it the verdicts. Its verdict file is authenticated
    (``adequacy.scoring.cache``); the folder itself must be ours and closed to others' writes."""
    try:
        st = root.stat()
    except OSError:
        return  # made by us when first needed
    if st.st_uid != os.geteuid():
        why = f"belongs to uid {st.st_uid}, not to us (uid {os.geteuid()})"
    elif st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        why = f"is writable by other users (mode {stat.S_IMODE(st.st_mode):o})"
    else:
        return
    raise BackendError(f"the cache folder {root} {why}: what is built there could be "
                       "replaced by someone else; use a folder of your own (chmod go-w it, or "
                       "set ADEQUACY_CACHE)")


def _refuse_squatted(root: Path) -> None:
    try:
        st = root.lstat()
    except FileNotFoundError:
        return
    if (not stat.S_ISDIR(st.st_mode) or st.st_uid != os.geteuid()
            or st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)):
        raise BackendError(f"{root} is not a folder owned by uid {os.geteuid()} and closed to "
                           "other users' writes; remove it or set ADEQUACY_CACHE")


def source_version(files: Iterable[Path], base: Path | None = None, *extra: str) -> str:
    """16 hex digits naming the content of ``files`` (paths relative to ``base`` included, so a
    rename counts) plus ``extra`` strings such as the compiler used: a build directory named by
    it is rebuilt exactly when its sources change."""
    h = hashlib.sha256()
    for p in sorted(files):
        h.update(str(p.relative_to(base) if base else p.name).encode())
        h.update(b"\0")
        h.update(p.read_bytes())
    for e in extra:
        h.update(b"\0")
        h.update(e.encode())
    return h.hexdigest()[:16]


_PROBES = "tool-versions.json"


def _stat_of(path: Path) -> str:
    try:
        s = path.stat()
    except OSError:
        return "-"
    return f"{s.st_ino}:{s.st_size}:{s.st_mtime_ns}"


def tool_version(cmd: str, args: tuple[str, ...] = ("--version",),
                 depends_on: Iterable[Path] = (), env: Iterable[str] = ()) -> str:
    """``cmd --version``'s first output line, remembered on disk while the binary is the same.

    A version feeds the verdict cache's key, so it is asked on every run; spawning the tool
    for it (``rustc --version``: 15-50 ms) made a verdict cache hit start a process. The answer
    is kept in the cache folder under a key made of the binary's real path and its inode,
    size and modification time, of ``depends_on`` (files whose change can change the answer,
    e.g. rustup's settings and toolchains for a rustup proxy) and of the environment variables
    named in ``env``: replacing or upgrading the tool changes the key and asks again.
    "" when the tool cannot be run (not cached, so that installing it is seen at once)."""
    found = shutil.which(cmd)
    if found is None:
        return ""
    real = Path(found).resolve()
    key = "\0".join([str(real), _stat_of(real), *(f"{p}={_stat_of(p)}" for p in depends_on),
                     *(f"{v}={os.environ.get(v, '')}" for v in env), *args])
    key = hashlib.sha256(key.encode()).hexdigest()
    memo = cache_dir() / _PROBES
    try:
        known = json.loads(memo.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        known = {}
    if not isinstance(known, dict):
        known = {}
    hit = known.get(key)
    if isinstance(hit, str) and hit:
        return hit
    try:
        out = subprocess.run([found, *args], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return ""
    text = (out.stdout.strip() or out.stderr.strip()).splitlines()
    version = text[0] if out.returncode == 0 and text else ""
    if version:
        known[key] = version
        with contextlib.suppress(OSError):  # a memo we cannot write costs one process
            memo.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=memo.parent, prefix=".tool-versions.")
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(known, f)
            os.replace(tmp, memo)
    return version
