"""How this installation tells what its own grader wrote from what anyone else wrote.

A score is a reward: whoever can write a file the grader reads back (the verdict cache, a
results file, a gym folder's state) could otherwise write the score. The grader therefore
authenticates what it writes with a secret key of this installation and believes, of what it
reads back, only what carries a valid tag under that key (docs/sandbox.md, "Trust").

The key lives in the grader's private folder (``grader_home``): ``$ADEQUACY_GRADER_HOME``, else
``$XDG_STATE_HOME/spec-adequacy/grader``, else ``~/.local/state/spec-adequacy/grader``; made on
first use, mode 0700, holding ``grader.key`` (32 random bytes, mode 0600). It is kept apart
from the cache folder on purpose: whoever can write the cache must not also be able to replace
the key that vouches for it. Nothing that runs untrusted code sees that folder: sandboxed
engines and the gym shell bind only what they need (and the shell refuses a bind that holds it),
MCP tools read only inside a task folder, and under root sandboxed children run as another uid.

Each use derives its own key (``domain``), so a tag made for a cache row can never pass as the
seal of a results record or of a gym manifest.
"""

from __future__ import annotations

import contextlib
import functools
import hmac
import os
import stat
import threading
from pathlib import Path

from adequacy.errors import TrustError

ENV = "ADEQUACY_GRADER_HOME"
KEY_FILE = "grader.key"
KEY_BYTES = 32
TAG_CHARS = 64
"""A tag is HMAC-SHA256 in hex."""


def grader_home() -> Path:
    """The grader's private folder (not created here)."""
    env = os.environ.get(ENV)
    if env:
        return Path(env).expanduser()
    state = os.environ.get("XDG_STATE_HOME")
    base = Path(state) if state else Path.home() / ".local" / "state"
    return base / "spec-adequacy" / "grader"


def private_folder(path: Path) -> Path:
    """``path`` made if missing (mode 0700) and checked: a real folder of ours that nobody else
    can write into, below a parent nobody else can swap it out of. Returns it; ``TrustError``
    naming the fix otherwise."""
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        st = path.lstat()
    except OSError as e:
        raise TrustError(f"{path}: cannot make the grader's private folder: "
                         f"{e.strerror or e}") from None
    if not stat.S_ISDIR(st.st_mode):
        raise TrustError(f"{path}: the grader's private folder is not a folder (a symlink or a "
                         f"file); remove it or set {ENV}")
    if st.st_uid != os.geteuid():
        raise TrustError(f"{path}: the grader's private folder belongs to uid {st.st_uid}, not "
                         f"to us (uid {os.geteuid()}); remove it or set {ENV}")
    if st.st_mode & 0o077:
        raise TrustError(f"{path}: the grader's private folder is open to other users "
                         f"(mode {stat.S_IMODE(st.st_mode):o}); chmod 700 it")
    try:
        pst = path.parent.stat()
    except OSError as e:
        raise TrustError(f"{path.parent}: {e.strerror or e}") from None
    if pst.st_mode & (stat.S_IWGRP | stat.S_IWOTH) and not pst.st_mode & stat.S_ISVTX:
        raise TrustError(f"{path.parent}: others may write into the folder above the grader's "
                         f"private folder (and replace it); chmod go-w it or set {ENV}")
    return path


_lock = threading.Lock()
_keys: dict[str, bytes] = {}


def grader_key() -> bytes:
    """This installation's secret key, made on first use (two processes making it at once agree
    on one: the file is linked into place, never overwritten). ``TrustError`` when the folder
    or the file is unsafe."""
    home = grader_home()
    where = str(home)
    with _lock:
        got = _keys.get(where)
        if got is not None:
            return got
        private_folder(home)
        path = home / KEY_FILE
        key = _read_key(path)
        if key is None:
            key = _make_key(home, path)
        _keys[where] = key
        return key


def _read_key(path: Path) -> bytes | None:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except FileNotFoundError:
        return None
    except OSError as e:
        raise TrustError(f"{path}: cannot read the grader key: {e.strerror or e} (a symlink "
                         "is refused)") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_uid != os.geteuid() or st.st_mode & 0o077:
            raise TrustError(f"{path}: the grader key must be a file of ours that only we can "
                             f"read (mode 600); it is mode {stat.S_IMODE(st.st_mode):o}, uid "
                             f"{st.st_uid}: remove it (a new key is made; what the old one "
                             "sealed then reads as unverified)")
        data = os.read(fd, KEY_BYTES + 1)
    finally:
        os.close(fd)
    if len(data) != KEY_BYTES:
        raise TrustError(f"{path}: the grader key has {len(data)} bytes, not {KEY_BYTES}; "
                         "remove it to make a new one")
    return data


def _make_key(home: Path, path: Path) -> bytes:
    tmp = home / f".{KEY_FILE}.{os.getpid()}.{threading.get_ident()}"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                 0o600)
    try:
        os.write(fd, os.urandom(KEY_BYTES))
        os.fsync(fd)
    finally:
        os.close(fd)
    try:
        os.link(tmp, path)  # fails when another process made the key first: use theirs
    except FileExistsError:
        pass
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
    key = _read_key(path)
    if key is None:
        raise TrustError(f"{path}: the grader key vanished while it was made")
    return key


@functools.lru_cache(maxsize=32)
def _domain_key(key: bytes, domain: str) -> bytes:
    return hmac.digest(key, b"spec-adequacy/" + domain.encode(), "sha256")


def tag(domain: str, payload: bytes) -> str:
    """The tag this installation's grader puts on ``payload`` for ``domain``."""
    return hmac.digest(_domain_key(grader_key(), domain), payload, "sha256").hex()


def tagger(domain: str) -> tuple[bytes, str]:
    """The derived key of ``domain`` (for callers that tag many rows in a loop) and the
    digest name: ``hmac.digest(k, payload, name).hex()`` is ``tag(domain, payload)``."""
    return _domain_key(grader_key(), domain), "sha256"


def genuine(domain: str, payload: bytes, claimed: object) -> bool:
    """Whether ``claimed`` is this installation's tag on ``payload`` (constant-time compare).
    False, never an exception, for a missing or malformed tag or when the key is unusable."""
    if not isinstance(claimed, str) or len(claimed) != TAG_CHARS:
        return False
    try:
        want = tag(domain, payload)
    except TrustError:
        return False
    return hmac.compare_digest(want, claimed)


def usable() -> str | None:
    """None when the grader key can be had, else why not (for a warning)."""
    try:
        grader_key()
    except TrustError as e:
        return str(e)
    return None


__all__ = ["ENV", "TrustError", "genuine", "grader_home", "grader_key", "private_folder", "tag",
           "tagger", "usable"]
