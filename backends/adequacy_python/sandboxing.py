"""Which interpreter runs specs, what it sees in the sandbox, and how a worker is launched.

The worker is the system's Python (``/usr/bin/python3``; ``ADEQUACY_PYTHON`` names another)
run isolated (``-I -S -B``: no site-packages, no ``PYTHON*`` variables, no bytecode written)
inside the project's sandbox. It sees its own binary, its standard library, the libraries
those link, and a copy of ``runtime/`` staged in the cache folder that sandboxed children can
read (a checkout under ``/root`` cannot be read by the unprivileged user a child runs as).
"""

from __future__ import annotations

import functools
import hashlib
import math
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from adequacy.plugin import (
    EngineUnavailable,
    Limits,
    SandboxLimits,
    View,
    cache_dir,
    views,
)

RUNTIME = Path(__file__).resolve().parent / "runtime"
RUNTIME_FILES = ("worker.py", "policy.py", "rewrite.py", "pyvalues.py")
MIN_VERSION = (3, 11)


@dataclass(frozen=True)
class Interpreter:
    executable: str
    version: str
    stdlib: str
    view: tuple[str, ...]
    """Paths bound read-only: the binary, the standard library and linked libraries."""


def _candidates() -> list[str]:
    env = os.environ.get("ADEQUACY_PYTHON")
    if env:
        return [env]
    return [p for p in ("/usr/bin/python3", getattr(sys, "_base_executable", ""),
                        sys.executable) if p]


@functools.lru_cache(maxsize=1)
def interpreter() -> Interpreter | str:
    """The worker's interpreter, or why there is none."""
    why = "no Python interpreter found"
    for cand in _candidates():
        exe = os.path.realpath(cand)
        if not os.path.isfile(exe):
            why = f"{cand}: not a file"
            continue
        try:
            r = subprocess.run([exe, "-I", "-S", "-c",
                                "import sys, os; print(sys.version.split()[0]); "
                                "print(sys.version_info >= (3, 11)); "
                                "print(os.path.dirname(os.__file__))"],
                               capture_output=True, text=True, timeout=30)
        except (OSError, subprocess.SubprocessError) as e:
            why = f"{exe}: {e}"
            continue
        lines = r.stdout.splitlines()
        if r.returncode != 0 or len(lines) < 3:
            why = f"{exe} did not run ({r.stderr.strip()[-200:]})"
            continue
        version, new_enough, stdlib = lines[:3]
        if new_enough != "True":
            why = f"{exe} is Python {version}; the worker needs {'.'.join(map(str, MIN_VERSION))}+"
            continue
        sos = sorted(str(p) for p in Path(stdlib, "lib-dynload").glob("*.so"))
        libs = views.linked_libraries(exe, *sos)
        paths = {exe, stdlib, *libs}
        paths |= {os.path.realpath(p) for p in libs}
        return Interpreter(executable=exe, version=version, stdlib=stdlib,
                           view=tuple(sorted(paths)))
    return why


def runtime_hash() -> str:
    h = hashlib.sha256()
    for name in RUNTIME_FILES:
        h.update(name.encode() + b"\0" + (RUNTIME / name).read_bytes() + b"\0")
    return h.hexdigest()[:16]


def _same(dest: Path) -> bool:
    """Whether ``dest`` holds exactly our runtime (a copy someone edited is not reused)."""
    try:
        return all((dest / n).read_bytes() == (RUNTIME / n).read_bytes()
                   for n in RUNTIME_FILES)
    except OSError:
        return False


@functools.lru_cache(maxsize=1)
def staged_runtime() -> Path:
    """``runtime/`` copied where a sandboxed child can read it (content-addressed, so a
    changed runtime never runs an old copy; a copy that differs from ours is replaced)."""
    dest = cache_dir(shared_with_sandbox=True) / "python-worker" / runtime_hash()
    if _same(dest):
        return dest
    if dest.exists():
        shutil.rmtree(dest, ignore_errors=True)
    tmp = dest.with_name(dest.name + f".tmp{os.getpid()}")
    tmp.mkdir(parents=True, exist_ok=True)
    for name in RUNTIME_FILES:
        shutil.copyfile(RUNTIME / name, tmp / name)
    os.chmod(tmp, 0o755)
    for name in RUNTIME_FILES:
        os.chmod(tmp / name, 0o644)
    try:
        tmp.rename(dest)
    except OSError:  # another process staged it first
        shutil.rmtree(tmp, ignore_errors=True)
    return dest


def launch(limits: Limits) -> tuple[list[str], SandboxLimits, View]:
    """Command, limits and view of one worker (``JsonLineWorker``'s launch)."""
    interp = interpreter()
    if isinstance(interp, str):
        raise EngineUnavailable(interp)
    rt = staged_runtime()
    # -I without its -E: the child's environment is ours to set (clean_env plus the worker's
    # hash seed), so PYTHONHASHSEED must be read; -P -s keep the script folder and the user's
    # site packages off sys.path as -I does
    cmd = [interp.executable, "-P", "-s", "-S", "-B", str(rt / "worker.py")]
    sandbox = SandboxLimits(memory_mb=limits.memory_mb,
                            cpu_seconds=max(5, math.ceil(limits.spec_seconds) + 5),
                            file_size_mb=1, open_files=64, processes=8)
    return cmd, sandbox, View(ro=(*interp.view, str(rt)))
