"""Batches of (task, spec) pairs over a process pool, streamed to a resumable JSONL file.

The results file is a log: each finished pair is appended and flushed at once, so a killed run
loses nothing it finished, and a key may appear more than once (a retried error, a spec scored
again). The report of a job is the latest record for the job's current key (task content, spec
text, options, engine versions), and every summary covers exactly the current job list: stale
records of edited specs, earlier attempts and other job lists in the same file are never
counted. Resuming skips jobs whose current key already has a non-error record; errors (our
failures, often transient) are retried, and a retry that fails with the same message is not
written again.

One writer at a time: a ``flock`` on ``RESULTS.lock`` keeps a second ``adequacy run`` out (the
kernel drops the lock when its holder dies, so a killed run never blocks the next one). Pool
workers die with the run: they get a parent-death signal, on which they kill their own
children (JVMs, harness binaries, which live in sessions of their own) before exiting; Ctrl-C
kills the pool at once and says how to resume.
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import hashlib
import json
import os
import signal
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from types import FrameType
from typing import Any, Literal, TextIO

from pydantic import BaseModel, ConfigDict, ValidationError

from adequacy.backend import Limits
from adequacy.cache import VerdictCache
from adequacy.errors import AdequacyError, TaskError, validation_message
from adequacy.results import (
    Provenance,
    SpecReport,
    append_record,
    producer,
    read_log,
    repair_tail,
    totals,
)
from adequacy.runner import job_key, score_spec
from adequacy.tasks import Task, load_task
from adequacy.textfiles import max_spec_bytes, read_spec, read_text
from adequacy.values import content_hash


class Job(BaseModel):
    """One pair to score; ``spec`` is a path (``spec_text`` overrides reading it).

    ``provenance``: who wrote the spec (``synthesize`` writes it into its jobs file); it goes
    into every record of the job and into its key, so the same text written by two models is
    two records, one per model."""

    model_config = ConfigDict(extra="forbid")

    task: str
    spec: str
    spec_text: str | None = None
    provenance: Provenance | None = None
    writer_failed: str | None = None
    """Set by ``adequacy synthesize`` when the writer produced no spec (the reason): the job
    is recorded as ``writer failed`` without scoring ``spec`` (which holds the raw answer)."""


class BatchOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")

    backend: str | None = None
    engines: list[str] | None = None
    cross_check: bool = False
    strict: bool = True
    limits: Limits = Limits()
    cache_path: str | None = None
    """SQLite verdict cache; None disables caching."""
    executor: Literal["local", "ray"] = "local"
    """Where pairs are scored; the results file, keys and resume are the same for both."""
    ray_address: str | None = None
    """``auto``, ``ray://host:10001``, or None to start a local Ray instance."""


class BatchSummary(BaseModel):
    """Totals over the current job list (one report per job); ``computed`` and
    ``skipped_done`` say what this run did."""

    total: int
    skipped_done: int
    computed: int
    scored: int
    passed_all: int
    failed: int
    invalid: int
    errors: int
    writer_failed: int = 0
    """Specs their writer failed to write (``Job.writer_failed``); not invalid, not passed."""
    reports: list[SpecReport] = []
    """The report of every job, in job order."""

    def footer(self, results: Path | str) -> str:
        return (f"{self.total} pairs: {self.computed} scored now, {self.skipped_done} already "
                f"in {results}; passed {self.passed_all}, failed {self.failed}, "
                f"invalid {self.invalid}, "
                + (f"writer failed {self.writer_failed}, " if self.writer_failed else "")
                + f"errors {self.errors}")


class ResultsLocked(AdequacyError):
    """Another process is writing the same results file."""


class BatchInterrupted(AdequacyError):
    """Ctrl-C: the pool was stopped; what finished is in the results file."""

    def __init__(self, results: Path, finished: int, total: int) -> None:
        self.results, self.finished, self.total = results, finished, total
        super().__init__(f"interrupted: {finished} of {total} pairs are done and kept in "
                         f"{results}; run the same command again to resume")


def read_done(results: Path, final_only: bool = False) -> dict[str, SpecReport]:
    """The latest record of each key in a results file; with ``final_only``, keys whose
    latest record is an ``error`` (retried on resume) are left out."""
    log = read_log(results)
    if final_only:
        return {k: r for k, r in log.items() if r.status != "error"}
    return log


def lock_path(results: Path) -> Path:
    return results.with_name(results.name + ".lock")


@contextlib.contextmanager
def results_lock(results: Path) -> Iterator[int]:
    """Hold an exclusive ``flock`` on the results file's sidecar lock for the whole run.

    A lock (not a pid file) because the kernel releases it when its holder dies, even by
    SIGKILL: a stale lock file is harmless. Yields the lock's file descriptor (pool workers
    close their inherited copy so the lock lives exactly as long as this process holds it)."""
    path = lock_path(results)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 64, 0).decode("ascii", "replace").strip()
            who = f" (pid {holder})" if holder.isdigit() else ""
            raise ResultsLocked(
                f"{results} is being written by another `adequacy run`{who}; wait for it to "
                f"finish or give this run another --results file") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        yield fd
    finally:
        os.close(fd)


def _score_job(job: Job, opts: BatchOptions) -> SpecReport:
    """Runs in a pool worker: never raises (a bad task becomes an error report)."""
    cache = VerdictCache(opts.cache_path) if opts.cache_path else None
    try:
        task = load_task(job.task)
    except TaskError as e:
        return SpecReport.failure(_fallback_key(job), str(e), task_path=job.task,
                                  spec_path=job.spec)
    try:
        text = job.spec_text if job.spec_text is not None else read_spec(job.spec)
    except AdequacyError as e:  # missing, a folder, not UTF-8, too large: one line with file
        return SpecReport.failure(_fallback_key(job), str(e), task_path=job.task,
                                  spec_path=job.spec, task_id=task.id,
                                  language=task.language)
    rep = score_spec(task, text, job.spec, backend=opts.backend, engines=opts.engines,
                     cross_check=opts.cross_check, strict=opts.strict, limits=opts.limits,
                     cache=cache)
    return rep.model_copy(update={"key": _with_provenance(rep.key, job)})


def _with_provenance(key: str, job: Job) -> str:
    """A job's key: the scoring key, and who wrote the spec when the jobs file says so."""
    if job.provenance is None or key.startswith("error:"):
        return key
    return content_hash(key, job.provenance.model_dump_json())


def _fallback_key(job: Job) -> str:
    """Key of a job whose task or spec cannot be read: its paths (there is no content)."""
    return f"error:{job.task}:{job.spec}"


def _writer_failed(job: Job, tasks: dict[str, Task | None]) -> SpecReport:
    """The record of a spec its writer failed to write: nothing to score, keyed by the task,
    the path and the reason (so a rewritten spec at the same path is a new job)."""
    reason = " ".join((job.writer_failed or "").split())[:300] or "no spec"
    task = tasks.get(job.task)
    if job.task not in tasks:
        try:
            task = tasks[job.task] = load_task(job.task)
        except TaskError:
            task = tasks[job.task] = None
    sha = hashlib.sha256(f"{job.task}\0{job.spec}\0{reason}".encode()).hexdigest()
    return SpecReport(key=f"writer-failed:{sha}", task_id=task.id if task else "?",
                      task_path=job.task, spec_path=job.spec, spec_sha="",
                      language=task.language if task else "?", status="writer failed",
                      error=reason).finish()


def _key_of(job: Job, opts: BatchOptions, tasks: dict[str, Task | None]) -> str:
    if job.task not in tasks:
        try:
            tasks[job.task] = load_task(job.task)
        except TaskError:
            tasks[job.task] = None
    task = tasks[job.task]
    if task is None:
        return _fallback_key(job)
    try:
        text = job.spec_text if job.spec_text is not None else read_spec(job.spec)
    except AdequacyError:
        return _fallback_key(job)
    return _with_provenance(job_key(task, text, opts.engines, opts.cross_check, opts.strict,
                                    opts.backend, opts.limits), job)


def run_batch(
    jobs: Sequence[Job], results: Path | str, opts: BatchOptions, workers: int | None = None,
    progress: bool = True, on_report: Callable[[SpecReport], None] | None = None,
) -> BatchSummary:
    """Score every job whose current key has no final record in ``results``, appending each
    report as it completes; the summary covers exactly ``jobs``.

    Raises ``ResultsLocked`` when another run holds the file and ``BatchInterrupted`` on
    Ctrl-C (after stopping every worker)."""
    results = Path(results)
    results.parent.mkdir(parents=True, exist_ok=True)
    with results_lock(results) as lock_fd:
        return _run_locked(jobs, results, opts, workers, progress, on_report, lock_fd)


def _run_locked(
    jobs: Sequence[Job], results: Path, opts: BatchOptions, workers: int | None,
    progress: bool, on_report: Callable[[SpecReport], None] | None, lock_fd: int,
) -> BatchSummary:
    reports: list[SpecReport | None] = [None] * len(jobs)
    try:
        repair_tail(results)
        log = read_log(results)
        tasks: dict[str, Task | None] = {}
        todo: dict[str, list[int]] = {}
        skipped = 0
        unwritten: list[tuple[SpecReport, Job]] = []
        for i, j in enumerate(jobs):
            if j.writer_failed is not None:
                wf = reports[i] = _writer_failed(j, tasks)
                if wf.key in log:
                    skipped += 1
                else:
                    unwritten.append((wf, j))
                continue
            k = _key_of(j, opts, tasks)
            rec = log.get(k)
            if rec is not None and rec.status != "error" and not k.startswith("error:"):
                reports[i] = rec
                skipped += 1
            else:
                todo.setdefault(k, []).append(i)
        first = {k: jobs[idx[0]] for k, idx in todo.items()}
        n_workers = workers or max(1, min(len(first), os.cpu_count() or 1))
        computed = 0

        def record(key: str, rep: SpecReport, out: TextIO) -> None:
            nonlocal computed
            prev = log.get(rep.key)
            same_error = (prev is not None and prev.status == rep.status == "error"
                          and prev.error == rep.error)
            if not same_error:
                job = jobs[todo[key][0]]
                try:
                    append_record(results, rep, producer("run", job.provenance), out=out)
                except ValidationError as e:  # a bug of ours: keep it as data, go on
                    rep = SpecReport.failure(rep.key, "internal error: the report failed its "
                                             f"consistency checks: {validation_message(e)}",
                                             task_path=job.task, spec_path=job.spec)
                    append_record(results, rep, producer("run", job.provenance), out=out)
                log[rep.key] = rep
            for idx in todo[key]:
                reports[idx] = rep
                computed += 1
            if on_report:
                on_report(rep)

        with results.open("a", encoding="utf-8") as out, _progress(
                progress, len(first), skipped) as advance:
            def done_one(key: str, rep: SpecReport) -> None:
                record(key, rep, out)
                advance()

            for rep, job in unwritten:
                append_record(results, rep, producer("run", job.provenance), out=out)
                log[rep.key] = rep

            if opts.executor == "ray":
                # Same keys, log and resume: only where a pair is scored changes.
                from adequacy.ray_executor import score_on_ray

                lost = score_on_ray(list(first.items()), opts, _score_keyed,
                                    lambda kr: done_one(*kr), address=opts.ray_address,
                                    num_cpus=workers)
                for k, job in lost:
                    done_one(k, _died(job, k))
            else:
                suspects = _run_pool(first, opts, n_workers, done_one, lock_fd)
                # A worker process that died (killed for memory, a crash in native code)
                # breaks the pool and fails every job in flight; rerun those one per fresh
                # process so that only the job that really kills its process is an error.
                for k in suspects:
                    broken = _run_pool({k: first[k]}, opts, 1, done_one, lock_fd)
                    for b in broken:
                        done_one(b, _died(first[b], b))
    except KeyboardInterrupt:
        raise BatchInterrupted(results, sum(r is not None for r in reports),
                               len(jobs)) from None
    final: list[SpecReport] = []
    for j, r in zip(jobs, reports, strict=True):
        assert r is not None
        if r.spec_path != j.spec:  # same content under another path: the row shows this path
            r = r.model_copy(update={"spec_path": j.spec, "task_path": j.task})
        final.append(r)
    t = totals(final)
    return BatchSummary(total=len(jobs), skipped_done=skipped, computed=computed,
                        scored=t.scored, passed_all=t.passed_all, failed=t.failed,
                        invalid=t.invalid, errors=t.errors, writer_failed=t.writer_failed,
                        reports=final)


# ------------------------------------------------------------------ pool and its children

_PR_SET_PDEATHSIG = 1


def _children_map() -> dict[int, list[int]]:
    kids: dict[int, list[int]] = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        # the command name is in parentheses and may itself contain spaces or parentheses
        fields = stat[stat.rfind(b")") + 2:].split()
        if len(fields) > 1:
            kids.setdefault(int(fields[1]), []).append(int(d))
    return kids


def descendants(pid: int) -> list[int]:
    """Every live process below ``pid`` (by parent links in /proc), children first."""
    kids = _children_map()
    out: list[int] = []
    stack = list(kids.get(pid, []))
    while stack:
        p = stack.pop()
        out.append(p)
        stack += kids.get(p, [])
    return out


def kill_tree(pid: int, include_self: bool = True) -> None:
    """SIGKILL ``pid``'s descendants and their process groups (sandboxed children are session
    leaders whose grandchildren may already have left the tree), then ``pid`` itself."""
    below = descendants(pid)
    for p in below:
        with contextlib.suppress(OSError):
            if os.getpgid(p) == p:
                os.killpg(p, signal.SIGKILL)
        with contextlib.suppress(OSError):
            os.kill(p, signal.SIGKILL)
    if include_self:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


def _on_parent_death(signum: int, frame: FrameType | None) -> None:
    kill_tree(os.getpid(), include_self=False)
    os._exit(128 + signum)


def _worker_init(parent: int, lock_fd: int) -> None:
    """Pool worker set-up: die with the run, take our children along, leave Ctrl-C to it."""
    with contextlib.suppress(OSError):
        os.close(lock_fd)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _on_parent_death)
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    if os.getppid() != parent:  # the run died before the signal was armed
        _on_parent_death(signal.SIGTERM, None)


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    """Stop every worker now (Ctrl-C): SIGTERM makes each kill its own children and exit;
    whatever is left after a moment is killed with its tree."""
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


def _run_pool(jobs: dict[str, Job], opts: BatchOptions, workers: int,
              on_report: Callable[[str, SpecReport], None], lock_fd: int) -> list[str]:
    """Score jobs (by key) across a pool; return the keys lost to a broken pool."""
    lost: list[str] = []
    if not jobs:
        return lost
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_worker_init,
                               initargs=(os.getpid(), lock_fd))
    try:
        futs: dict[Future[SpecReport], str] = {pool.submit(_score_job, j, opts): k
                                               for k, j in jobs.items()}
        pending = set(futs)
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for fut in finished:
                try:
                    rep = fut.result()
                except BrokenProcessPool:
                    lost.append(futs[fut])
                    continue
                on_report(futs[fut], rep)
    except BaseException:
        _stop_workers(pool)
        raise
    pool.shutdown(wait=True)
    return lost


def _score_keyed(item: tuple[str, Job], opts: BatchOptions) -> tuple[str, SpecReport]:
    """A Ray task's unit: the job's key travels with it, so the driver files the report."""
    return item[0], _score_job(item[1], opts)


def _died(job: Job, key: str) -> SpecReport:
    return SpecReport.failure(key, "the worker process scoring this pair died (killed by the "
                              "OS for memory, or a crash); see the engines' limits",
                              task_path=job.task, spec_path=job.spec)


class _progress:
    """A rich progress bar on stderr, only when asked and when stderr is a terminal."""

    def __init__(self, enabled: bool, total: int, skipped: int) -> None:
        self.enabled = enabled and total > 0 and sys.stderr.isatty()
        self.total = total
        self.skipped = skipped
        self._p: Any = None
        self._t: Any = None

    def __enter__(self) -> Callable[[], None]:
        if not self.enabled:
            return lambda: None
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )
        self._p = Progress(TextColumn("scoring"), BarColumn(), MofNCompleteColumn(),
                           TimeElapsedColumn(), TimeRemainingColumn(),
                           console=Console(file=sys.stderr))
        self._p.start()
        desc = "scoring" + (f" ({self.skipped} already done)" if self.skipped else "")
        self._t = self._p.add_task(desc, total=self.total)
        return lambda: self._p.advance(self._t)

    def __exit__(self, *exc: object) -> None:
        if self._p is not None:
            self._p.stop()


def jobs_from_file(path: Path) -> list[Job]:
    """A JSONL file of ``{"task": ..., "spec": ...}`` lines (optionally ``spec_text`` and
    ``provenance``); relative paths are taken from the file's folder. Errors name the file and
    line."""
    jobs: list[Job] = []
    for n, line in enumerate(read_text(path, "jobs file").splitlines(), 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
            job = Job.model_validate(obj)
        except (ValueError, RecursionError) as e:  # bad JSON, or pydantic's ValidationError
            why = validation_message(e) if isinstance(e, ValidationError) else (
                str(e).splitlines()[0] if str(e) else type(e).__name__)
            raise TaskError(f"not a job line ({{\"task\": PATH, \"spec\": PATH}}): {why}",
                            file=str(path), line=n) from None
        cap = max_spec_bytes()
        if job.spec_text is not None and len(job.spec_text.encode("utf-8")) > cap:
            raise TaskError(f"spec_text is larger than {cap} bytes (the limit; raise it with "
                            "--max-spec-bytes or ADEQUACY_MAX_SPEC_BYTES)", file=str(path),
                            line=n)
        base = path.parent
        # every field is kept (spec_text, provenance): only the paths are made absolute
        jobs.append(job.model_copy(update={
            "task": str(job.task if Path(job.task).is_absolute() else base / job.task),
            "spec": str(job.spec if Path(job.spec).is_absolute() else base / job.spec)}))
    return jobs


def jobs_from_glob(task_dirs: Iterable[Path], spec_glob: str) -> list[Job]:
    """Every spec matching ``spec_glob`` (relative to each task folder) of every task."""
    jobs: list[Job] = []
    for t in task_dirs:
        for s in sorted(t.glob(spec_glob)):
            jobs.append(Job(task=str(t), spec=str(s)))
    return jobs
