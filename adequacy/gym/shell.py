"""An agent's shell commands, run in our sandbox with only its gym folder in sight.

Agents that work through a shell (the way Verus-SpecGym ran SWE-Agent) must not be able to read
the source task (its path is in ``gym.json``, its hidden cases beside it), write outside their
folder, reach the network or leave a process behind. A plain shell gives all four away.

Why a working copy and not a bind of the folder itself: the gym's own state (``gym.json``, the
submit-once record and the logs under ``.gym/``) sits in the same folder, and a child that could
rewrite ``gym.json`` could point ``submit`` at a task of its own making. The agent's files are
copied into a private folder, the command runs there, and what it left is copied back: regular
files only (a symlink made inside is dropped, so nothing written back points outside), within a
size budget, never the manifest or ``.gym/``. Commands on one folder run one at a time (a lock in
``.gym/``), so two shells cannot interleave half-synced copies.

What the child sees besides its copy: the system's ``/usr`` and ``/lib*`` read-only, any
``extra_ro`` folder the user names, the gym's ``adequacy`` stand-in (``check`` and ``submit``
run by ``adequacy.gym.broker`` outside the sandbox) and a private memory-backed ``/tmp``; never
a folder because it is on ``PATH``, and no bind that holds a source task, a gym folder's own
files or the grader's (``adequacy.gym.shell_view``). No network, a new PID namespace (every
process dies with the command), and the sandbox's rlimits (memory, CPU, processes, file size).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from adequacy import sandbox
from adequacy.errors import ShellError, ViewRefused
from adequacy.gym.broker import Broker
from adequacy.gym.manifest import PRIVATE, read_manifest
from adequacy.gym.private import agent_entries, is_private
from adequacy.gym.shell_view import shell_view, withheld_for
from adequacy.sandbox import bwrap, exec_lock

MAX_FOLDER_BYTES = 64 * 1024 * 1024
"""What a gym folder may hold, in the copy and in what comes back."""
MAX_FILES = 10_000
MAX_WORK_BYTES = 4 * MAX_FOLDER_BYTES
"""What the working copy may grow to while a command runs (it lives on the host's disk): past
it the command is killed. Checked four times a second, so a fast writer can overshoot by what
it writes in that time (each file is capped at 64 MiB by the sandbox's limits); a bound, not a
quota: a size-capped file system for the copy would be exact (docs/gym.md)."""
DEFAULT_TIMEOUT = 60.0
MAX_OUTPUT = 1024 * 1024


@dataclass
class ShellResult:
    returncode: int | None
    stdout: str
    stderr: str
    seconds: float
    timed_out: bool = False
    output_truncated: bool = False
    notes: list[str] = field(default_factory=list)
    """What was not copied back, and why (symlinks, files past the budget)."""

    def text(self) -> str:
        """The result as one text for a model: output, then what went wrong."""
        parts = []
        if self.stdout:
            parts.append(self.stdout.rstrip("\n"))
        if self.stderr:
            parts.append("[stderr]\n" + self.stderr.rstrip("\n"))
        if self.timed_out:
            parts.append(f"[killed after {self.seconds:.0f} s: the time limit]")
        if self.output_truncated:
            parts.append(f"[output cut at {MAX_OUTPUT} bytes per stream]")
        parts += [f"[{n}]" for n in self.notes]
        code = "killed" if self.returncode is None or self.returncode < 0 else self.returncode
        parts.append(f"[exit {code}]")
        return "\n".join(parts)


def _agent_files(root: Path) -> Iterator[tuple[Path, Path]]:
    """The entries the gym's one rule of what is private (``adequacy.gym.private``) gives the
    agent."""
    return agent_entries(root)


def _copy_in(folder: Path, work: Path) -> None:
    """Copy the agent's files into ``work``. Under root the child runs as an unprivileged uid
    of its own, so each copy is made writable by it as it is made (the folder itself is handed
    over by the sandbox)."""
    total = 0
    hand_over = os.geteuid() == 0
    for n, (rel, src) in enumerate(_agent_files(folder)):
        if n >= MAX_FILES:
            raise ShellError(f"{folder} holds more than {MAX_FILES} files")
        dst = work / rel
        if src.is_symlink():
            continue  # gym make writes none; one made since is not followed into the copy
        if src.is_dir():
            dst.mkdir(exist_ok=True)
            if hand_over:
                os.chmod(dst, 0o777)
        elif src.is_file():
            total += src.stat().st_size
            if total > MAX_FOLDER_BYTES:
                raise ShellError(f"{folder} holds more than {MAX_FOLDER_BYTES >> 20} MiB")
            shutil.copyfile(src, dst)
            shutil.copymode(src, dst)
            if hand_over:
                os.chmod(dst, os.stat(dst).st_mode | 0o666)


def _copy_back(work: Path, folder: Path) -> list[str]:
    """Make the agent's part of ``folder`` what the command left in ``work``."""
    notes: list[str] = []
    kept: set[Path] = set()
    total = 0
    for n, (rel, src) in enumerate(_agent_files(work)):
        if is_private(rel):
            notes.append(f"not copied back: {rel} (the gym's own file)")
            continue
        if n >= MAX_FILES:
            notes.append(f"not copied back: files past the first {MAX_FILES}")
            break
        dst = folder / rel
        if src.is_symlink():
            notes.append(f"not copied back: {rel} is a symbolic link")
            continue
        if src.is_dir():
            if dst.is_symlink() or (dst.exists() and not dst.is_dir()):
                dst.unlink()
            dst.mkdir(exist_ok=True)
            kept.add(rel)
        elif src.is_file():
            size = src.stat().st_size
            if total + size > MAX_FOLDER_BYTES:
                notes.append(f"not copied back: {rel} (past {MAX_FOLDER_BYTES >> 20} MiB)")
                continue
            total += size
            if dst.is_dir() and not dst.is_symlink():
                shutil.rmtree(dst)
            elif dst.is_symlink():
                dst.unlink()
            if not (dst.is_file() and _same(src, dst)):
                # a fresh name: one the command chose (a folder named like it) cannot collide
                fd, name = tempfile.mkstemp(dir=dst.parent, prefix=".shell-tmp-")
                os.close(fd)
                tmp = Path(name)
                shutil.copyfile(src, tmp)
                os.chmod(tmp, src.stat().st_mode & 0o755 | 0o600)
                os.replace(tmp, dst)
            kept.add(rel)
    # what the command deleted goes too (deepest first, so folders are empty when removed)
    for rel, path in sorted(_agent_files(folder), key=lambda x: -len(x[0].parts)):
        if rel in kept or is_private(rel):
            continue
        if (work / rel).is_symlink() or (work / rel).exists():
            continue  # present but not copied (a link, past the budget): leave the old one
        if path.is_dir() and not path.is_symlink():
            with contextlib.suppress(OSError):
                path.rmdir()
        else:
            path.unlink(missing_ok=True)
    return notes


def _same(a: Path, b: Path) -> bool:
    if a.stat().st_size != b.stat().st_size:
        return False
    return a.read_bytes() == b.read_bytes()


def _grows_past(work: Path, limit: int) -> Callable[[], str | None]:
    def check() -> str | None:
        total = 0
        stack = [str(work)]
        seen = 0
        while stack:
            try:
                entries = list(os.scandir(stack.pop()))
            except OSError:
                continue
            for e in entries:
                seen += 1
                if seen > 4 * MAX_FILES:
                    return f"killed: the folder grew past {4 * MAX_FILES} entries"
                try:
                    if e.is_dir(follow_symlinks=False):
                        stack.append(e.path)
                    elif e.is_file(follow_symlinks=False):
                        total += e.stat(follow_symlinks=False).st_blocks * 512
                except OSError:
                    continue
        return (f"killed: the folder grew past {limit >> 20} MiB while the command ran"
                if total > limit else None)
    return check


@contextlib.contextmanager
def _one_at_a_time(folder: Path) -> Iterator[None]:
    lock = folder / PRIVATE / "shell.lock"
    lock.parent.mkdir(exist_ok=True)
    with open(lock, "a") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def available() -> str | None:
    """None when the shell can run here, else why not: without bubblewrap nothing would hide
    the rest of the machine, so the shell refuses rather than run unconfined."""
    if bwrap.bwrap_path() is None:
        return "the gym shell needs bubblewrap: apt-get install -y bubblewrap"
    probe = bwrap.probe(False)
    if not probe.ok:
        return f"the gym shell needs a working bubblewrap: {probe.reason}"
    return None


def run_shell(folder: Path, argv: Sequence[str], *, timeout: float = DEFAULT_TIMEOUT,
              extra_ro: Sequence[str | Path] = (),
              limits: sandbox.SandboxLimits | None = None,
              withheld: Sequence[Path] = (), gym_tools: bool = True) -> ShellResult:
    """Run ``argv`` in a sandboxed copy of the gym folder and keep what it changed.

    ``withheld``: more gym folders whose files and source tasks no bind may hold (an MCP
    server passes every folder it serves). ``gym_tools``: offer ``adequacy check`` and
    ``adequacy submit`` inside (``adequacy.gym.broker``)."""
    if not argv:
        raise ShellError("no command given")
    if not timeout > 0:  # also NaN (a model's JSON may carry one): no time limit is no limit
        raise ShellError(f"the time limit must be positive, not {timeout}")
    folder = folder.resolve()
    read_manifest(folder)  # refuse a folder gym make did not write
    why = available()
    if why:
        raise ShellError(why)
    python = exec_lock.python()
    with _one_at_a_time(folder):
        work = sandbox.make_workdir("adequacy-shell-")
        try:
            with contextlib.ExitStack() as stack:
                broker = None
                if gym_tools and python is not None:
                    broker = stack.enter_context(Broker(folder, work, python[0]))
                try:
                    sv = shell_view(extra_ro, withheld_for(folder, withheld),
                                    (str(broker.dir), str(broker.bin)) if broker else None)
                except ViewRefused as e:
                    raise ShellError(str(e)) from None
                _copy_in(folder, work)
                cmd = list(argv)
                if "/" not in cmd[0]:  # the command's PATH decides, never ours
                    cmd[0] = shutil.which(cmd[0], path=sv.path) or cmd[0]
                env = {"PATH": sv.path, "HOME": "/tmp", "LANG": "C.UTF-8", "PWD": str(work),
                       **(broker.env if broker else {})}
                r = sandbox.run_limited(
                    cmd, cwd=work, timeout=timeout, max_output=MAX_OUTPUT,
                    limits=limits or sandbox.SandboxLimits(cpu_seconds=int(timeout) + 5),
                    env=env, view=sv.view, stop_when=_grows_past(work, MAX_WORK_BYTES))
            notes = r.notes + _copy_back(work, folder)
        finally:
            sandbox.remove_tree(work)
    return ShellResult(returncode=r.returncode, stdout=r.stdout.decode("utf-8", "replace"),
                       stderr=r.stderr.decode("utf-8", "replace"), seconds=r.seconds,
                       timed_out=r.timed_out, output_truncated=r.output_truncated, notes=notes)
