"""Score pairs over worker processes, every pair under a deadline.

Two rules, each from a hang that was seen:

- **Workers start clean** (``spawn``). A forked worker inherits whatever the parent held at the
  fork: threads that do not exist in the child (a thread pool whose one thread stayed in the
  parent, so a job submitted to it waited forever), locks those threads held, and the pipes of
  JVMs the parent started (the writers of a study run rac before scoring). Every such object
  then needs its own after-fork repair, and one missed object is a silent hang. A spawned
  worker is a fresh interpreter that inherits none of it. The plugins of the parent are
  rebuilt in the child from the recipe ``adequacy.extensions.registry.recipe`` gives; where
  there is none (a plugin object that is not a module) the pool falls back to ``fork``.
- **Every pair has a deadline.** A worker notes each phase of its pair
  (``adequacy.scoring.activity``: the front end, each engine, the prover) in a status file; the waiting process looks at the
  files every second, and a phase that outlives its budget (``spec_seconds`` for an engine or
  the prover, plus ``grace_seconds`` for start-up, compiles and JVM starts) has its worker
  killed with its whole tree, and the pair is recorded as an error naming the phase. The other
  pairs of the broken pool are scored again in a fresh one; a pair whose worker died on its own
  is scored once more alone, then recorded as died.
"""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import os
import shutil
import signal
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

from adequacy.extensions import registry
from adequacy.sandbox.proctree import kill_tree, parent_death_signal
from adequacy.scoring import activity
from adequacy.scoring.spec_report import SpecReport

START_METHOD_ENV = "ADEQUACY_POOL_START"
"""``spawn`` (the default), ``forkserver`` or ``fork``: how pool workers start (benchmarks)."""

POLL_SECONDS = 1.0

Score = Callable[[Any, Any], SpecReport]
"""``score(job, opts)``: a module-level function (it is pickled by reference)."""


# ------------------------------------------------------------------ in the worker

_status_file: Path | None = None
_current_key: str | None = None


def _write_status(phase: str | None) -> None:
    if _status_file is None:
        return
    tmp = _status_file.with_suffix(".tmp")
    body = {} if phase is None else {"key": _current_key, "phase": phase, "since": time.time()}
    with contextlib.suppress(OSError):
        tmp.write_text(json.dumps(body), encoding="utf-8")
        os.replace(tmp, _status_file)


def _on_parent_death(signum: int, frame: FrameType | None) -> None:
    kill_tree(os.getpid(), include_self=False)
    os._exit(128 + signum)


def _worker_init(parent: int, lock_fd: int, status_dir: str,
                 recipe: registry.ManagerRecipe | None) -> None:
    """Die with the run, take our children along, leave Ctrl-C to it, rebuild the parent's
    plugins, and say what we are doing."""
    global _status_file
    if lock_fd >= 0:  # forked: the results lock's descriptor is the parent's to hold
        with contextlib.suppress(OSError):
            os.close(lock_fd)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _on_parent_death)
    parent_death_signal(signal.SIGTERM)
    if os.getppid() != parent:  # the run died before the signal was armed
        _on_parent_death(signal.SIGTERM, None)
    if recipe is not None:
        registry.install_recipe(recipe)
    _status_file = Path(status_dir) / f"{os.getpid()}.json"
    activity.set_sink(_write_status)


def _run_one(score: Score, key: str, job: Any, opts: Any) -> SpecReport:
    global _current_key
    _current_key = key
    _write_status("front end")
    try:
        return score(job, opts)
    finally:
        _current_key = None
        _write_status(None)


# ------------------------------------------------------------------ in the waiting process

def start_method() -> tuple[str, registry.ManagerRecipe | None]:
    """How workers start, and the plugin recipe a clean worker needs (None: forked)."""
    wanted = os.environ.get(START_METHOD_ENV, "spawn")
    if wanted not in ("spawn", "forkserver", "fork"):
        wanted = "spawn"
    recipe = registry.recipe()
    if wanted == "fork" or recipe is None:
        return "fork", None
    return wanted, recipe


def phase_budget(phase: str, spec_seconds: float, grace_seconds: float) -> float:
    """Seconds a phase may take: an engine or the prover its spec budget plus the grace,
    the front end (parsing, loading the task) the grace alone."""
    return grace_seconds if phase == "front end" else spec_seconds + grace_seconds


@dataclass
class _Status:
    pid: int
    key: str
    phase: str
    since: float


def _statuses(folder: Path) -> list[_Status]:
    out: list[_Status] = []
    for f in folder.glob("*.json"):
        try:
            body = json.loads(f.read_text(encoding="utf-8"))
            pid = int(f.stem)
        except (OSError, ValueError):
            continue
        if body.get("key"):
            out.append(_Status(pid, str(body["key"]), str(body.get("phase", "?")),
                               float(body.get("since", 0.0))))
    return out


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            state = f.read().rsplit(b")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in (b"Z", b"X")


@dataclass
class _Round:
    lost: list[str] = field(default_factory=list)
    """Keys of the broken pool whose worker died on its own (one of them killed it)."""
    requeue: list[str] = field(default_factory=list)
    """Keys of the broken pool that are innocent: waiting, or in a worker that lived."""
    finished: int = 0


def stop_workers(pool: ProcessPoolExecutor) -> None:
    """Stop every worker now: SIGTERM makes each kill its own children and exit; whatever
    is left after a moment is killed with its tree."""
    procs = dict(getattr(pool, "_processes", None) or {})
    for pid in procs:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGTERM)
    end = time.monotonic() + 0.5
    for p in procs.values():
        p.join(timeout=max(0.0, end - time.monotonic()))
    for pid, p in procs.items():
        if p.is_alive():
            kill_tree(pid)
    pool.shutdown(wait=False, cancel_futures=True)


class PairPool:
    """One batch's pool rounds: ``run`` scores every job, calling ``on_report(key, report)``
    for each, errors and deaths included."""

    def __init__(self, score: Score, opts: Any, spec_seconds: float, grace_seconds: float,
                 on_report: Callable[[str, SpecReport], None], lock_fd: int) -> None:
        self.score, self.opts = score, opts
        self.spec_seconds, self.grace = spec_seconds, grace_seconds
        self.on_report = on_report
        self.method, self.recipe = start_method()
        self.lock_fd = lock_fd if self.method == "fork" else -1

    def run(self, jobs: dict[str, Any], workers: int) -> None:
        remaining = dict(jobs)
        alone_once: set[str] = set()
        while remaining:
            rnd = self._round(remaining, workers)
            nxt = {k: remaining[k] for k in rnd.requeue}
            suspects = list(rnd.lost)
            if not rnd.finished and not suspects and nxt:
                suspects, nxt = list(nxt), {}  # a pool that does nothing: one pair at a time
            for k in suspects:
                if k in alone_once:
                    self.on_report(k, died(remaining[k], k))
                    continue
                alone_once.add(k)
                again = self._round({k: remaining[k]}, 1)
                if again.lost or again.requeue:
                    self.on_report(k, died(remaining[k], k))
            remaining = nxt

    def _round(self, jobs: dict[str, Any], workers: int) -> _Round:
        rnd = _Round()
        folder = Path(tempfile.mkdtemp(prefix="adequacy-pool-"))
        ctx = multiprocessing.get_context(self.method)
        pool = ProcessPoolExecutor(max_workers=workers, mp_context=ctx,
                                   initializer=_worker_init,
                                   initargs=(os.getpid(), self.lock_fd, str(folder),
                                             self.recipe))
        killed: set[str] = set()
        broken: list[str] = []
        try:
            futs: dict[Future[SpecReport], str] = {
                pool.submit(_run_one, self.score, k, j, self.opts): k for k, j in jobs.items()}
            pending = set(futs)
            while pending:
                finished, pending = wait(pending, timeout=POLL_SECONDS,
                                         return_when=FIRST_COMPLETED)
                for fut in finished:
                    k = futs[fut]
                    if k in killed:
                        continue
                    try:
                        rep = fut.result()
                    except BrokenProcessPool:
                        broken.append(k)
                        continue
                    rnd.finished += 1
                    self.on_report(k, rep)
                self._enforce(folder, jobs, killed)
            statuses = {s.key: s for s in _statuses(folder)}
            if killed:
                # we broke the pool (a deadline): every other pair in it is innocent, though
                # the executor has ended their workers too
                rnd.requeue = list(broken)
            else:
                for k in broken:
                    s = statuses.get(k)
                    if s is not None and not _alive(s.pid):
                        rnd.lost.append(k)  # its worker died under it (or was ended after)
                    else:
                        rnd.requeue.append(k)  # still waiting when the pool broke
                if broken and not rnd.lost:
                    # a worker died between two status writes: nobody can be told innocent
                    rnd.lost, rnd.requeue = broken, []
        except BaseException:
            stop_workers(pool)
            raise
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        if broken or killed:
            stop_workers(pool)
        else:
            pool.shutdown(wait=True)
        return rnd

    def _enforce(self, folder: Path, jobs: dict[str, Any], killed: set[str]) -> None:
        now = time.time()
        for s in _statuses(folder):
            if s.key in killed or s.key not in jobs:
                continue
            budget = phase_budget(s.phase, self.spec_seconds, self.grace)
            if now - s.since <= budget:
                continue
            kill_tree(s.pid)
            killed.add(s.key)
            job = jobs[s.key]
            what = "the front end" if s.phase == "front end" else f"engine {s.phase}"
            if s.phase == "verify":
                what = "the prover"
            self.on_report(s.key, SpecReport.failure(
                s.key, f"{what} did not finish within {budget:.0f}s (spec_seconds "
                f"{self.spec_seconds:g} + {self.grace:g}s grace); its worker was killed",
                task_path=job.task, spec_path=job.spec))


def died(job: Any, key: str) -> SpecReport:
    """The record of a pair whose worker died under it, twice."""
    return SpecReport.failure(key, "the worker process scoring this pair died (killed by the OS "
                              "for memory, or a crash); see the engines' limits",
                              task_path=job.task, spec_path=job.spec)


__all__ = ["PairPool", "died", "phase_budget", "start_method", "stop_workers"]
