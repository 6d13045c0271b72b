"""A gym folder's counters (checks made, submissions graded): the grader's ledger.

The counters decide whether ``submit`` grades, so they are the grader's, not the folder's: a
``state.json`` inside the folder could be edited, deleted or rolled back by anything that writes
there (an agent with a shell), and a second graded submission is then an oracle on the hidden
cases. The ledger lives in the grader's private folder (``adequacy.scoring.trust.grader_home()/gym``),
one entry per sealed folder id (``GymManifest.folder_id``: a copy of the folder is the same
folder); a folder whose manifest is not sealed here (made elsewhere, edited) is counted under
its resolved path, and ``submit`` refuses it anyway.

Submit-once is only a rule if two submits cannot both see "not submitted yet": MCP tools run in
worker threads, an agent can start two ``adequacy submit`` processes, so every
read-modify-write of an entry holds an exclusive ``flock`` on the entry's ``.lock``, and a
submission holds a second lock (``.submit.lock``) from its "already submitted?" test to its
record, so grading does not block checks. ``flock`` locks belong to an open file, so threads of
one process exclude each other as processes do. Writes go to a temporary file renamed over the
old one: a reader never sees half a file.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import re
import tempfile
from collections.abc import Iterator
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from adequacy.errors import TrustError
from adequacy.gym.manifest import PRIVATE, manifest_sealed, read_manifest
from adequacy.scoring import trust

_ID = re.compile(r"^[0-9a-f]{32}$")


class GymState(BaseModel):
    model_config = ConfigDict(extra="forbid")

    checks: int = 0
    submissions: int = 0


def private_dir(folder: Path) -> Path:
    """The folder's ``.gym/`` (logs, the visible-only task copy): never the ledger."""
    d = folder / PRIVATE
    d.mkdir(parents=True, exist_ok=True)
    return d


def ledger_dir() -> Path:
    """``grader_home()/gym``, made private if missing; ``TrustError`` when it cannot be."""
    trust.private_folder(trust.grader_home())
    return trust.private_folder(trust.grader_home() / "gym")


def entry_name(folder: Path) -> str:
    """The folder's name in the ledger: its sealed id, else a hash of its resolved path."""
    m = read_manifest(folder)
    if _ID.match(m.folder_id) and manifest_sealed(m):
        return m.folder_id
    return "path-" + hashlib.sha256(str(folder.resolve()).encode()).hexdigest()[:32]


@contextlib.contextmanager
def locked(folder: Path, name: str) -> Iterator[None]:
    """Hold the ledger's exclusive lock ``<entry>.<name>.lock`` of ``folder`` (blocks until
    free)."""
    path = ledger_dir() / f"{entry_name(folder)}.{name}.lock"
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def _state_path(folder: Path) -> Path:
    return ledger_dir() / f"{entry_name(folder)}.json"


def read_state(folder: Path) -> GymState:
    p = _state_path(folder)
    if not p.is_file():
        return GymState()
    try:
        return GymState.model_validate_json(p.read_text(encoding="utf-8"))
    except (ValidationError, ValueError) as e:
        # the ledger is ours alone: a broken entry is a fault to report, never a fresh start
        raise TrustError(f"{p}: the gym ledger entry is unreadable ({e}); it is not "
                               "reset automatically (that would allow a second submission)"
                               ) from None


def write_atomic(path: Path, text: str, mode: int = 0o644) -> None:
    """Write ``path`` through a temporary file in the same folder and a rename."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _write_state(folder: Path, st: GymState) -> None:
    write_atomic(_state_path(folder), st.model_dump_json(), 0o600)


def count_check(folder: Path) -> int:
    """Count one check; its number (unique in the folder)."""
    with locked(folder, "state"):
        st = read_state(folder)
        st.checks += 1
        _write_state(folder, st)
        return st.checks


def count_submission(folder: Path) -> GymState:
    """Count one submission (call it holding the ``submit`` lock); the state after it."""
    with locked(folder, "state"):
        st = read_state(folder)
        st.submissions += 1
        _write_state(folder, st)
        return st


def create_exclusive(path: Path, text: str) -> Path:
    """Write a new file at ``path``, or at ``path`` with ``-2``, ``-3``... before its suffix when
    the name is taken (a folder copied elsewhere keeps its old logs: they are never
    overwritten)."""
    n = 1
    cand = path
    while True:
        try:
            fd = os.open(cand, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC
                         | os.O_NOFOLLOW, 0o644)
        except FileExistsError:
            n += 1
            cand = path.with_name(f"{path.stem}-{n}{path.suffix}")
            continue
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        return cand
