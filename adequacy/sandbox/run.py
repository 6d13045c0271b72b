"""Limited child processes for untrusted code (docs/sandbox.md).

Spec code compiled to native harnesses or loaded into JVM workers came from a language model.
Two layers contain it:

1. bubblewrap (``adequacy.sandbox.bwrap``), when it runs here: an empty root holding only the
   files the child needs, read-only (``adequacy.sandbox.views``: its binary and linked
   libraries, or its JDK and class path) and its working folder; a private size-capped
   ``/tmp``; new PID, network, IPC, UTS and user namespaces; no capabilities; killed with us.
2. always, inside it: its own session (a timeout kills the process group), CPU, address-space,
   file-size, open-file and process limits, a parent-death signal, captured output capped
   (with bubblewrap and Landlock, ``adequacy.sandbox.exec_lock``: Landlock and a seccomp filter so
   that no other program starts), and under root an unprivileged user id so that the process limit and file permissions bite; when
   bubblewrap is missing, a private network namespace where the kernel allows one.

What could be applied is reported by ``protections()`` (``adequacy backends`` prints it), so a
machine without bubblewrap or user namespaces says which protection it lacks.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import os
import random
import resource
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from adequacy.sandbox import bwrap, exec_lock, views
from adequacy.sandbox.proctree import kill_group, parent_death_signal
from adequacy.sandbox.views import View

CLONE_NEWNET = 0x40000000
PR_SET_PDEATHSIG = 1
NOBODY = 65534
#: Under root each child gets its own unused uid from this range, so that the process limit
#: (counted per uid across the machine) is this child's alone, not shared by every sandbox.
CHILD_UIDS = range(3_000_000, 3_900_000)
_uids = random.SystemRandom()


def child_uid() -> int:
    return _uids.randrange(CHILD_UIDS.start, CHILD_UIDS.stop)


@dataclass(frozen=True)
class SandboxLimits:
    """Limits of one child; ``None`` leaves a limit unset (JVMs need address space unlimited
    and use ``-Xmx`` instead)."""

    memory_mb: int | None = 2048
    cpu_seconds: int | None = 600
    file_size_mb: int | None = 64
    open_files: int | None = 256
    processes: int | None = 64
    """Only enforced for non-root users, hence the drop to an unprivileged uid under root."""
    network: bool = False
    drop_privileges: bool = True
    tmp_mb: int = 64
    """Size of the private ``/tmp`` (memory-backed) when bubblewrap runs."""


@dataclass
class RunResult:
    returncode: int | None
    stdout: bytes
    stderr: bytes
    seconds: float
    timed_out: bool = False
    output_truncated: bool = False
    notes: list[str] = field(default_factory=list)

    @property
    def signal_name(self) -> str | None:
        if self.returncode is not None and self.returncode < 0:
            try:
                return signal.Signals(-self.returncode).name
            except ValueError:
                return f"signal {-self.returncode}"
        return None


def _libc_unshare(flags: int) -> bool:
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.unshare(flags) == 0)
    except (OSError, AttributeError):
        return False


def _parent_death_signal() -> None:
    """Die with the thread that started us (the outer layer when bubblewrap is missing)."""
    parent_death_signal(signal.SIGKILL)


def _preexec(limits: SandboxLimits, wrapped: bool, cwd: str,
             nproc_inside: bool) -> Callable[[], None]:
    """Runs in the child between fork and exec; must not raise for refusals we can live with."""

    def setup() -> None:
        def lim(kind: int, value: int | None) -> None:
            if value is None:
                return
            with contextlib.suppress(ValueError, OSError):
                resource.setrlimit(kind, (value, value))

        if limits.memory_mb is not None:
            lim(resource.RLIMIT_AS, limits.memory_mb * 1024 * 1024)
        lim(resource.RLIMIT_CPU, limits.cpu_seconds)
        if limits.file_size_mb is not None:
            lim(resource.RLIMIT_FSIZE, limits.file_size_mb * 1024 * 1024)
        lim(resource.RLIMIT_NOFILE, limits.open_files)
        lim(resource.RLIMIT_CORE, 0)
        if not limits.network and not wrapped:
            _libc_unshare(CLONE_NEWNET)
        if not limits.drop_privileges and os.geteuid() == 0:
            # root keeps its uid but no capability in the sandbox: a make_workdir folder
            # (handed to an unprivileged uid) must be its own again
            with contextlib.suppress(OSError):
                if os.stat(cwd).st_uid == NOBODY or os.stat(cwd).st_uid in CHILD_UIDS:
                    os.chown(cwd, 0, 0)
        if limits.drop_privileges and os.geteuid() == 0:
            try:
                uid = child_uid()
                owner = os.stat(cwd).st_uid
                if owner == NOBODY or owner in CHILD_UIDS:  # a make_workdir folder (maybe
                    os.chown(cwd, uid, uid)  # reused by a restart): hand it over
                os.setgroups([])
                os.setgid(uid)
                os.setuid(uid)
            except OSError:
                pass
        if not nproc_inside:
            lim(resource.RLIMIT_NPROC, limits.processes)
        # last: a change of uid clears the parent-death signal (prctl(2))
        _parent_death_signal()
        if os.getppid() != parent:
            os._exit(1)  # our parent died before the signal was armed

    parent = os.getpid()
    return setup


def make_workdir(prefix: str = "adequacy-") -> Path:
    """An empty working directory the (possibly unprivileged) child can write to."""
    d = Path(tempfile.mkdtemp(prefix=prefix))
    if os.geteuid() == 0:
        with contextlib.suppress(OSError):
            os.chown(d, NOBODY, NOBODY)
    return d


def clean_env(extra: Mapping[str, str] | None = None, keep: Iterable[str] = ()) -> dict[str, str]:
    """A minimal environment: the child sees no tokens or keys of ours. ``keep``: variables of
    ours a tool needs (a backend names its own, e.g. where its runtime is installed)."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8", "HOME": "/tmp"}
    env.update({k: os.environ[k] for k in keep if k in os.environ})
    env.update(extra or {})
    return env


def _as_root(limits: SandboxLimits) -> bool:
    return os.geteuid() == 0 and not limits.drop_privileges


def wrap(cmd: Sequence[str], cwd: Path | str, limits: SandboxLimits,
         view: View | None) -> tuple[list[str], bool, bool]:
    """(the command to start, whether bubblewrap wraps it, whether the launcher inside sets
    the process limit).

    ``view`` is what the child may see besides its working folder; ``None`` means its own
    binary and the libraries that binary links.
    """
    binary = bwrap.bwrap_path()
    if binary is None or not bwrap.probe(_as_root(limits)).ok:
        return list(cmd), False, False
    exe = shutil.which(cmd[0]) or cmd[0]
    cmd = [exe, *cmd[1:]]
    if view is None:
        view = views.native(exe)
    launched = not view.system and exec_lock.available() is None
    if launched:
        prefix, needs = exec_lock.launcher(exe, limits.processes)
        cmd = [*prefix, *cmd]
        view = view.plus(ro=needs)
    full = bwrap.command(cmd, cwd=str(cwd), view=view, network=limits.network,
                         tmp_mb=limits.tmp_mb, bwrap=binary)
    return full, True, launched


def popen_limited(
    cmd: Sequence[str], *, cwd: Path | str, limits: SandboxLimits = SandboxLimits(),
    env: Mapping[str, str] | None = None, stdin: int | None = subprocess.PIPE,
    stderr: int | None = subprocess.PIPE, view: View | None = None,
) -> subprocess.Popen[bytes]:
    """Start a limited child in its own session (for persistent workers)."""
    argv, wrapped, launched = wrap(cmd, cwd, limits, view)
    return subprocess.Popen(
        argv, cwd=str(cwd), env=dict(env) if env is not None else clean_env(),
        stdin=stdin, stdout=subprocess.PIPE, stderr=stderr,
        preexec_fn=_preexec(limits, wrapped, str(cwd), launched), start_new_session=True, close_fds=True,
    )


def run_limited(
    cmd: Sequence[str], *, cwd: Path | str, timeout: float, input: bytes | None = None,
    limits: SandboxLimits = SandboxLimits(), env: Mapping[str, str] | None = None,
    max_output: int = 8 * 1024 * 1024, view: View | None = None,
    stop_when: Callable[[], str | None] | None = None,
) -> RunResult:
    """Run a limited child to completion; kill its process group at the wall-clock timeout.

    Output beyond ``max_output`` bytes per stream is discarded (the child keeps running, so a
    chatty child cannot block on a full pipe nor fill our memory). ``stop_when`` is asked
    four times a second: a reason it returns kills the child and lands in ``notes``.
    """
    start = time.monotonic()
    proc = popen_limited(cmd, cwd=cwd, limits=limits, env=env, view=view)
    bufs: dict[str, bytearray] = {"out": bytearray(), "err": bytearray()}
    truncated = {"flag": False}

    def pump(stream: object, key: str) -> None:
        assert hasattr(stream, "read")
        while True:
            chunk = stream.read(65536)
            if not chunk:
                break
            room = max_output - len(bufs[key])
            if room > 0:
                bufs[key] += chunk[:room]
            if len(chunk) > room:
                truncated["flag"] = True

    threads = [threading.Thread(target=pump, args=(proc.stdout, "out"), daemon=True),
               threading.Thread(target=pump, args=(proc.stderr, "err"), daemon=True)]
    for t in threads:
        t.start()
    if proc.stdin is not None:
        try:
            if input:
                proc.stdin.write(input)
            proc.stdin.close()
        except (BrokenPipeError, OSError):
            pass
    timed_out = False
    notes: list[str] = []
    deadline = start + timeout
    while True:
        try:
            proc.wait(timeout=max(0.0, min(0.25, deadline - time.monotonic()))
                      if stop_when is not None else timeout)
            break
        except subprocess.TimeoutExpired:
            why = stop_when() if stop_when is not None else None
            if why is None and stop_when is not None and time.monotonic() < deadline:
                continue
            if why is None:
                timed_out = True
            else:
                notes.append(why)
            kill_group(proc)
            proc.wait()
            break
    # The group may hold grandchildren that keep the pipes open; they die with the group.
    kill_group(proc)
    for t in threads:
        t.join(timeout=5)
    return RunResult(returncode=proc.returncode, stdout=bytes(bufs["out"]),
                     stderr=bytes(bufs["err"]), seconds=time.monotonic() - start,
                     timed_out=timed_out, output_truncated=truncated["flag"], notes=notes)


def remove_tree(path: Path | str) -> None:
    """Remove a child's working folder, however deep the child nested folders in it
    (``shutil.rmtree`` recurses on Python 3.11 and raises RecursionError past ~1000 levels,
    which would leave the folder behind and fail the caller)."""
    try:
        shutil.rmtree(path, ignore_errors=True)
    except RecursionError:
        subprocess.run(["rm", "-rf", "--", str(path)], check=False, capture_output=True)


@dataclass(frozen=True)
class Protection:
    """One property of the sandbox and whether this machine gives it."""

    name: str
    ok: bool
    how: str


def protections(as_root: bool = False) -> list[Protection]:
    """Each protection of a child started with default limits (``as_root``: cargo builds)."""
    p = bwrap.probe(as_root or os.geteuid() != 0)
    b = p.reason
    root = os.geteuid() == 0
    net = p.ok or _fallback_network_private()
    return [
        Protection("private temporary folder", p.ok,
                   "size-capped tmpfs /tmp (bubblewrap)" if p.ok else b),
        Protection("no read access outside what the child needs", p.ok,
                   "empty root with its binary, libraries or JDK bound read-only (bubblewrap)"
                   if p.ok else b),
        _exec_protection(p.ok, b),
        Protection("no network", net,
                   "new network namespace" + (" (bubblewrap)" if p.ok else "")
                   if net else "the kernel refused a network namespace"),
        Protection("no process outlives the run", p.ok,
                   "PID namespace killed as a whole, --die-with-parent (bubblewrap)" if p.ok
                   else "only the process group is killed: a setsid child escapes; " + b),
        Protection("cpu, memory, process, file-size limits", True,
                   "rlimits" + ("; the process limit is set inside the sandbox's user "
                                "namespace, so it counts only the sandbox's processes"
                                if p.ok and exec_lock.available() is None else
                                "; process limit bites: an unused uid per child" if root else
                                "; the process limit counts all of this user's processes")),
        Protection("capped output", True, "captured output truncated"),
    ]


def _exec_protection(wrapped: bool, why_not: str) -> Protection:
    name = "no executing other programs"
    if not wrapped:
        return Protection(name, False, why_not)
    lacking = exec_lock.available()
    if lacking:
        return Protection(name, False, "partly: no other program is visible in its root, but "
                          f"one it writes to its /tmp could run: {lacking}")
    return Protection(name, True, "Landlock allows executing only its own program (and a "
                      "dynamic program's loader; harnesses are static), then a seccomp filter "
                      "refuses every execve/execveat after the one that starts it")


@functools.lru_cache(maxsize=1)
def _fallback_network_private() -> bool:
    probe = run_limited(["readlink", "/proc/self/ns/net"], cwd="/", timeout=10,
                        limits=SandboxLimits(), view=View(system=True))
    try:
        ours = os.readlink("/proc/self/ns/net")
    except OSError:
        ours = ""
    return probe.returncode == 0 and probe.stdout.decode().strip() not in ("", ours)


def missing() -> list[Protection]:
    """The protections this machine cannot give (empty when fully contained)."""
    return [p for p in protections() if not p.ok]


def report_lines() -> list[str]:
    """What ``adequacy backends`` prints: each protection, and how, or why it is missing."""
    return [f"sandbox: {'yes' if p.ok else 'MISSING'}  {p.name}: {p.how}"
            for p in protections()]


def describe() -> str:
    """One line on how contained children will be on this machine (for ``adequacy backends``)."""
    lacking = missing()
    if not lacking:
        return "sandbox: all protections (bubblewrap + Landlock + rlimits" + (
            ", own uid)" if os.geteuid() == 0 else ")")
    return "sandbox: missing " + "; ".join(f"{p.name} ({p.how})" for p in lacking)
