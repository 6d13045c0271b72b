"""A gym folder's counters (checks made, submissions graded) under file locks.

Submit-once is only a rule if two submits cannot both see "not submitted yet": MCP tools run in
worker threads, an agent can start two ``adequacy submit`` processes, so every read-modify-write
of ``state.json`` holds an exclusive ``flock`` on ``.gym/state.lock``, and a submission holds a
second lock (``.gym/submit.lock``) from its "already submitted?" test to its record, so grading
does not block checks. ``flock`` locks belong to an open file, so threads of one process exclude
each other as processes do. Writes go to a temporary file renamed over the old one: a reader
never sees half a file.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from adequacy.gym.manifest import PRIVATE


class GymState(BaseModel):
    model_config = ConfigDict(extra="forbid")

    checks: int = 0
    submissions: int = 0


def private_dir(folder: Path) -> Path:
    d = folder / PRIVATE
    d.mkdir(parents=True, exist_ok=True)
    return d


@contextlib.contextmanager
def locked(folder: Path, name: str) -> Iterator[None]:
    """Hold the exclusive lock ``.gym/<name>.lock`` of ``folder`` (blocks until free)."""
    path = private_dir(folder) / f"{name}.lock"
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def _state_path(folder: Path) -> Path:
    return folder / PRIVATE / "state.json"


def read_state(folder: Path) -> GymState:
    p = _state_path(folder)
    if not p.is_file():
        return GymState()
    try:
        return GymState.model_validate_json(p.read_text(encoding="utf-8"))
    except ValueError:
        return GymState()


def write_atomic(path: Path, text: str) -> None:
    """Write ``path`` through a temporary file in the same folder and a rename."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _write_state(folder: Path, st: GymState) -> None:
    private_dir(folder)
    write_atomic(_state_path(folder), st.model_dump_json())


def count_check(folder: Path) -> int:
    """Count one check; its number (unique in the folder while the state is not edited)."""
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
    the name is taken (a state.json edited back to 0 must not make logs overwrite each other)."""
    n = 1
    cand = path
    while True:
        try:
            fd = os.open(cand, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o644)
        except FileExistsError:
            n += 1
            cand = path.with_name(f"{path.stem}-{n}{path.suffix}")
            continue
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        return cand
