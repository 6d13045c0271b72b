"""Ask Z3 one question in the limited solver child, through a content-keyed cache.

The formula (declarations and assertions as SMT-LIB text, ``z3.Solver.sexpr``) goes to a
persistent ``JsonLineWorker`` running ``child.py`` in the sandbox with a memory cap; the
per-query timeout is Z3's own (``timeout``) plus a wall-clock deadline on the reply, past which
the child is killed and the answer is unknown. Decided answers (sat with its model, unsat) are
kept under ``solver_query_key`` for the life of the process; unknown ones never are (a later
query may allow more time). They are never written to a file: an "unsat" is a proof the
grader acts on (a case decided, an equivalence claimed), and a file of answers is one whoever
can write the cache folder could plant proofs in. What lasts between runs is the per-case
engine's verdicts, in the sealed verdict cache like every engine's.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from adequacy.errors import BackendError

__all__ = ["SolverAnswer", "ask", "solver_version"]

CHILD = Path(__file__).with_name("child.py")
_LOCK = threading.Lock()
_WORKERS: dict[int, Any] = {}


@dataclass
class SolverAnswer:
    status: str
    """``sat``, ``unsat`` or ``unknown``."""
    values: dict[str, Any] = field(default_factory=dict)
    reason: str = ""
    seconds: float = 0.0
    cached: bool = False


def solver_version() -> str:
    """Z3's version (from the package metadata: no import of z3 needed)."""
    from importlib.metadata import PackageNotFoundError, version
    try:
        return "z3-" + version("z3-solver")
    except PackageNotFoundError:
        return "z3-missing"


def _install() -> Path:
    """A world-readable copy of the z3 package and ``child.py`` (the sandboxed child runs as
    another user and sees neither a home folder nor the project), made once per version."""
    import importlib.util
    import shutil

    from adequacy.sandbox.toolchain import cache_dir
    spec = importlib.util.find_spec("z3")
    if spec is None or spec.origin is None:
        raise BackendError("the symbolic engine needs z3-solver: pip install z3-solver")
    src = Path(spec.origin).parent
    from adequacy.model.values import content_hash
    tag = content_hash(solver_version(), CHILD.read_text(encoding="utf-8"))[:12]
    dest = cache_dir(shared_with_sandbox=True) / f"z3-child-{tag}"
    if not (dest / "ready").is_file():
        tmp = dest.with_name(dest.name + f".tmp{os.getpid()}")
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir(parents=True)
        shutil.copytree(src, tmp / "z3", ignore=shutil.ignore_patterns("__pycache__"))
        shutil.copy(CHILD, tmp / "child.py")
        for p in [tmp, *tmp.rglob("*")]:
            p.chmod(0o755 if p.is_dir() else 0o644)
        (tmp / "ready").write_text("ok")
        try:
            tmp.rename(dest)
        except OSError:  # another process made it first
            shutil.rmtree(tmp, ignore_errors=True)
    return dest


def _launch(memory_mb: int) -> Any:
    from adequacy.sandbox import exec_lock, views
    from adequacy.sandbox.mounts import View
    from adequacy.sandbox.run import SandboxLimits
    home = _install()
    found = exec_lock.python()
    if found is None:
        raise BackendError("no Python interpreter to run the solver child")
    exe, needs = found
    libs = [str(p) for p in (home / "z3" / "lib").glob("libz3*")]
    ro = set(needs) | {str(home)}
    for lib in libs:
        ro |= set(views.libraries(lib).ro)
    cmd = [exe, "-I", "-S", "-B", str(home / "child.py")]
    # Z3 allocates beyond its own cap before it notices; the process cap is the hard stop
    lim = SandboxLimits(memory_mb=memory_mb + 512, cpu_seconds=None, processes=8,
                        file_size_mb=16)
    return cmd, lim, View(ro=tuple(sorted(ro)))


def _worker(memory_mb: int) -> Any:
    from adequacy.sandbox.worker import JsonLineWorker
    with _LOCK:
        w = _WORKERS.get(memory_mb)
        if w is None:
            w = JsonLineWorker("z3 solver child", lambda: _launch(memory_mb),
                               start_seconds=60.0, max_requests=500,
                               workdir_prefix="adequacy-z3-")
            _WORKERS[memory_mb] = w
        return w


def stop_workers() -> None:
    with _LOCK:
        for w in _WORKERS.values():
            w.stop()
        _WORKERS.clear()


_CACHE: OrderedDict[str, SolverAnswer] = OrderedDict()
CACHE_SIZE = 4096
"""Decided answers kept per process (the oldest dropped first)."""


def _cache_get(key: str) -> SolverAnswer | None:
    with _LOCK:
        hit = _CACHE.get(key)
        if hit is None:
            return None
        _CACHE.move_to_end(key)
    return SolverAnswer(hit.status, dict(hit.values), "", 0.0, cached=True)


def _cache_put(key: str, ans: SolverAnswer) -> None:
    with _LOCK:
        _CACHE[key] = SolverAnswer(ans.status, dict(ans.values))
        while len(_CACHE) > CACHE_SIZE:
            _CACHE.popitem(last=False)


def solver_query_key(solver: str, smt2: str, leaves: list[str]) -> str:
    """A symbolic question: the solver's version, the whole formula as SMT-LIB text (every
    declaration and assertion, so any change to a spec, a task's types or the encoding misses)
    and the constants whose model values are read back."""
    from adequacy.model.values import content_hash
    return content_hash("smt", solver, smt2, "\x1f".join(leaves))


def ask(smt2: str, leaves: list[str], *, timeout: float, memory_mb: int = 1024,
        cache: bool = True, deadline: float | None = None) -> SolverAnswer:
    """Is the conjunction of ``smt2``'s assertions satisfiable, within ``timeout`` seconds
    of solver time and ``memory_mb`` of solver memory? With a model of ``leaves`` when sat.
    The reply is awaited a few seconds past the timeout (Z3 checks it between steps), but
    never much past ``deadline`` (``time.monotonic()``): then the child is killed."""
    import time

    from adequacy.errors import WorkerDied
    key = solver_query_key(solver_version(), smt2, leaves)
    if cache:
        hit = _cache_get(key)
        if hit is not None:
            return hit
    timeout = max(0.05, timeout)
    w = _worker(memory_mb)
    req = {"op": "check", "smt2": smt2, "leaves": leaves,
           "timeout_ms": int(timeout * 1000), "memory_mb": memory_mb}
    wait = timeout + 5.0
    if deadline is not None:
        wait = min(wait, max(timeout, deadline - time.monotonic()) + 0.5)
    try:
        rep = w.request(req, wait)
    except WorkerDied as e:
        return SolverAnswer("unknown", reason=f"solver child stopped: {e}")
    status = rep.get("status")
    if status not in ("sat", "unsat", "unknown"):
        return SolverAnswer("unknown", reason=str(rep.get("error") or rep)[:200])
    ans = SolverAnswer(status, rep.get("values") or {}, str(rep.get("reason") or ""),
                       float(rep.get("seconds") or 0.0))
    if status == "unknown" and ans.reason in ("timeout", "canceled"):
        ans.reason = f"solver timeout ({timeout:g} s)"
    if cache and status in ("sat", "unsat"):
        _cache_put(key, ans)
    return ans
