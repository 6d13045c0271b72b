"""Batches of (task, spec) pairs over a process pool, streamed to a resumable JSONL file.

Each finished pair is appended to the results file and flushed to disk at once, so a killed run
loses nothing it finished; rerunning the same batch reads the file, skips the keys already done
(a torn last line from the kill is dropped) and computes only the rest.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any, Literal, TextIO

from pydantic import BaseModel, ConfigDict, ValidationError

from adequacy.backend import Limits
from adequacy.cache import VerdictCache
from adequacy.errors import TaskError
from adequacy.results import SpecReport
from adequacy.runner import job_key, score_spec
from adequacy.tasks import Task, load_task


class Job(BaseModel):
    """One pair to score; ``spec`` is a path (``spec_text`` overrides reading it)."""

    model_config = ConfigDict(extra="forbid")

    task: str
    spec: str
    spec_text: str | None = None


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
    total: int
    skipped_done: int
    computed: int
    invalid: int
    errors: int
    passed_all: int


def read_done(results: Path, final_only: bool = False) -> dict[str, SpecReport]:
    """Reports already in a results file, by job key; a torn or foreign line is ignored.

    With ``final_only``, ``error`` reports (our failures, possibly transient: a crashed JVM,
    cargo offline) do not count as done, so a resumed batch retries them; the newest line of a
    key wins."""
    done: dict[str, SpecReport] = {}
    if not results.exists():
        return done
    with results.open("r", encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            try:
                rep = SpecReport.model_validate_json(line)
            except (ValidationError, ValueError):
                continue
            if final_only and rep.status == "error":
                done.pop(rep.key, None)
                continue
            done[rep.key] = rep
    return done


def _repair_tail(results: Path) -> None:
    """A kill mid-write leaves a line without its newline: cut it so appends stay parseable."""
    if not results.exists() or results.stat().st_size == 0:
        return
    with results.open("rb+") as f:
        f.seek(-1, os.SEEK_END)
        if f.read(1) == b"\n":
            return
        data = results.read_bytes()
        cut = data.rfind(b"\n") + 1
        f.seek(cut)
        f.truncate()


def _score_job(job: Job, opts: BatchOptions) -> SpecReport:
    """Runs in a pool worker: never raises (a bad task becomes an error report)."""
    cache = VerdictCache(opts.cache_path) if opts.cache_path else None
    try:
        task = load_task(job.task)
    except TaskError as e:
        return SpecReport(key=f"error:{job.task}:{job.spec}", task_id="?", task_path=job.task,
                          spec_path=job.spec, spec_sha="", language="?", status="error",
                          error=str(e)).finish()
    try:
        text = job.spec_text if job.spec_text is not None else Path(job.spec).read_text(
            encoding="utf-8")
    except OSError as e:
        return SpecReport(key=f"error:{job.task}:{job.spec}", task_id=task.id,
                          task_path=job.task, spec_path=job.spec, spec_sha="",
                          language=task.language, status="error",
                          error=f"cannot read spec: {e}").finish()
    return score_spec(task, text, job.spec, backend=opts.backend, engines=opts.engines,
                      cross_check=opts.cross_check, strict=opts.strict, limits=opts.limits,
                      cache=cache)


def _key_of(job: Job, opts: BatchOptions, tasks: dict[str, Task | None]) -> str | None:
    if job.task not in tasks:
        try:
            tasks[job.task] = load_task(job.task)
        except TaskError:
            tasks[job.task] = None
    task = tasks[job.task]
    if task is None:
        return None
    try:
        text = job.spec_text if job.spec_text is not None else Path(job.spec).read_text(
            encoding="utf-8")
    except OSError:
        return None
    return job_key(task, text, opts.engines, opts.cross_check, opts.strict, opts.backend,
                   opts.limits)


def run_batch(
    jobs: Sequence[Job], results: Path | str, opts: BatchOptions, workers: int | None = None,
    progress: bool = True, on_report: Callable[[SpecReport], None] | None = None,
) -> BatchSummary:
    """Score every job not already in ``results``, appending each report as it completes."""
    results = Path(results)
    results.parent.mkdir(parents=True, exist_ok=True)
    _repair_tail(results)
    done = read_done(results, final_only=True)
    tasks: dict[str, Task | None] = {}
    todo: list[Job] = []
    skipped = 0
    for j in jobs:
        k = _key_of(j, opts, tasks)
        if k is not None and k in done:
            skipped += 1
        else:
            todo.append(j)
    workers = workers or max(1, min(len(todo), os.cpu_count() or 1))
    counts = {"computed": 0, "invalid": 0, "errors": 0, "passed": 0}

    def record(rep: SpecReport, out: TextIO) -> None:
        out.write(rep.model_dump_json() + "\n")
        out.flush()
        os.fsync(out.fileno())
        counts["computed"] += 1
        counts["invalid"] += rep.status == "invalid"
        counts["errors"] += rep.status == "error"
        counts["passed"] += rep.passed_all
        if on_report:
            on_report(rep)

    with results.open("a", encoding="utf-8") as out, _progress(progress, len(todo),
                                                               skipped) as advance:
        if opts.executor == "ray":
            from adequacy.ray_executor import score_on_ray

            def ray_one(rep: SpecReport) -> None:
                record(rep, out)
                advance()

            for j in score_on_ray(todo, opts, _score_job, ray_one, address=opts.ray_address,
                                  num_cpus=workers):
                record(_died(j), out)
                advance()
        elif workers == 1 or len(todo) <= 1:
            for j in todo:
                record(_score_job(j, opts), out)
                advance()
        else:
            def done_one(rep: SpecReport) -> None:
                record(rep, out)
                advance()

            suspects = _run_pool(todo, opts, workers, done_one)
            # A worker process that died (killed for memory, a crash in native code) breaks
            # the pool and fails every job in flight; rerun those one per fresh process so
            # that only the job that really kills its process is reported as an error.
            for j in suspects:
                broken = _run_pool([j], opts, 1, done_one)
                for b in broken:
                    record(_died(b), out)
                    advance()
    return BatchSummary(total=len(jobs), skipped_done=skipped, computed=counts["computed"],
                        invalid=counts["invalid"], errors=counts["errors"],
                        passed_all=counts["passed"] + sum(
                            1 for r in done.values() if r.passed_all))


def _run_pool(jobs: Sequence[Job], opts: BatchOptions, workers: int,
              on_report: Callable[[SpecReport], None]) -> list[Job]:
    """Score jobs across a pool; return the jobs lost to a broken pool (not scored)."""
    lost: list[Job] = []
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futs: dict[Future[SpecReport], Job] = {pool.submit(_score_job, j, opts): j for j in jobs}
        pending = set(futs)
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for fut in finished:
                try:
                    rep = fut.result()
                except BrokenProcessPool:
                    lost.append(futs[fut])
                    continue
                on_report(rep)
    return lost


def _died(job: Job) -> SpecReport:
    return SpecReport(key=f"error:{job.task}:{job.spec}", task_id="?", task_path=job.task,
                      spec_path=job.spec, spec_sha="", language="?", status="error",
                      error="the worker process scoring this pair died (killed by the OS for "
                            "memory, or a crash); see the engines' limits").finish()


class _progress:
    """A rich progress bar on stderr, only when asked and when stderr is a terminal or forced."""

    def __init__(self, enabled: bool, total: int, skipped: int) -> None:
        self.enabled = enabled and total > 0
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
    """A JSONL file of ``{"task": ..., "spec": ...}`` lines; relative paths are taken from the
    file's folder. Errors name the file and line."""
    jobs: list[Job] = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
            job = Job.model_validate(obj)
        except (json.JSONDecodeError, ValidationError) as e:
            raise TaskError(f"not a job line ({{\"task\": PATH, \"spec\": PATH}}): {e}",
                            file=str(path), line=n) from None
        base = path.parent
        jobs.append(Job(task=str((base / job.task) if not Path(job.task).is_absolute()
                                 else job.task),
                        spec=str((base / job.spec) if not Path(job.spec).is_absolute()
                                 else job.spec)))
    return jobs


def jobs_from_glob(task_dirs: Iterable[Path], spec_glob: str) -> list[Job]:
    """Every spec matching ``spec_glob`` (relative to each task folder) of every task."""
    jobs: list[Job] = []
    for t in task_dirs:
        for s in sorted(t.glob(spec_glob)):
            jobs.append(Job(task=str(t), spec=str(s)))
    return jobs
