"""Limited child processes for untrusted code (DESIGN section 6).

Spec code compiled to native harnesses or loaded into JVM workers came from a language model.
It runs in a child process with: its own session (so a timeout kills the whole process group),
CPU, address-space, file-size and open-file limits, an empty working directory, capped captured
output, no network where the kernel lets us make a private network namespace, and, when we run
as root (CI does), an unprivileged user id so that the process limit and file permissions bite.

Every measure is best effort where the OS refuses it; what was applied is recorded in
``SandboxInfo`` so that ``adequacy backends`` can say how contained engines are.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import resource
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

CLONE_NEWNET = 0x40000000
NOBODY = 65534


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


def _preexec(limits: SandboxLimits) -> Callable[[], None]:
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
        if not limits.network:
            _libc_unshare(CLONE_NEWNET)
        if limits.drop_privileges and os.geteuid() == 0:
            try:
                os.setgroups([])
                os.setgid(NOBODY)
                os.setuid(NOBODY)
            except OSError:
                pass
        lim(resource.RLIMIT_NPROC, limits.processes)

    return setup


def make_workdir(prefix: str = "adequacy-") -> Path:
    """An empty working directory the (possibly unprivileged) child can write to."""
    d = Path(tempfile.mkdtemp(prefix=prefix))
    if os.geteuid() == 0:
        with contextlib.suppress(OSError):
            os.chown(d, NOBODY, NOBODY)
    return d


def clean_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """A minimal environment: the child sees no tokens or keys of ours."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8", "HOME": "/tmp"}
    for k in ("JAVA_HOME", "RUST_BACKTRACE"):
        if k in os.environ:
            env[k] = os.environ[k]
    env.update(extra or {})
    return env


def kill_group(proc: subprocess.Popen[bytes]) -> None:
    """Kill the child's whole process group (it is a session leader)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    with contextlib.suppress(ProcessLookupError):
        proc.kill()


def popen_limited(
    cmd: Sequence[str], *, cwd: Path | str, limits: SandboxLimits = SandboxLimits(),
    env: Mapping[str, str] | None = None, stdin: int | None = subprocess.PIPE,
    stderr: int | None = subprocess.PIPE,
) -> subprocess.Popen[bytes]:
    """Start a limited child in its own session (for persistent workers)."""
    return subprocess.Popen(
        list(cmd), cwd=str(cwd), env=dict(env) if env is not None else clean_env(),
        stdin=stdin, stdout=subprocess.PIPE, stderr=stderr,
        preexec_fn=_preexec(limits), start_new_session=True, close_fds=True,
    )


def run_limited(
    cmd: Sequence[str], *, cwd: Path | str, timeout: float, input: bytes | None = None,
    limits: SandboxLimits = SandboxLimits(), env: Mapping[str, str] | None = None,
    max_output: int = 8 * 1024 * 1024,
) -> RunResult:
    """Run a limited child to completion; kill its process group at the wall-clock timeout.

    Output beyond ``max_output`` bytes per stream is discarded (the child keeps running, so a
    chatty child cannot block on a full pipe nor fill our memory).
    """
    start = time.monotonic()
    proc = popen_limited(cmd, cwd=cwd, limits=limits, env=env)
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
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        kill_group(proc)
        proc.wait()
    # The group may hold grandchildren that keep the pipes open; they die with the group.
    kill_group(proc)
    for t in threads:
        t.join(timeout=5)
    return RunResult(returncode=proc.returncode, stdout=bytes(bufs["out"]),
                     stderr=bytes(bufs["err"]), seconds=time.monotonic() - start,
                     timed_out=timed_out, output_truncated=truncated["flag"])


def remove_tree(path: Path | str) -> None:
    shutil.rmtree(path, ignore_errors=True)


def describe() -> str:
    """One line on how contained children will be on this machine (for ``adequacy backends``)."""
    parts = ["own process group", "rlimits (cpu, memory, file size, files)"]
    if os.geteuid() == 0:
        parts.append(f"uid {NOBODY} (dropped from root)")
    probe = run_limited(["readlink", "/proc/self/ns/net"], cwd="/", timeout=10)
    try:
        ours = os.readlink("/proc/self/ns/net")
    except OSError:
        ours = ""
    private = probe.returncode == 0 and probe.stdout.decode().strip() not in ("", ours)
    parts.append("private network namespace (no network)" if private else "network not isolated")
    return ", ".join(parts)
